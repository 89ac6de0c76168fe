import { lazy, Suspense } from "react";
import { Link, Redirect, Route, Switch } from "wouter";
import { Loading } from "./components/error-box";
import type { SessionUser } from "./api/session";
import { TokenPrompt } from "./components/token-prompt";
import { AccountMenu } from "./views/account/account-menu";
import { SessionGate } from "./views/account/session-gate";
import { ExperimentsPage } from "./views/experiments/experiments-page";
import { RunsPage } from "./views/runs/runs-page";
import { ThemeSelect } from "./theme/theme-select";

// The first pages a user opens load with the app; the others (charts, Markdown, registry) on demand.
const RunPage = lazy(() => import("./views/run/run-page").then((m) => ({ default: m.RunPage })));
const CompareRunsPage = lazy(() =>
  import("./views/compare/compare-page").then((m) => ({ default: m.CompareRunsPage })),
);
const ModelsPage = lazy(() => import("./views/models/models-page").then((m) => ({ default: m.ModelsPage })));
const ModelPage = lazy(() => import("./views/models/model-page").then((m) => ({ default: m.ModelPage })));
const LoggedModelsPage = lazy(() =>
  import("./views/logged-models/logged-models-page").then((m) => ({ default: m.LoggedModelsPage })),
);
const LoggedModelPage = lazy(() =>
  import("./views/logged-models/logged-model-page").then((m) => ({ default: m.LoggedModelPage })),
);
const AccountPage = lazy(() => import("./views/account/account-page").then((m) => ({ default: m.AccountPage })));
const UsersPage = lazy(() => import("./views/account/users-page").then((m) => ({ default: m.UsersPage })));
const ExperimentAccessPage = lazy(() =>
  import("./views/account/experiment-access-page").then((m) => ({ default: m.ExperimentAccessPage })),
);
const VersionPage = lazy(() => import("./views/models/version-page").then((m) => ({ default: m.VersionPage })));

/** Routes (wouter): every view is a path plus query-string state. */
export function App() {
  return <SessionGate>{(user) => <Shell user={user} />}</SessionGate>;
}

/** The header and the pages; `user` is the signed-in user (undefined when users are off). */
function Shell({ user }: { user: SessionUser | undefined }) {
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
        <ThemeSelect />
        {user ? <AccountMenu user={user} /> : null}
      </header>
      <main id="main">
        <Suspense fallback={<Loading what="page" />}>
          <Switch>
            <Route path="/">
              <Redirect to="/experiments" replace />
            </Route>
            <Route path="/experiments" component={ExperimentsPage} />
            <Route path="/runs" component={RunsPage} />
            <Route path="/runs/:runId">{(params) => <RunPage runId={params.runId} />}</Route>
            <Route path="/compare" component={CompareRunsPage} />
            <Route path="/logged-models" component={LoggedModelsPage} />
            <Route path="/logged-models/:modelId">{(params) => <LoggedModelPage modelId={params.modelId} />}</Route>
            <Route path="/models" component={ModelsPage} />
            <Route path="/models/:name">{(params) => <ModelPage name={params.name} />}</Route>
            <Route path="/models/:name/versions/:version">
              {(params) => <VersionPage name={params.name} version={params.version} />}
            </Route>
            {user ? <Route path="/account" component={AccountPage} /> : null}
            {user?.is_admin ? <Route path="/admin/users" component={UsersPage} /> : null}
            {user ? (
              <Route path="/experiments/:id/access">
                {(params) => <ExperimentAccessPage experimentId={params.id} />}
              </Route>
            ) : null}
            <Route>
              <h1>Not found</h1>
              <p>
                No page here. <Link href="/experiments">Go to the experiments</Link>.
              </p>
            </Route>
          </Switch>
        </Suspense>
      </main>
      <TokenPrompt />
    </>
  );
}
