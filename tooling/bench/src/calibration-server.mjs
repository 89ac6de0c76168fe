// The calibration scenario's server: a bare Express 5 application whose one route answers a small
// JSON body, in its own process, so the bench can state tracker's figures as a share of what
// Express itself does on this machine in the same run. Prints its URL on stdout when listening.
// With CALIBRATION_WORKERS=N (N > 1) it runs as tracker does with `--workers N`: a node:cluster
// primary and N workers sharing one port (round-robin), and prints the URL once every worker listens;
// the horizontal-scale section measures the bare route's CPU per request at 1 and N workers so.
import cluster from "node:cluster";
import express from "express";

const workers = Number(process.env.CALIBRATION_WORKERS ?? "1");

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("message", (_worker, message) => {
    if (typeof message?.url === "string" && ++listening === workers) process.stdout.write(`${message.url}\n`);
  });
  cluster.on("exit", () => process.exit(1));
  process.on("SIGTERM", () => {
    cluster.removeAllListeners("exit");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const app = express();
  app.disable("x-powered-by");
  app.get("/ping", (_req, res) => {
    res.json({ ok: 1 });
  });
  // Port 0 in every worker of a cluster is one port, shared.
  const server = app.listen(0, "127.0.0.1", () => {
    const url = `http://127.0.0.1:${server.address().port}`;
    if (cluster.isWorker) process.send({ url });
    else process.stdout.write(`${url}\n`);
  });
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
