import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "uplot/dist/uPlot.min.css";
import "./styles.css";
import { App } from "./app";
import { startSession } from "./api/session";
import { prefetchRunsPage } from "./views/runs/prefetch-runs";

// The session check and the page's first requests go out before the first render (the session
// gate and the page take their answers).
startSession().catch(() => {});
prefetchRunsPage(window.location);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
