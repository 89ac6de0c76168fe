import "./charts-view.css";
import type { Run } from "@tracker-ml/client";
import { useMemo } from "react";
import { colorsFor } from "../../../charts/colors";
import type { SearchState } from "../../../url/search-state";
import { numericValue } from "../../compare/compare-table";
import { ParallelCoordinates, ScatterPlot } from "../../compare/plots";
import { summarize } from "../grouping/aggregate";
import { formatGroupBy, groupItems, groupValue, type GroupBy } from "../grouping/group-by";
import { Loading } from "../../../components/error-box";
import { AddCard } from "./add-card";
import { BarCard, type Bar } from "./bar-card";
import { cardId, moveCard, readCards, writeCards, type CardSpec } from "./card-spec";
import { ChartCard } from "./chart-card";
import { chartRuns, readRunLimit, toggled } from "./chart-runs";
import { LineCard, type LineSeries } from "./line-card";
import { RunList } from "./run-list";
import { groupColors } from "./series-colors";

export interface ChartsViewProps {
  state: SearchState;
  /** The loaded runs, in the table's order. */
  runs: readonly Run[];
  /** The first page of runs is still on its way: the cards wait for it instead of asking for no runs' histories. */
  runsLoading: boolean;
  selected: readonly string[];
  metricKeys: readonly string[];
  paramKeys: readonly string[];
  groupBy: GroupBy | undefined;
}

function runName(run: Run): string {
  return run.info.run_name || run.info.run_id.slice(0, 8);
}

/**
 * The runs page's charts view (as MLflow's "Chart" view): a card per metric or chosen params for
 * the runs listed at the side, which can be hidden or pinned; one series per group when grouped.
 * Everything (cards, their order and size, pins, hidden runs) lives in the URL.
 */
export function ChartsView({ state, runs, runsLoading, selected, metricKeys, paramKeys, groupBy }: ChartsViewProps) {
  const cardList = state.params.has("cards") ? state.list("cards") : undefined;
  const cards = readCards(cardList, metricKeys);
  const pinned = state.list("pin");
  const hidden = state.list("hide");
  const limit = readRunLimit(state.get("top"));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the id lists by value (joined)
  const listed = useMemo(
    () => chartRuns({ runs, selected, pinned, hidden, limit }),
    [runs, selected.join(), pinned.join(), hidden.join(), limit],
  );
  const shown = useMemo(() => listed.filter((c) => !c.hidden).map((c) => c.run), [listed]);
  const fetchIds = listed.map((c) => c.run.info.run_id);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the grouping by value (its URL text)
  const groups = useMemo(
    () => (groupBy ? groupItems(shown, (r) => groupValue(r, groupBy)) : undefined),
    [shown, groupBy && formatGroupBy(groupBy)],
  );
  const runColors = colorsFor(fetchIds);
  const byGroup = groups ? groupColors(groups.map((g) => g.value)) : undefined;
  // With grouping every run takes its group's colour (lists, scatter and parallel coordinates).
  const colors = useMemo(() => {
    if (!groupBy || !byGroup) return runColors;
    return new Map(listed.map((c) => [c.run.info.run_id, byGroup.get(groupValue(c.run, groupBy)) ?? "#888"]));
  }, [runColors, byGroup, listed, groupBy]);

  const setCards = (next: readonly CardSpec[]) => state.set({ cards: writeCards(next) }, { replace: true });
  const lineSeries: LineSeries[] = groups
    ? groups.map((g) => ({ label: g.value, color: byGroup!.get(g.value)!, runIds: g.items.map((r) => r.info.run_id) }))
    : shown.map((r) => ({ label: runName(r), color: runColors.get(r.info.run_id)!, runIds: [r.info.run_id] }));
  const bars = (axis: string): Bar[] => {
    if (groups)
      return groups.flatMap((g) => {
        const summary = summarize(g.items.map((r) => numericValue(r, axis)));
        return summary
          ? [{ id: g.value, label: g.value, color: byGroup!.get(g.value)!, value: summary.mean, summary }]
          : [];
      });
    return shown.flatMap((r) => {
      const value = numericValue(r, axis);
      return value === undefined
        ? []
        : [{ id: r.info.run_id, label: runName(r), color: runColors.get(r.info.run_id)!, value }];
    });
  };
  const chart = (card: CardSpec, width: number) => {
    const height = card.wide ? 340 : 220;
    if (card.type === "line")
      return (
        <LineCard
          metricKey={card.axes[0]!.slice("metrics.".length)}
          fetchIds={fetchIds}
          series={lineSeries}
          grouped={Boolean(groups)}
          height={height}
          width={width}
        />
      );
    if (card.type === "bar") return <BarCard axis={card.axes[0]!} bars={bars(card.axes[0]!)} wide={card.wide} />;
    if (card.type === "scatter")
      return <ScatterPlot runs={shown} xAxis={card.axes[0]!} yAxis={card.axes[1]!} colors={colors} />;
    return <ParallelCoordinates runs={shown} axes={card.axes} colors={colors} />;
  };

  return (
    <section className="charts-view" aria-label="Charts view">
      <RunList
        runs={listed}
        colors={colors}
        groupOf={groupBy ? (id) => groupValue(listed.find((c) => c.run.info.run_id === id)!.run, groupBy) : undefined}
        limit={limit}
        selection={selected.length}
        onLimit={(n) => state.set({ top: n === readRunLimit(undefined) ? undefined : n }, { replace: true })}
        onHide={(id, hide) => state.set({ hide: toggled(hidden, id, hide) }, { replace: true })}
        onPin={(id, pin) =>
          state.set(
            { pin: toggled(pinned, id, pin), hide: pin ? toggled(hidden, id, false) : hidden },
            { replace: true },
          )
        }
      />
      <div className="chart-main">
        <AddCard
          metricKeys={metricKeys}
          paramKeys={paramKeys}
          onAdd={(card) => setCards([...cards.filter((c) => cardId(c) !== cardId(card)), card])}
        />
        {cards.length === 0 ? <p className="muted">No charts. Add one above.</p> : null}
        {runsLoading ? (
          <Loading what="runs" />
        ) : (
          <div className="chart-cards">
            {cards.map((card, i) => (
              <ChartCard
                key={cardId(card)}
                card={card}
                index={i}
                count={cards.length}
                onMove={(delta) => setCards(moveCard(cards, i, delta))}
                onWide={(wide) => setCards(cards.map((c, j) => (j === i ? { ...c, wide } : c)))}
                onRemove={() => setCards(cards.filter((_, j) => j !== i))}
              >
                {(width) => chart(card, width)}
              </ChartCard>
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
