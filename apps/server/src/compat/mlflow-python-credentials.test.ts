import { describe, expect, it } from "vitest";
import { call, testDatabases, useTestServer } from "@tracker/testing";

/**
 * MLflow's Python client with credentials, replayed as it sends its requests (PyPI is not reachable
 * here, so the client itself cannot run). What is replayed, from MLflow 2.x's source:
 * - mlflow/utils/rest_utils.py `http_request`: `Authorization: Basic base64(user:password)` when
 *   MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD are both set, else `Bearer <token>` when
 *   MLFLOW_TRACKING_TOKEN is; the headers of mlflow/tracking/request_header/ (User-Agent
 *   `mlflow-python-client/<version>`, X-MLflow-Client-Version); GET with the body as query
 *   parameters, other methods as `requests`' `json=` (Content-Type: application/json);
 * - `verify_rest_response`: a non-200 answer whose body is a JSON object raises RestException
 *   (`error_code`, and the message `<CODE>: <message>`), any other answer MlflowException with the
 *   code of its status (403 is PERMISSION_DENIED);
 * - mlflow/store/tracking/rest_store.py: the bodies of runs/create, runs/log-batch (metrics,
 *   params, tags), runs/set-tag (run_id and run_uuid), runs/update;
 * - mlflow/store/artifact/http_artifact_repo.py: `mlflow-artifacts:/<path>` resolved below
 *   `<tracking URI>/api/2.0/mlflow-artifacts/artifacts/`, files PUT with their guessed MIME type,
 *   listed with GET `?path=`, read with GET, each with the same credentials, failures raised by
 *   `augmented_raise_for_status` (the HTTP status);
 * - mlflow/tracking/_model_registry/client.py: register_model = registered-models/create (an
 *   existing name is fine) then model-versions/create with the run's artifact location as source.
 */

const ADMIN = { username: "admin", password: "admin-password-1234" };
/** A whole client session is some forty requests: the budget of a scenario, as the contract tests give theirs. */
const SCENARIO = { timeout: 300_000 };
const CLIENT_VERSION = "2.16.2";

/** MLFLOW_TRACKING_* as the client reads them. */
interface TrackingEnv {
  MLFLOW_TRACKING_URI: string;
  MLFLOW_TRACKING_USERNAME?: string;
  MLFLOW_TRACKING_PASSWORD?: string;
  MLFLOW_TRACKING_TOKEN?: string;
}

/** What the client raises on a refused call. */
class MlflowError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

const CODE_OF_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "ENDPOINT_NOT_FOUND",
  429: "REQUEST_LIMIT_EXCEEDED",
  500: "INTERNAL_ERROR",
};

class PythonClientReplay {
  constructor(private readonly env: TrackingEnv) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const {
      MLFLOW_TRACKING_USERNAME: user,
      MLFLOW_TRACKING_PASSWORD: password,
      MLFLOW_TRACKING_TOKEN: token,
    } = this.env;
    const headers: Record<string, string> = {
      "User-Agent": `mlflow-python-client/${CLIENT_VERSION}`,
      "X-MLflow-Client-Version": CLIENT_VERSION,
      ...extra,
    };
    if (user && password) headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    else if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /** rest_utils.call_endpoint + verify_rest_response. */
  async call<T = Record<string, unknown>>(
    method: string,
    endpoint: string,
    body: Record<string, unknown> = {},
  ): Promise<T> {
    let url = `${this.env.MLFLOW_TRACKING_URI}/api/2.0/mlflow/${endpoint}`;
    const init: RequestInit = { method, headers: this.headers() };
    if (method === "GET") {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(body))
        for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
      url += `?${params}`;
    } else {
      init.headers = this.headers({ "Content-Type": "application/json" });
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status !== 200) {
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        const { error_code: code = "INTERNAL_ERROR", message = "" } = parsed as {
          error_code?: string;
          message?: string;
        };
        throw new MlflowError(response.status, code, `${code}: ${message}`);
      }
      throw new MlflowError(
        response.status,
        CODE_OF_STATUS[response.status] ?? "INTERNAL_ERROR",
        `API request to endpoint /api/2.0/mlflow/${endpoint} failed with error code ${response.status} != 200. Response body: '${text}'`,
      );
    }
    return parsed as T;
  }

  /** `mlflow-artifacts:/x/y` as http_artifact_repo resolves it against the tracking URI. */
  private artifactUrl(uri: string, file?: string): string {
    const path = uri.replace(/^mlflow-artifacts:\/*/, "");
    return `${this.env.MLFLOW_TRACKING_URI}/api/2.0/mlflow-artifacts/artifacts/${path}${file ? `/${file}` : ""}`;
  }

  private async raiseForStatus(response: Response): Promise<Response> {
    if (response.status >= 400) {
      const text = await response.text();
      let code = CODE_OF_STATUS[response.status] ?? "INTERNAL_ERROR";
      try {
        code = (JSON.parse(text) as { error_code?: string }).error_code ?? code;
      } catch {
        // not JSON
      }
      throw new MlflowError(response.status, code, `${response.status} Client Error: ${text}`);
    }
    return response;
  }

  async logArtifact(artifactUri: string, file: string, content: string, mime: string): Promise<void> {
    await this.raiseForStatus(
      await fetch(this.artifactUrl(artifactUri, file), {
        method: "PUT",
        headers: this.headers({ "Content-Type": mime }),
        body: content,
      }),
    );
  }

  async listArtifacts(artifactUri: string): Promise<Array<{ path: string; is_dir: boolean }>> {
    const path = artifactUri.replace(/^mlflow-artifacts:\/*/, "");
    const response = await this.raiseForStatus(
      await fetch(
        `${this.env.MLFLOW_TRACKING_URI}/api/2.0/mlflow-artifacts/artifacts?${new URLSearchParams({ path })}`,
        { headers: this.headers() },
      ),
    );
    return ((await response.json()) as { files?: Array<{ path: string; is_dir: boolean }> }).files ?? [];
  }

  async downloadArtifact(artifactUri: string, file: string): Promise<string> {
    return (
      await this.raiseForStatus(await fetch(this.artifactUrl(artifactUri, file), { headers: this.headers() }))
    ).text();
  }

  /** A training script's whole session: experiment, run, log-batch, set-tag, artifacts, end. */
  async trainingSession(experimentName: string, user: string) {
    let experimentId: string;
    try {
      experimentId = (
        await this.call<{ experiment_id: string }>("POST", "experiments/create", { name: experimentName })
      ).experiment_id;
    } catch (err) {
      if (!(err instanceof MlflowError) || err.errorCode !== "RESOURCE_ALREADY_EXISTS") throw err;
      experimentId = (
        await this.call<{ experiment: { experiment_id: string } }>("GET", "experiments/get-by-name", {
          experiment_name: experimentName,
        })
      ).experiment.experiment_id;
    }
    const { run } = await this.call<{ run: { info: { run_id: string; artifact_uri: string } } }>(
      "POST",
      "runs/create",
      {
        experiment_id: experimentId,
        user_id: user,
        start_time: Date.now(),
        run_name: "train",
        tags: [
          { key: "mlflow.user", value: user },
          { key: "mlflow.source.name", value: "train.py" },
          { key: "mlflow.source.type", value: "LOCAL" },
          { key: "mlflow.runName", value: "train" },
        ],
      },
    );
    const runId = run.info.run_id;
    await this.call("POST", "runs/log-batch", {
      run_id: runId,
      metrics: [
        { key: "loss", value: 0.5, timestamp: Date.now(), step: 0 },
        { key: "loss", value: 0.25, timestamp: Date.now(), step: 1 },
      ],
      params: [{ key: "lr", value: "0.01" }],
      tags: [{ key: "stage", value: "train" }],
    });
    await this.call("POST", "runs/set-tag", { run_id: runId, run_uuid: runId, key: "owner", value: user });
    await this.logArtifact(run.info.artifact_uri, "model/MLmodel", "artifact_path: model\nflavors: {}\n", "text/plain");
    await this.logArtifact(run.info.artifact_uri, "model/model.pkl", "pickled", "application/octet-stream");
    await this.call("POST", "runs/update", {
      run_id: runId,
      run_uuid: runId,
      status: "FINISHED",
      end_time: Date.now(),
    });
    return { experimentId, runId, artifactUri: run.info.artifact_uri };
  }

  /** mlflow.register_model(f"runs:/{run_id}/model", name). */
  async registerModel(name: string, runId: string, artifactUri: string) {
    try {
      await this.call("POST", "registered-models/create", { name });
    } catch (err) {
      if (!(err instanceof MlflowError) || err.errorCode !== "RESOURCE_ALREADY_EXISTS") throw err;
    }
    return (
      await this.call<{ model_version: { version: string; source: string } }>("POST", "model-versions/create", {
        name,
        source: `${artifactUri}/model`,
        run_id: runId,
      })
    ).model_version;
  }
}

describe.each(testDatabases())("MLflow's Python client with credentials, as sent, on %s", (kind) => {
  const suite = useTestServer(kind, { auth: "users", authAdmin: ADMIN });
  const env = (credentials: Omit<TrackingEnv, "MLFLOW_TRACKING_URI">) =>
    new PythonClientReplay({ MLFLOW_TRACKING_URI: suite.url, ...credentials });
  const createUser = async (username: string, password: string) => {
    const res = await call(
      suite.url,
      "POST",
      "/api/2.0/mlflow/users/create",
      { username, password },
      {
        authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString("base64")}`,
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  const expectLogged = async (client: PythonClientReplay, runId: string, artifactUri: string, user: string) => {
    const { run } = await client.call<{
      run: {
        info: { status: string };
        data: { metrics: unknown[]; params: unknown[]; tags: Array<{ key: string; value: string }> };
      };
    }>("GET", "runs/get", { run_id: runId });
    expect(run.info.status).toBe("FINISHED");
    expect(run.data.params).toEqual([{ key: "lr", value: "0.01" }]);
    expect(run.data.tags).toEqual(
      expect.arrayContaining([
        { key: "owner", value: user },
        { key: "stage", value: "train" },
      ]),
    );
    expect(await client.listArtifacts(`${artifactUri}/model`)).toEqual([
      expect.objectContaining({ path: "MLmodel", is_dir: false }),
      expect.objectContaining({ path: "model.pkl", is_dir: false }),
    ]);
    expect(await client.downloadArtifact(artifactUri, "model/MLmodel")).toContain("artifact_path: model");
  };

  it(
    "logs runs, artifacts and a model with MLFLOW_TRACKING_USERNAME / MLFLOW_TRACKING_PASSWORD (Basic)",
    SCENARIO,
    async () => {
      await createUser("alice", "alice-password-1");
      const alice = env({ MLFLOW_TRACKING_USERNAME: "alice", MLFLOW_TRACKING_PASSWORD: "alice-password-1" });
      const { runId, artifactUri } = await alice.trainingSession("alice-training", "alice");
      await expectLogged(alice, runId, artifactUri, "alice");
      const version = await alice.registerModel("alice-model", runId, artifactUri);
      expect(version).toMatchObject({ version: "1", source: `${artifactUri}/model` });
      // Username and password win over a token, as in the client.
      const both = env({
        MLFLOW_TRACKING_USERNAME: "alice",
        MLFLOW_TRACKING_PASSWORD: "alice-password-1",
        MLFLOW_TRACKING_TOKEN: "trk_not-a-token",
      });
      expect(
        (await both.call<{ user: { username: string } }>("GET", "users/get", { username: "alice" })).user.username,
      ).toBe("alice");
    },
  );

  it(
    "logs runs, artifacts and a model with MLFLOW_TRACKING_TOKEN (a personal access token, Bearer)",
    SCENARIO,
    async () => {
      await createUser("bob", "bob-password-12");
      const bobByPassword = env({ MLFLOW_TRACKING_USERNAME: "bob", MLFLOW_TRACKING_PASSWORD: "bob-password-12" });
      const { token } = await bobByPassword.call<{ token: string }>("POST", "access-tokens/create", { name: "ci" });
      const bob = env({ MLFLOW_TRACKING_TOKEN: token });
      const { runId, artifactUri } = await bob.trainingSession("bob-training", "bob");
      await expectLogged(bob, runId, artifactUri, "bob");
      expect((await bob.registerModel("bob-model", runId, artifactUri)).version).toBe("1");
      // A second version of the same model: registered-models/create's RESOURCE_ALREADY_EXISTS is expected.
      expect((await bob.registerModel("bob-model", runId, artifactUri)).version).toBe("2");
    },
  );

  it(
    "gives a user without the right MLflow's error: 403 PERMISSION_DENIED, with either kind of credentials",
    SCENARIO,
    async () => {
      await createUser("mallory", "mallory-password");
      const byPassword = env({ MLFLOW_TRACKING_USERNAME: "mallory", MLFLOW_TRACKING_PASSWORD: "mallory-password" });
      const { token } = await byPassword.call<{ token: string }>("POST", "access-tokens/create", { name: "m" });
      const byToken = env({ MLFLOW_TRACKING_TOKEN: token });
      const alice = env({ MLFLOW_TRACKING_USERNAME: "alice", MLFLOW_TRACKING_PASSWORD: "alice-password-1" });
      const { runs } = await alice.call<{ runs: Array<{ info: { run_id: string; artifact_uri: string } }> }>(
        "POST",
        "runs/search",
        {
          experiment_ids: [
            (
              await alice.call<{ experiment: { experiment_id: string } }>("GET", "experiments/get-by-name", {
                experiment_name: "alice-training",
              })
            ).experiment.experiment_id,
          ],
        },
      );
      const { run_id: runId, artifact_uri: artifactUri } = runs[0]!.info;
      for (const mallory of [byPassword, byToken]) {
        // Reading works (the default permission is READ); writing to alice's run and model does not.
        expect((await mallory.call<{ run: unknown }>("GET", "runs/get", { run_id: runId })).run).toBeDefined();
        const refusals = [
          () =>
            mallory.call("POST", "runs/log-batch", {
              run_id: runId,
              metrics: [{ key: "x", value: 1, timestamp: 1, step: 0 }],
            }),
          () =>
            mallory.call("POST", "runs/set-tag", { run_id: runId, run_uuid: runId, key: "owner", value: "mallory" }),
          () => mallory.logArtifact(artifactUri, "evil.txt", "x", "text/plain"),
          () =>
            mallory.call("POST", "model-versions/create", {
              name: "alice-model",
              source: `${artifactUri}/model`,
              run_id: runId,
            }),
          () => mallory.call("DELETE", "registered-models/delete", { name: "alice-model" }),
        ];
        for (const refused of refusals) {
          const err = await refused().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(MlflowError);
          expect(err).toMatchObject({ status: 403, errorCode: "PERMISSION_DENIED" });
          // RestException's `<CODE>: <message>`, or the artifact repository's HTTPError with the body.
          expect((err as MlflowError).message).toMatch(
            /PERMISSION_DENIED: Permission denied|403 Client Error: .*Permission denied/,
          );
        }
      }
      // Nothing changed.
      const { run } = await alice.call<{
        run: { data: { tags: Array<{ key: string; value: string }>; metrics?: unknown[] } };
      }>("GET", "runs/get", { run_id: runId });
      expect(run.data.tags).toContainEqual({ key: "owner", value: "alice" });
      expect(await alice.listArtifacts(artifactUri)).not.toContainEqual(expect.objectContaining({ path: "evil.txt" }));
      const versions = await alice.call<{ model_versions?: unknown[] }>("GET", "model-versions/search", {
        filter: "name='alice-model'",
      });
      expect(versions.model_versions).toHaveLength(1);
      // And without credentials, MLflow's 401.
      const anonymous = env({});
      await expect(anonymous.call("GET", "runs/get", { run_id: runId })).rejects.toMatchObject({
        status: 401,
        errorCode: "UNAUTHENTICATED",
      });
    },
  );
});
