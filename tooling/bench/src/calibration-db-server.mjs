// The database calibration scenarios' server: a bare Express 5 application whose one route reads a
// small JSON body (express.json()), runs one named prepared INSERT of it on a pg pool over the
// bench's database, and answers {}: the floor of a write, what Express and one PostgreSQL round trip
// already cost, to judge tracker's server CPU per request by beside the bare route's.
//
// Arguments: the database URL; optionally the path of an OpenAPI document (spec/dist/rev-c.json).
// With a document, express-openapi-validator checks each request against it first, set up as
// tracker sets it up (http/validator-steps.ts, without tracker's own shortcuts), and the route is
// the document's runs/log-metric: the floor of a write with the stack tracker is built on (Express,
// the validator, pg). Prints its URL on stdout when listening.
import express from "express";
import * as OpenApiValidator from "express-openapi-validator";
import pg from "pg";

const [databaseUrl, apiSpec] = process.argv.slice(2);
const TABLE = "calibration_points";
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query(
  `create table if not exists ${TABLE} (run_id text not null, key text not null, value double precision not null, timestamp bigint not null, step bigint not null)`,
);
const insert = `insert into ${TABLE} (run_id, key, value, timestamp, step) values ($1, $2, $3, $4, $5)`;

const app = express();
app.disable("x-powered-by");
app.use(express.json());
if (apiSpec)
  app.use(
    OpenApiValidator.middleware({
      apiSpec,
      fileUploader: false,
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
      validateResponses: false,
      validateSecurity: false,
      ignoreUndocumented: true,
      validateApiSpec: true,
    }),
  );
app.post(apiSpec ? "/api/2.0/tracker/runs/log-metric" : "/write", async (req, res, next) => {
  const { run_id, key, value, timestamp, step } = req.body;
  try {
    await pool.query({ name: "calibration-insert", text: insert, values: [run_id, key, value, timestamp, step] });
    res.json({});
  } catch (err) {
    next(err);
  }
});
// The validator's errors (a status and a message) as JSON; anything else a 500.
app.use((err, _req, res, _next) => {
  res.status(typeof err.status === "number" ? err.status : 500).json({ message: String(err.message) });
});
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
