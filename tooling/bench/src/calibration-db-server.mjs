// The database calibration scenario's server: a bare Express 5 application whose one route reads a
// small JSON body (express.json()), runs one named prepared INSERT of it on a pg pool over the
// bench's database, and answers {}: the floor of a write, what Express and one PostgreSQL round trip
// already cost, to judge tracker's server CPU per request by beside the bare route's. Takes the
// database URL as its argument; prints its URL on stdout when listening.
import express from "express";
import pg from "pg";

const TABLE = "calibration_points";
const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
await pool.query(
  `create table if not exists ${TABLE} (run_id text not null, key text not null, value double precision not null, timestamp bigint not null, step bigint not null)`,
);
const insert = `insert into ${TABLE} (run_id, key, value, timestamp, step) values ($1, $2, $3, $4, $5)`;

const app = express();
app.disable("x-powered-by");
app.post("/write", express.json(), async (req, res, next) => {
  const { run_id, key, value, timestamp, step } = req.body;
  try {
    await pool.query({ name: "calibration-insert", text: insert, values: [run_id, key, value, timestamp, step] });
    res.json({});
  } catch (err) {
    next(err);
  }
});
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
