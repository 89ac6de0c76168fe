/**
 * Shared set-up of the model registry's HTTP tests (registry-*.test.ts): the suite server, the
 * registry clients and helpers that create, read and search models and versions. Not a test file.
 */
import {
  apiAt,
  call,
  useTestServer,
  type Api,
  type BaseUrl,
  type SuiteServer,
  type TestDatabase,
} from "@tracker/testing";
import { expect } from "vitest";

export interface Tag {
  key: string;
  value: string;
}

export interface ModelVersion {
  name: string;
  version: string;
  creation_timestamp: number;
  last_updated_timestamp: number;
  user_id: string;
  current_stage: string;
  description: string;
  source: string;
  run_id: string;
  status: string;
  status_message: string;
  tags: Tag[];
  run_link: string;
}

export interface RegisteredModel {
  name: string;
  creation_timestamp: number;
  last_updated_timestamp: number;
  user_id?: string;
  description: string;
  latest_versions: ModelVersion[];
  tags: Tag[];
}

export interface ModelPage {
  registered_models: RegisteredModel[];
  next_page_token?: string;
}

export interface VersionPage {
  model_versions: ModelVersion[];
  next_page_token?: string;
}

export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Percent-encodes everything but RFC 3986 unreserved characters (spaces as %20, quotes as %27). */
const strictEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The client of the test server with GET query strings strictly percent-encoded: the validator
 * rejects reserved characters (including `+` for a space) in query values the spec does not mark
 * `allowReserved`.
 */
export function strictApiAt(baseUrl: BaseUrl, prefix: string): Api {
  const base = apiAt(baseUrl, prefix);
  return {
    ...base,
    get: <T = Record<string, unknown>>(op: string, input: Record<string, unknown> = {}) => {
      const query = Object.entries(input)
        .flatMap(([key, value]) =>
          (Array.isArray(value) ? value : [value]).map((item) => `${strictEncode(key)}=${strictEncode(String(item))}`),
        )
        .join("&");
      return call<T>(
        typeof baseUrl === "string" ? baseUrl : baseUrl(),
        "GET",
        `/api/${prefix}/${op}${query ? `?${query}` : ""}`,
      );
    },
  };
}

/** The registry suite for one database: a test server for the enclosing `describe`, its clients and helpers. */
export function useRegistrySuite(kind: TestDatabase) {
  const suite: SuiteServer = useTestServer(kind);
  /** Registry operations: `2.0/preview/tracker`. */
  const api = strictApiAt(() => suite.url, "2.0/preview/tracker");
  /** get-latest-versions: `2.0/tracker`. */
  const tracking = suite.api;

  const createModel = async (name: string, extra: Record<string, unknown> = {}): Promise<RegisteredModel> => {
    const res = await api.post<{ registered_model: RegisteredModel }>("registered-models/create", { name, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.registered_model;
  };
  const getModel = async (name: string): Promise<RegisteredModel> => {
    const res = await api.get<{ registered_model: RegisteredModel }>("registered-models/get", { name });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.registered_model;
  };
  const createVersion = async (name: string, extra: Record<string, unknown> = {}): Promise<ModelVersion> => {
    const res = await api.post<{ model_version: ModelVersion }>("model-versions/create", {
      name,
      source: `s3://bucket/${name}/model`,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.model_version;
  };
  const getVersion = async (name: string, version: string): Promise<ModelVersion> => {
    const res = await api.get<{ model_version: ModelVersion }>("model-versions/get", { name, version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.model_version;
  };
  const transition = async (name: string, version: string, stage: string, archive = false): Promise<ModelVersion> => {
    const res = await api.post<{ model_version: ModelVersion }>("model-versions/transition-stage", {
      name,
      version,
      stage,
      archive_existing_versions: archive,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.model_version;
  };
  const expectError = (
    res: { status: number; body: unknown },
    status: number,
    code: string,
    message?: string | RegExp,
  ) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ error_code: code });
    if (message !== undefined) expect((res.body as { message: string }).message).toMatch(message);
  };
  const searchModels = (input: Record<string, unknown>) => api.get<ModelPage>("registered-models/search", input);
  const searchVersions = (input: Record<string, unknown>) => api.get<VersionPage>("model-versions/search", input);
  const names = (page: ModelPage) => page.registered_models.map((m) => m.name);

  return {
    suite,
    api,
    tracking,
    createModel,
    getModel,
    createVersion,
    getVersion,
    transition,
    expectError,
    searchModels,
    searchVersions,
    names,
  };
}
