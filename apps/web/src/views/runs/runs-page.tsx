// biome-ignore-all lint/a11y/useFocusableInteractive: the runs table is a windowed ARIA grid; focus goes to the cells' controls
import type { Run } from "@tracker-ml/client";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
} from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  createContext,
  lazy,
  memo,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { Row } from "@tanstack/react-table";
import { Link, useLocation } from "wouter";
import { api, namespace } from "../../api/client";
import { attempt, useAsync } from "../../api/use-async";
import { ErrorBox, Loading } from "../../components/error-box";
import { formatDuration, formatTime, formatValue } from "../../components/format";
import { ViewSelect, viewOf } from "../../components/view-select";
import { href, useSearchState } from "../../url/search-state";
import { ColumnPicker } from "./column-picker";
import { availableKeys, BASE_COLUMNS, BASE_LABELS, keyValue, parseKeyColumn } from "./columns";
import { FilterBox } from "./filter-box";
import { nestRuns, type TreeRow } from "./run-tree";
import { useRunPages } from "./use-run-pages";
import { DATASETS_COLUMN, runQueryOf } from "./run-query";
import { DownloadCsv } from "./download-csv";
import { csvColumns } from "./csv-export";
import { DatasetMenu } from "../../datasets/dataset-menu";
import { datasetsText, encodeDatasetChoice } from "../../datasets/datasets";

const DATASETS = DATASETS_COLUMN;
import { useLiveRefresh } from "./use-live-refresh";
import { useSeenKeys } from "./use-seen-keys";
import { focusInRow, rowStep } from "./row-keys";
import { readTab } from "./charts-view/view-state";
import { ViewSwitch } from "./charts-view/view-switch";
import { formatGroupBy, parseGroupBy } from "./grouping/group-by";
import { GroupHeaderRow } from "./grouping/group-header-row";
import { GroupSelect } from "./grouping/group-select";
import { readCollapsed, tableItems, writeCollapsed, type TableItem } from "./grouping/table-groups";

// The charts view (and its chart code) loads when first shown, not with the table.
const ChartsView = lazy(() => import("./charts-view/charts-view").then((m) => ({ default: m.ChartsView })));
import { SelectAll } from "./select-all";
import { loadWidths, saveWidths } from "./column-widths";

const ROW_HEIGHT = 30;

function tag(run: Run, key: string): string | undefined {
  return run.data.tags.find((t) => t.key === key)?.value;
}

const WIDTHS: Record<string, number> = {
  select: 36,
  name: 260,
  experiment: 160,
  status: 100,
  user: 120,
  start: 170,
  duration: 100,
  source: 200,
};

/** Columns that stay at the left edge when the table scrolls sideways. */
const PINNED = ["select", "name"];

/** A key column wide enough for its whole heading (within bounds; the user can resize it). */
export function keyColumnWidth(id: string): number {
  return Math.min(360, Math.max(140, Math.ceil(id.length * 8.4) + 36));
}

/** Which runs are ticked, and how to tick one: read by the check boxes without rebuilding the columns. */
const Selection = createContext<{ selected: ReadonlySet<string>; toggle: (id: string) => void }>({
  selected: new Set(),
  toggle: () => {},
});

function SelectCell({ run }: { run: Run }) {
  const { selected, toggle } = useContext(Selection);
  return (
    <input
      type="checkbox"
      aria-label={`Select run ${run.info.run_name ?? run.info.run_id}`}
      checked={selected.has(run.info.run_id)}
      onChange={() => toggle(run.info.run_id)}
    />
  );
}

export function RunsPage() {
  const state = useSearchState();
  const [, navigate] = useLocation();
  const ns = namespace();
  const experimentIds = state.list("e");
  const filter = state.get("filter") ?? "";
  const sort = state.get("sort") ?? "start";
  const descending = state.get("asc") !== "1";
  const { view } = viewOf(state);
  const columns = state.list("cols");
  const selected = state.list("sel");
  const tab = readTab(state);
  const groupBy = parseGroupBy(state.get("group"));
  const collapsed = readCollapsed(state.list("fold"));
  const [showPicker, setShowPicker] = useState(false);
  const pickerButton = useRef<HTMLButtonElement>(null);
  const [actionError, setActionError] = useState<Error | undefined>();

  const datasetChoice = state.get("ds");
  const showDatasets = columns.includes(DATASETS);
  const query = runQueryOf(state, ns);
  const pages = useRunPages(query);
  // Every key of the experiments' runs, for the column picker and the filter's completion.
  const listed = useAsync(
    () => (experimentIds.length ? api().listRunKeys(experimentIds) : Promise.resolve(undefined)),
    [experimentIds.join(",")],
  );
  const experiments = useAsync(
    () => Promise.all(experimentIds.map((id) => api().getExperiment(id))),
    [experimentIds.join(",")],
  );
  const fromRuns = useMemo(() => availableKeys(pages.runs, ns), [pages.runs, ns]);
  const keys = useSeenKeys(
    listed.data
      ? {
          metrics: listed.data.metric_keys,
          params: listed.data.param_keys,
          tags: listed.data.tag_keys.filter((k) => !k.startsWith(`${ns}.`)),
        }
      : fromRuns,
    experimentIds.join(","),
  );
  const rows = useMemo(() => nestRuns(pages.runs, `${ns}.parentRunId`), [pages.runs, ns]);
  const anyRunning = pages.runs.some((r) => r.info.status === "RUNNING");
  const live = useLiveRefresh(anyRunning, state.flag("paused"), pages.refresh);

  const selectedKey = selected.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection by value (its joined ids)
  const selection = useMemo(
    () => ({
      selected: new Set(selected),
      toggle: (id: string) =>
        state.set(
          { sel: selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id] },
          { replace: true },
        ),
    }),
    [selectedKey, state.set],
  );
  const experimentNames = useMemo(
    () => new Map((experiments.data ?? []).map((e) => [e.experiment_id, e.name])),
    [experiments.data],
  );
  const severalExperiments = experimentIds.length > 1;

  const helper = createColumnHelper<TreeRow>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: columns by value (join): a new array with the same items keeps the table's columns
  const tableColumns = useMemo<ColumnDef<TreeRow, unknown>[]>(() => {
    const base: ColumnDef<TreeRow, unknown>[] = [
      helper.display({
        id: "select",
        size: WIDTHS.select,
        enableResizing: false,
        header: "Select",
        cell: ({ row }) => <SelectCell run={row.original.run} />,
      }) as ColumnDef<TreeRow, unknown>,
    ];
    const cell: Record<string, (r: TreeRow) => React.ReactNode> = {
      name: (r) => (
        <span style={{ paddingLeft: r.depth * 16 }}>
          {r.depth > 0 ? "↳ " : ""}
          <Link href={`/runs/${r.run.info.run_id}`}>{r.run.info.run_name || r.run.info.run_id}</Link>
          {r.childCount > 0 ? <span className="muted"> ({r.childCount})</span> : null}
        </span>
      ),
      experiment: (r) => experimentNames.get(r.run.info.experiment_id) ?? r.run.info.experiment_id,
      status: (r) => <span className={`badge ${r.run.info.status}`}>{r.run.info.status}</span>,
      user: (r) => tag(r.run, `${ns}.user`) ?? r.run.info.user_id ?? "",
      start: (r) => formatTime(r.run.info.start_time),
      duration: (r) => formatDuration(r.run.info.start_time, r.run.info.end_time),
      source: (r) => tag(r.run, `${ns}.source.name`) ?? "",
    };
    for (const id of BASE_COLUMNS) {
      if (id === "experiment" && !severalExperiments) continue;
      base.push(
        helper.display({
          id,
          size: WIDTHS[id],
          header: BASE_LABELS[id],
          cell: ({ row }) => cell[id]!(row.original),
        }) as ColumnDef<TreeRow, unknown>,
      );
    }
    if (showDatasets)
      base.push(
        helper.display({
          id: DATASETS,
          size: 260,
          header: "Datasets",
          cell: ({ row }) => {
            const text = datasetsText(row.original.run);
            return <span title={text}>{text}</span>;
          },
        }) as ColumnDef<TreeRow, unknown>,
      );
    for (const id of columns) {
      const key = parseKeyColumn(id);
      if (!key) continue;
      base.push(
        helper.display({
          id,
          size: keyColumnWidth(id),
          header: id,
          cell: ({ row }) => {
            const value = keyValue(row.original.run, key);
            return typeof value === "number" ? formatValue(value) : (value ?? "");
          },
        }) as ColumnDef<TreeRow, unknown>,
      );
    }
    return base;
  }, [columns.join(","), ns, severalExperiments, experimentNames, showDatasets]);

  // Dragged widths, remembered in localStorage (saved once a drag ends, not on every pixel).
  const [columnSizing, setColumnSizing] = useState<ColumnSizingState>(loadWidths);
  const table = useReactTable({
    data: rows,
    columns: tableColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.run.info.run_id,
    columnResizeMode: "onChange",
    defaultColumn: { minSize: 36, maxSize: 1000 },
    state: { columnSizing },
    onColumnSizingChange: setColumnSizing,
  });
  const resizing = table.getState().columnSizingInfo.isResizingColumn;
  useEffect(() => {
    if (!resizing) saveWidths(columnSizing);
  }, [columnSizing, resizing]);
  const loadedIds = useMemo(() => rows.map((r) => r.run.info.run_id), [rows]);
  const scroller = useRef<HTMLDivElement>(null);
  const rowModel = table.getRowModel().rows;
  const metricColumns = columns.filter((c) => c.startsWith("metrics."));
  const foldKey = state.get("fold") ?? "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: grouping, folds and columns by value
  const items = useMemo(
    () => tableItems(rowModel, (r) => r.original.run, groupBy, collapsed, metricColumns),
    [rowModel, groupBy && formatGroupBy(groupBy), foldKey, metricColumns.join(",")],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the folds by value (foldKey)
  const toggleGroup = useCallback(
    (value: string) => {
      const next = new Set(collapsed);
      if (next.has(value)) next.delete(value);
      else next.add(value);
      state.set({ fold: writeCollapsed(next) }, { replace: true });
    },
    [foldKey, state.set],
  );
  // Fetches the next page when the rows in view come near the end of those loaded.
  const { done, loading, more } = pages;
  const nearEnd = useCallback(
    (lastIndex: number) => {
      if (lastIndex >= items.length - 20 && !done && !loading) more();
    },
    [items.length, done, loading, more],
  );

  const leafColumns = table.getVisibleLeafColumns();
  const sizes = leafColumns.map((c) => `${c.id}=${c.getSize()}`).join("|");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the sizes by value: a resize gives the rows a new function
  const layout = useMemo(() => {
    const width = new Map(leafColumns.map((c) => [c.id, c.getSize()]));
    const left = new Map<string, number>();
    let x = 0;
    for (const c of leafColumns) {
      if (PINNED.includes(c.id)) left.set(c.id, x);
      x += c.getSize();
    }
    return { widthOf: (id: string) => width.get(id) ?? 140, leftOf: (id: string) => left.get(id) };
  }, [sizes]);
  const { widthOf } = layout;
  const totalWidth = leafColumns.reduce((sum, c) => sum + c.getSize(), 0);
  const sortBy = (id: string) => {
    if (id === "select") return;
    state.set({ sort: id, asc: sort === id ? descending : false });
  };
  const act = async (action: (id: string) => Promise<void>) => {
    const error = await attempt(() => Promise.all(selected.map(action)));
    setActionError(error);
    if (!error) state.set({ sel: [] }, { replace: true });
    await pages.refresh();
  };

  return (
    <div>
      <h1>
        Runs{" "}
        {experiments.data ? <span className="muted">in {experiments.data.map((e) => e.name).join(", ")}</span> : null}
      </h1>
      {experimentIds.length > 0 ? (
        <p>
          <Link href={href("/logged-models", { e: experimentIds })}>Logged models</Link>
        </p>
      ) : null}
      <ErrorBox error={experiments.error} title="Experiment" />
      <ErrorBox error={listed.error} title="Keys" />
      {experimentIds.length === 0 ? (
        <p>
          No experiment chosen. <Link href="/experiments">Pick one or more experiments</Link>.
        </p>
      ) : null}
      <div className="toolbar">
        <ViewSwitch tab={tab} onChange={(next) => state.set({ tab: next === "charts" ? next : undefined })} />
        <FilterBox value={filter} keys={keys} onApply={(next) => state.set({ filter: next })} />
        <GroupSelect
          value={groupBy}
          params={keys.params}
          tags={keys.tags}
          onChange={(next) => state.set({ group: next ? formatGroupBy(next) : undefined, fold: undefined })}
        />
        <ViewSelect state={state} />
        <DatasetMenu
          experimentIds={experimentIds}
          value={datasetChoice}
          onChange={(next) => state.set({ ds: next ? encodeDatasetChoice(next) : undefined })}
        />
        <button type="button" ref={pickerButton} onClick={() => setShowPicker((s) => !s)} aria-expanded={showPicker}>
          Columns ({columns.length})
        </button>
        <button
          type="button"
          className="primary"
          disabled={selected.length < 1}
          onClick={() => navigate(href("/compare", { runs: selected }))}
        >
          Compare {selected.length || ""}
        </button>
        {view !== "deleted" ? (
          <button
            type="button"
            className="danger"
            disabled={selected.length === 0}
            onClick={() => void act((id) => api().deleteRun(id))}
          >
            Delete selected
          </button>
        ) : null}
        {view !== "active" ? (
          <button type="button" disabled={selected.length === 0} onClick={() => void act((id) => api().restoreRun(id))}>
            Restore selected
          </button>
        ) : null}
        <DownloadCsv
          query={query}
          columns={csvColumns(
            columns,
            ns,
            severalExperiments ? (id) => experimentNames.get(id) ?? id : undefined,
            showDatasets ? [{ header: "Datasets", value: datasetsText }] : [],
          )}
          experimentNames={experiments.data?.map((e) => e.name) ?? experimentIds}
        />
        <label>
          <input
            type="checkbox"
            checked={!state.flag("paused")}
            onChange={(e) => state.set({ paused: !e.target.checked }, { replace: true })}
          />{" "}
          Live refresh
          {live ? <span className="muted"> (on)</span> : null}
        </label>
      </div>
      {showPicker ? (
        <ColumnPicker
          keys={keys}
          columns={columns}
          extras={[{ id: DATASETS, label: "Datasets" }]}
          onChange={(next) => state.set({ cols: next }, { replace: true })}
          onClose={() => {
            setShowPicker(false);
            pickerButton.current?.focus();
          }}
        />
      ) : null}
      <ErrorBox error={pages.error} title="Search failed" />
      <ErrorBox error={actionError} />
      <p className="muted" aria-live="polite">
        {rows.length} run{rows.length === 1 ? "" : "s"} loaded{pages.done ? "" : ", scroll for more"}
        {pages.loading ? " · loading…" : ""}
      </p>
      {rows.length === 0 && pages.done && !pages.loading && !pages.error && experimentIds.length > 0 ? (
        <EmptyRuns
          filtered={query.filter !== undefined}
          view={view}
          onClear={() => state.set({ filter: undefined, ds: undefined })}
          onShowAll={() => state.set({ view: undefined })}
        />
      ) : null}
      {tab === "charts" ? (
        <Suspense fallback={<Loading what="charts" />}>
          <ChartsView
            state={state}
            runs={pages.runs}
            runsLoading={pages.runs.length === 0 && !pages.done}
            selected={selected}
            metricKeys={keys.metrics}
            paramKeys={keys.params}
            groupBy={groupBy}
          />
        </Suspense>
      ) : null}
      <div
        className="runs-table"
        hidden={tab === "charts"}
        ref={scroller}
        role="table"
        aria-label="Runs"
        aria-rowcount={items.length + 1}
        data-testid="runs-table"
      >
        <div role="rowgroup" className="head-group" style={{ width: totalWidth }}>
          {table.getHeaderGroups().map((group) => (
            <div className="row head" role="row" key={group.id} style={{ width: totalWidth }}>
              {group.headers.map((header) => {
                const id = header.column.id;
                const active = sort === id;
                const label = typeof header.column.columnDef.header === "string" ? header.column.columnDef.header : id;
                return (
                  <div
                    className={`cell${layout.leftOf(id) !== undefined ? " pinned" : ""}`}
                    role="columnheader"
                    key={header.id}
                    style={{ width: widthOf(id), left: layout.leftOf(id) }}
                    aria-sort={active ? (descending ? "descending" : "ascending") : undefined}
                  >
                    {id === "select" ? (
                      <SelectAll
                        loaded={loadedIds}
                        selected={selected}
                        onChange={(next) => state.set({ sel: next }, { replace: true })}
                      />
                    ) : (
                      <button type="button" onClick={() => sortBy(id)} title={`${label}: sort on the server`}>
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        {active ? (descending ? " ▼" : " ▲") : ""}
                      </button>
                    )}
                    {header.column.getCanResize() ? (
                      <ColumnResizer
                        label={label}
                        size={header.column.getSize()}
                        resizing={header.column.getIsResizing()}
                        onPointer={header.getResizeHandler()}
                        onSize={(size) => setColumnSizing((old) => ({ ...old, [id]: size }))}
                      />
                    ) : null}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        <Selection.Provider value={selection}>
          <RunsBody
            items={items}
            groupLabel={groupBy ? formatGroupBy(groupBy) : ""}
            onToggleGroup={toggleGroup}
            columnIds={leafColumns.map((c) => c.id)}
            scroller={scroller}
            selected={selected}
            width={totalWidth}
            layout={layout}
            columns={tableColumns}
            onRange={nearEnd}
          />
        </Selection.Provider>
      </div>
    </div>
  );
}

/**
 * The virtualised rows. Its own component: scrolling changes the virtualizer's state, and only
 * this part (not the page with its toolbar and header) renders again on each scrolled frame.
 */
const RunsBody = memo(function RunsBody({
  items: rows,
  groupLabel,
  onToggleGroup,
  columnIds,
  scroller,
  selected,
  width,
  layout,
  columns,
  onRange,
}: {
  /** The rows, with group headers between them when grouped. */
  items: TableItem<Row<TreeRow>>[];
  groupLabel: string;
  onToggleGroup: (value: string) => void;
  columnIds: readonly string[];
  scroller: React.RefObject<HTMLDivElement | null>;
  selected: readonly string[];
  width: number;
  layout: ColumnLayout;
  columns: unknown;
  /** Told the index of the last row rendered (overscan included) whenever it changes. */
  onRange: (lastIndex: number) => void;
}) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index;
  useEffect(() => {
    if (lastIndex !== undefined) onRange(lastIndex);
  }, [lastIndex, onRange]);
  const chosen = useMemo(() => new Set(selected), [selected]);
  // Up and down arrows move to the same column of the row above or below (scrolled into view).
  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const step = rowStep(e);
    if (step === undefined) return;
    const from = (e.target as HTMLElement).closest<HTMLElement>("[role=row]");
    const cell = (e.target as HTMLElement).closest<HTMLElement>("[role=cell]");
    if (!from || !cell) return;
    const index = Number(from.getAttribute("aria-rowindex")) - 2 + step;
    if (index < 0 || index >= rows.length) return;
    e.preventDefault();
    const column = [...from.children].indexOf(cell);
    virtualizer.scrollToIndex(index, { align: "auto" });
    focusInRow(e.currentTarget, index + 2, column);
  };
  return (
    <div
      role="rowgroup"
      style={{ height: virtualizer.getTotalSize(), position: "relative", width }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => {
        const entry = rows[item.index];
        if (!entry) return null;
        if (entry.kind === "group")
          return (
            <GroupHeaderRow
              key={`group:${entry.value}`}
              item={entry}
              groupLabel={groupLabel}
              index={item.index}
              start={item.start}
              height={ROW_HEIGHT}
              width={width}
              columnIds={columnIds}
              widthOf={layout.widthOf}
              leftOf={layout.leftOf}
              onToggle={onToggleGroup}
            />
          );
        const row = entry.row;
        return (
          <RunRow
            key={row.id}
            row={row}
            index={item.index}
            start={item.start}
            selected={chosen.has(row.id)}
            width={width}
            layout={layout}
            columns={columns}
          />
        );
      })}
    </div>
  );
});

/**
 * One row of the virtualised table. Memoised: while scrolling only the rows that come into view
 * render; the others keep their DOM (their props do not change).
 */
const RunRow = memo(function RunRow({
  row,
  index,
  start,
  selected,
  width,
  layout,
}: {
  row: Row<TreeRow>;
  index: number;
  start: number;
  selected: boolean;
  width: number;
  layout: ColumnLayout;
  /** The column definitions: a new set (columns picked, selection changed) renders the row again. */
  columns: unknown;
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`row${selected ? " selected" : ""}`}
      data-run-id={row.id}
      style={{ position: "absolute", top: 0, left: 0, height: ROW_HEIGHT, width, transform: `translateY(${start}px)` }}
    >
      {row.getVisibleCells().map((c) => {
        const left = layout.leftOf(c.column.id);
        return (
          <div
            className={`cell${left !== undefined ? " pinned" : ""}`}
            role="cell"
            key={c.id}
            style={{ width: layout.widthOf(c.column.id), left }}
          >
            {flexRender(c.column.columnDef.cell, c.getContext())}
          </div>
        );
      })}
    </div>
  );
});

interface ColumnLayout {
  widthOf: (id: string) => number;
  /** The left offset of a pinned column, undefined for the others. */
  leftOf: (id: string) => number | undefined;
}

/** The drag handle at a heading's right edge; arrow keys resize too (10 px a press). */
function ColumnResizer({
  label,
  size,
  resizing,
  onPointer,
  onSize,
}: {
  label: string;
  size: number;
  resizing: boolean;
  onPointer: (event: unknown) => void;
  onSize: (size: number) => void;
}) {
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${label}`}
      aria-valuenow={size}
      aria-valuemin={36}
      aria-valuemax={1000}
      tabIndex={0}
      className={`resizer${resizing ? " resizing" : ""}`}
      onMouseDown={onPointer}
      onTouchStart={onPointer}
      onDoubleClick={() => onSize(keyColumnWidth(label))}
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
          e.preventDefault();
          onSize(Math.max(36, size + (e.key === "ArrowLeft" ? -10 : 10)));
        }
      }}
    />
  );
}

/** What an empty table says, and the way out. */
function EmptyRuns({
  filtered,
  view,
  onClear,
  onShowAll,
}: {
  filtered: boolean;
  view: string;
  onClear: () => void;
  onShowAll: () => void;
}) {
  return (
    <div className="empty" role="status">
      {filtered ? (
        <p>
          No run matches this filter.{" "}
          <button type="button" onClick={onClear}>
            Clear the filter
          </button>
        </p>
      ) : view !== "active" ? (
        <p>
          No {view === "deleted" ? "deleted " : ""}runs here.{" "}
          <button type="button" onClick={onShowAll}>
            Show active runs
          </button>
        </p>
      ) : (
        <p>
          This experiment has no runs yet. Log one from Python with <code>mlflow.start_run()</code> (tracking URI set to
          this server), or with <code>@tracker-ml/client</code>&apos;s <code>createRun</code>.
        </p>
      )}
    </div>
  );
}
