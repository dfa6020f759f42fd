/**
 * The ceiling for HTTP reads on this machine: a server that answers every GET with a fixed JSON
 * body of a given size and nothing else — bare Hono on @hono/node-server, or bare node:http.
 * Run as a child of the suite: `tsx bench/ceiling.ts <hono|node> <port> <body file>`.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const [mode, port, file] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(file, "utf8");
const ready = () => process.stdout.write("ready\n");
if (mode === "hono") {
  // A typical Hono JSON route: c.json() of an object (serialized per request).
  const object = JSON.parse(body) as object;
  const app = new Hono();
  app.get("*", (c) => c.json(object));
  serve({ fetch: app.fetch, port: Number(port), hostname: "127.0.0.1" }, ready);
} else {
  createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  }).listen(Number(port), "127.0.0.1", ready);
}
