import { useEffect, useRef } from "react";
import uPlot from "uplot";
import { withAxisColor } from "./axis-colors";
import { useColorScheme } from "./use-color-scheme";
import { chartFrames } from "./frame-queue";
import { extentOf, panByPixels, type Range } from "./zoom";

/** How the user changed the x window on the canvas: drag to zoom, shift- or middle-drag to pan, double-click to reset. */
export type XRangeChange = "zoom" | "pan" | "reset";

export interface UPlotChartProps {
  options: Omit<uPlot.Options, "width">;
  data: uPlot.AlignedData;
  label: string;
  /** The x window shown (undefined: all the data). The chart follows it; the user changes it through onXRange. */
  xRange?: Range | undefined;
  onXRange?: (range: Range | undefined, how: XRangeChange) => void;
}

/** A shift+drag or a middle-button drag pans the x axis. */
const isPan = (e: MouseEvent): boolean => e.button === 1 || (e.button === 0 && e.shiftKey);

/** The x extent of aligned data (uPlot.join sorts x ascending). */
function dataExtent(data: uPlot.AlignedData): Range | undefined {
  const xs = data[0] as ArrayLike<number>;
  return extentOf([xs.length ? [{ x: xs[0]! }, { x: xs[xs.length - 1]! }] : []]);
}

/**
 * A uPlot canvas chart. The chart is created once per `options` identity and fed new data with
 * setData, so a live refresh keeps the x window (`xRange`), which is controlled from outside:
 * a drag-select, a pan (shift+drag or middle-button drag) and a double-click report the window
 * the user asked for through `onXRange`, and the chart shows whatever `xRange` says.
 */
export function UPlotChart({ options, data, label, xRange, onXRange }: UPlotChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | undefined>(undefined);
  const latest = useRef({ xRange, onXRange, data });
  latest.current = { xRange, onXRange, data };
  /** The data and x window the chart last drew: the same again draws nothing. */
  const builtOnce = useRef(false);
  const drawn = useRef<{ data: uPlot.AlignedData; from?: number; to?: number } | undefined>(undefined);
  const scheme = useColorScheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt only when its options or the colour scheme change; new data goes through setData in its own effect
  useEffect(() => {
    const el = host.current!;
    // Each draw stamps the host with its time (performance.now()), which the benchmark reads, and
    // with the x window drawn, which the end-to-end tests read.
    const stamp = (u: uPlot) => {
      el.setAttribute("data-drawn-at", String(performance.now()));
      el.setAttribute("data-x-min", String(u.scales.x.min));
      el.setAttribute("data-x-max", String(u.scales.x.max));
    };
    const report = (range: Range | undefined, how: XRangeChange) => latest.current.onXRange?.(range, how);
    const selected = (u: uPlot) => {
      if (u.select.width <= 0) return;
      const range: Range = [u.posToVal(u.select.left, "x"), u.posToVal(u.select.left + u.select.width, "x")];
      u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      if (range[1] > range[0]) report(range, "zoom");
    };
    let stopPan: (() => void) | undefined;
    const startPan = (u: uPlot, down: MouseEvent) => {
      const { min, max } = u.scales.x;
      if (min == null || max == null) return;
      const start: Range = [min, max];
      let now = start;
      const move = (e: MouseEvent) => {
        now = panByPixels(start, e.clientX - down.clientX, u.over.clientWidth, dataExtent(u.data));
        u.setScale("x", { min: now[0], max: now[1] });
      };
      const up = () => {
        stopPan?.();
        if (now !== start) report(now, "pan");
      };
      stopPan = () => {
        document.removeEventListener("mousemove", move);
        document.removeEventListener("mouseup", up);
        stopPan = undefined;
      };
      document.addEventListener("mousemove", move);
      document.addEventListener("mouseup", up);
    };
    const cursor: uPlot.Cursor = {
      ...options.cursor,
      drag: { x: true, y: false, ...options.cursor?.drag, setScale: false },
      bind: {
        ...options.cursor?.bind,
        // Shift+drag or a middle-button drag pans; a plain drag selects the range to zoom to.
        // uPlot listens passively: the browser's own action (text selection, middle-button
        // scrolling) is prevented by the listener on the overlay below, not here.
        mousedown: (u, _targ, handler) => (e) => {
          if (isPan(e)) startPan(u, e);
          else if (e.button === 0) handler(e);
          return null;
        },
        dblclick: () => (e) => {
          if (e.button === 0) report(undefined, "reset");
          return null;
        },
      },
    };
    const hooks = {
      ...options.hooks,
      draw: [...(options.hooks?.draw ?? []), stamp],
      setSelect: [...(options.hooks?.setSelect ?? []), selected],
    };
    let made: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    const preventPanDefault = (e: MouseEvent) => {
      if (isPan(e)) e.preventDefault();
    };
    const build = () => {
      const axes = withAxisColor(options.axes, getComputedStyle(el).color);
      const built = latest.current.data;
      made = new uPlot(
        { ...options, ...(axes ? { axes } : {}), cursor, hooks, width: Math.max(240, el.clientWidth) } as uPlot.Options,
        built,
        el,
      );
      chart.current = made;
      builtOnce.current = true;
      made.over.addEventListener("mousedown", preventPanDefault);
      const range = latest.current.xRange;
      if (range) made.setScale("x", { min: range[0], max: range[1] });
      drawn.current = { data: built, from: range?.[0], to: range?.[1] };
      // Observing reports the size at once: only a real change of width draws again.
      const shown = made;
      resize = new ResizeObserver(() => {
        const width = Math.max(240, el.clientWidth);
        if (width !== shown.width) shown.setSize({ width, height: options.height });
      });
      resize.observe(el);
    };
    // The first build waits for a paint (frame-queue.ts; data that comes before it is drawn by the
    // build itself); a rebuild (new options, colour scheme) replaces the chart at once, without an empty frame.
    let cancel: (() => void) | undefined;
    if (builtOnce.current) build();
    else cancel = chartFrames.add(build);
    return () => {
      cancel?.();
      stopPan?.();
      resize?.disconnect();
      if (made) {
        made.over.removeEventListener("mousedown", preventPanDefault);
        made.destroy();
      }
      chart.current = undefined;
    };
  }, [options, scheme]);
  const [from, to] = xRange ?? [];
  useEffect(() => {
    const made = chart.current;
    if (!made) return;
    // Just built with this data and window (a new chart's first draw): not twice.
    const last = drawn.current;
    if (last && last.data === data && last.from === from && last.to === to) return;
    drawn.current = { data, from, to };
    // New data (a live refresh, a finer sample) keeps the window; without one, the axes fit the data.
    if (from === undefined || to === undefined) made.setData(data, true);
    else {
      made.setData(data, false);
      made.setScale("x", { min: from, max: to });
    }
  }, [data, from, to]);
  return <div ref={host} role="img" aria-label={label} className="uplot-host" />;
}
