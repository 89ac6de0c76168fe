import "./view-switch.css";
import type { RunsTab } from "./view-state";

/** The runs page's switch between the table and the charts view (`tab=charts` in the URL). */
export function ViewSwitch({ tab, onChange }: { tab: RunsTab; onChange: (tab: RunsTab) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Runs view">
      <button type="button" aria-pressed={tab === "table"} onClick={() => onChange("table")}>
        Table
      </button>
      <button type="button" aria-pressed={tab === "charts"} onClick={() => onChange("charts")}>
        Charts
      </button>
    </div>
  );
}
