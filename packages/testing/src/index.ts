export {
  testDatabases,
  serverProcessDatabases,
  databaseEngine,
  createPostgresDatabase,
  type TestDatabase,
  type ServerDatabase,
} from "./databases.js";
export {
  testArtifactStores,
  databaseAndStoreCases,
  storeCasesOnce,
  artifactStoreConfig,
  artifactStoreFlags,
  storedArtifacts,
  testS3Client,
  type TestArtifactStore,
  type StoredArtifacts,
} from "./artifact-stores.js";
export { freePort, connectionRefused } from "./ports.js";
export { call, apiAt, trackingApi, previewApi, type Api, type BaseUrl, type JsonResponse } from "./http.js";
export {
  startTestServer,
  useTestServer,
  useExperimentSuite,
  type TestServer,
  type SuiteServer,
  type ExperimentSuite,
} from "./test-server.js";
export {
  CLI,
  runCli,
  startServerProcess,
  backendStore,
  processAlive,
  childProcesses,
  processTreeCpuMs,
  commandLineOf,
  type CliRun,
  type ServerProcess,
  type ServerProcessOptions,
} from "./cli-process.js";
export { startCluster, postgresBinDir, type PgCluster } from "./pg-cluster.js";
export {
  chunked,
  holdRequest,
  idleKeepAlive,
  keepAliveConnection,
  parseAnswer,
  rawRequest,
  type HeldRequest,
  type KeepAliveConnection,
  type RawAnswer,
} from "./raw-http.js";
export {
  sendRaw,
  leaksIn,
  errorAnswerProblems,
  snapshotDatabase,
  changedTables,
  thrownBy,
  answerOf,
  type Snapshot,
} from "./checks.js";
export { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.js";
export {
  GROUP_START_TIMEOUT_MS,
  sharedArtifactsDestination,
  startServerGroup,
  type ServerGroup,
} from "./server-group.js";
