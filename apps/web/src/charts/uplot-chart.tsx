import { useEffect, useRef } from "react";
import uPlot from "uplot";

/**
 * A uPlot canvas chart. The chart is created once per `options` identity and fed new data with
 * setData(data, false), so a live refresh keeps the user's zoom.
 */
export function UPlotChart({ options, data, label }: { options: Omit<uPlot.Options, "width">; data: uPlot.AlignedData; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | undefined>(undefined);
  useEffect(() => {
    const el = host.current!;
    // Each draw stamps the host with its time (performance.now()), which the benchmark reads.
    const stamp = () => el.setAttribute("data-drawn-at", String(performance.now()));
    const hooks = { ...options.hooks, draw: [...(options.hooks?.draw ?? []), stamp] };
    const made = new uPlot({ ...options, hooks, width: Math.max(320, el.clientWidth) } as uPlot.Options, data, el);
    chart.current = made;
    const resize = new ResizeObserver(() => made.setSize({ width: Math.max(320, el.clientWidth), height: options.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      made.destroy();
      chart.current = undefined;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options]);
  useEffect(() => {
    chart.current?.setData(data, false);
  }, [data]);
  return <div ref={host} role="img" aria-label={label} className="uplot-host" />;
}
