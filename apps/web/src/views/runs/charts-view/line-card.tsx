import type { Metric } from "@tracker-ml/client";
import { useEffect, useMemo, useState } from "react";
import uPlot from "uplot";
import { useAsync } from "../../../api/use-async";
import { toPoints } from "../../../charts/metric-series";
import { UPlotChart } from "../../../charts/uplot-chart";
import type { Range } from "../../../charts/zoom";
import { ErrorBox, Loading } from "../../../components/error-box";
import { fetchSampled } from "../../../charts/sampled-histories";
import { aggregateSeries } from "../grouping/aggregate";
import { pointsPerRun } from "./card-points";
import { cardQueue } from "./card-queue";
import { takeEarlyHistories } from "./early-histories";
import { withAlpha } from "./series-colors";

/** What a line card draws: one line per run, or per group a mean line with its runs' min-max band. */
export interface LineSeries {
  label: string;
  color: string;
  runIds: readonly string[];
}

export interface LineCardProps {
  metricKey: string;
  /** Every run listed beside the charts (hidden ones too: showing one again needs no fetch). */
  fetchIds: readonly string[];
  series: readonly LineSeries[];
  grouped: boolean;
  height: number;
  /** The card's width in pixels: how many points it asks for. */
  width?: number;
}

function axisPoints(history: readonly Metric[]): { x: number[]; y: number[] } {
  const points = toPoints(history, "step");
  return { x: points.map((p) => p.x), y: points.map((p) => p.y) };
}

/** A metric's history for the charts view's runs, fetched in one request per 100 runs when the card first shows. */
export function LineCard({ metricKey, fetchIds, series, grouped, height, width }: LineCardProps) {
  const idsKey = fetchIds.join(",");
  const perRun = pointsPerRun(fetchIds.length, width);
  // The first screen's cards find their histories asked for already (early-histories.ts).
  const histories = useAsync(
    async () =>
      (await takeEarlyHistories(metricKey, fetchIds, perRun)) ?? fetchSampled(fetchIds, metricKey, undefined, perRun),
    [metricKey, idsKey, perRun],
  );
  // A load of the card queue while the histories are on their way: cards off screen wait for it.
  // It ends in the commit that draws them (this cleanup runs before the chart's effects).
  useEffect(() => (histories.loading ? cardQueue.begin() : undefined), [histories.loading]);
  const [zoom, setZoom] = useState<Range | undefined>();
  const seriesKey = series.map((s) => `${s.label}=${s.color}:${s.runIds.join(".")}`).join("|");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the series by value (seriesKey)
  const data = useMemo(() => {
    const byRun = histories.data;
    if (!byRun) return undefined;
    const tables = series.map((s): uPlot.AlignedData => {
      const runs = s.runIds.map((id) => axisPoints(byRun.get(id) ?? []));
      if (!grouped) return [runs[0]?.x ?? [], runs[0]?.y ?? []];
      const band = aggregateSeries(runs);
      return [band.x, band.mean, band.max, band.min];
    });
    return tables.length ? uPlot.join(tables) : ([[]] as unknown as uPlot.AlignedData);
  }, [histories.data, seriesKey, grouped]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the series by value (seriesKey)
  const options = useMemo<Omit<uPlot.Options, "width">>(() => {
    const line = (s: LineSeries): uPlot.Series => ({
      label: s.label,
      stroke: s.color,
      width: 1.5,
      spanGaps: true,
      points: { show: false },
    });
    const edge = (s: LineSeries, which: string): uPlot.Series => ({
      label: `${s.label} ${which}`,
      stroke: "transparent",
      width: 0,
      spanGaps: true,
      points: { show: false },
    });
    const grid = { stroke: "rgba(128,128,128,0.2)" };
    return {
      height,
      legend: { show: false },
      scales: { x: { time: false } },
      cursor: { drag: { x: true, y: false } },
      series: [
        { label: "step" },
        ...series.flatMap((s) => (grouped ? [line(s), edge(s, "max"), edge(s, "min")] : [line(s)])),
      ],
      bands: grouped
        ? series.map((s, i) => ({ series: [2 + 3 * i, 3 + 3 * i] as [number, number], fill: withAlpha(s.color, 0.18) }))
        : undefined,
      axes: [
        { stroke: "currentColor", grid },
        { stroke: "currentColor", grid, size: 56 },
      ],
    };
  }, [seriesKey, grouped, height]);
  if (histories.error) return <ErrorBox error={histories.error} title={metricKey} />;
  if (!data) return <Loading what={metricKey} />;
  return (
    <UPlotChart
      options={options}
      data={data}
      label={`Line chart of ${metricKey}`}
      xRange={zoom}
      onXRange={(range) => setZoom(range)}
    />
  );
}
