// The calibration scenario's server: a bare Express 5 application whose one route answers a small
// JSON body, in its own process, so the bench can state tracker's figures as a share of what
// Express itself does on this machine in the same run. Prints its URL on stdout when listening.
import express from "express";

const app = express();
app.disable("x-powered-by");
app.get("/ping", (_req, res) => {
  res.json({ ok: 1 });
});
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
