/**
 * The ceiling for HTTP reads on this machine: a server that answers GET /r/<i> with the i-th of
 * a list of JSON bodies (one per route measured, the size of that route's answer) and nothing
 * else — bare Hono on @hono/node-server, or bare node:http.
 * Run as a child of the suite: `tsx bench/ceiling.ts <hono|node> <port> <bodies file>` (a JSON array of body texts).
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const [mode, port, file] = process.argv.slice(2) as [string, string, string];
const bodies = JSON.parse(readFileSync(file, "utf8")) as string[];
const ready = () => process.stdout.write("ready\n");
if (mode === "hono") {
  // A typical Hono JSON route: c.json() of an object (serialized per request).
  const objects = bodies.map((b) => JSON.parse(b) as object);
  const app = new Hono();
  app.get("/r/:i", (c) => c.json(objects[Number(c.req.param("i"))] ?? {}));
  serve({ fetch: app.fetch, port: Number(port), hostname: "127.0.0.1" }, ready);
} else {
  createServer((req, res) => {
    const body = bodies[Number(req.url?.slice(3))] ?? "{}";
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  }).listen(Number(port), "127.0.0.1", ready);
}
