import { Link, Redirect, Route, Switch } from "wouter";
import { TokenPrompt } from "./components/token-prompt";
import { CompareRunsPage } from "./views/compare/compare-page";
import { ExperimentsPage } from "./views/experiments/experiments-page";
import { ModelPage } from "./views/models/model-page";
import { ModelsPage } from "./views/models/models-page";
import { VersionPage } from "./views/models/version-page";
import { RunPage } from "./views/run/run-page";
import { RunsPage } from "./views/runs/runs-page";

/** Routes (wouter): every view is a path plus query-string state. */
export function App() {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/experiments" className="brand">
          tracker
        </Link>
        <nav aria-label="Main">
          <Link href="/experiments">Experiments</Link>
          <Link href="/models">Models</Link>
        </nav>
      </header>
      <main id="main">
        <Switch>
          <Route path="/">
            <Redirect to="/experiments" replace />
          </Route>
          <Route path="/experiments" component={ExperimentsPage} />
          <Route path="/runs" component={RunsPage} />
          <Route path="/runs/:runId">{(params) => <RunPage runId={params.runId} />}</Route>
          <Route path="/compare" component={CompareRunsPage} />
          <Route path="/models" component={ModelsPage} />
          <Route path="/models/:name">{(params) => <ModelPage name={params.name} />}</Route>
          <Route path="/models/:name/versions/:version">{(params) => <VersionPage name={params.name} version={params.version} />}</Route>
          <Route>
            <h1>Not found</h1>
            <p>
              No page here. <Link href="/experiments">Go to the experiments</Link>.
            </p>
          </Route>
        </Switch>
      </main>
      <TokenPrompt />
    </>
  );
}
