/**
 * bench/open-loop.ts, the constant-rate load of the reads under ingest: requests evenly spaced
 * (not autocannon's burst at the start of each second), latency counted from when each request
 * was due (a server stall counts for every request it held back, once each), refusals and cut
 * connections counted as errors. The server runs in a worker thread, so its stalls do not stop
 * the generator.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { afterEach, expect, it } from "vitest";
import { loadProcess, openLoop } from "../../bench/open-loop.js";

// The server: a body of BODY bytes; STALL_AT_MS after its first request it blocks its thread for
// STALL_MS once; every REFUSE_EVERY-th request is a 503 with Connection: close, every CLOSE_EVERY-th
// a 200 with Connection: close; arrival times
// (performance.timeOrigin-based) are posted back on "arrivals".
const SERVER = `
const { createServer } = require("node:http");
const { parentPort, workerData: o } = require("node:worker_threads");
const body = Buffer.alloc(o.body, 120);
const arrivals = [];
let first, stalled = false, n = 0;
const server = createServer((req, res) => {
  const now = performance.timeOrigin + performance.now();
  arrivals.push(now);
  first ??= now;
  n++;
  if (o.stallMs && !stalled && now - first >= o.stallAtMs) {
    stalled = true;
    const until = performance.now() + o.stallMs;
    while (performance.now() < until);
  }
  if (o.refuseEvery && n % o.refuseEvery === 0) {
    res.writeHead(503, { "content-type": "text/plain", connection: "close" });
    return res.end("busy");
  }
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length, ...(o.closeEvery && n % o.closeEvery === 0 ? { connection: "close" } : {}) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.address().port }));
parentPort.on("message", () => parentPort.postMessage({ arrivals }));
`;

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

async function server(options: { body: number; stallAtMs?: number; stallMs?: number; refuseEvery?: number; closeEvery?: number }): Promise<string> {
  worker = new Worker(SERVER, { eval: true, workerData: options });
  const [{ port }] = (await once(worker, "message")) as [{ port: number }];
  return `http://127.0.0.1:${port}/x`;
}
async function arrivals(): Promise<number[]> {
  worker!.postMessage("arrivals");
  const [{ arrivals: times }] = (await once(worker!, "message")) as [{ arrivals: number[] }];
  return times;
}

it("sends evenly over the run, not a burst at the start of each second, and reads bodies larger than its read buffer", async () => {
  const url = await server({ body: 200_000 });
  const r = await openLoop(url, 1.5, 400, {}, 16);
  expect(r.sent).toBe(600);
  expect(r.errors).toBe(0);
  expect(r.latencies).toHaveLength(600);
  const times = await arrivals();
  const start = times[0]!;
  // Five windows of 200 ms: 80 requests each at an even pace (autocannon's budget per second sends
  // the second's 400 in its first few milliseconds, then nothing).
  for (let w = 0; w < 5; w++) {
    const inWindow = times.filter((t) => t >= start + w * 200 && t < start + (w + 1) * 200).length;
    expect(inWindow, `window ${w}`).toBeGreaterThanOrEqual(40);
    expect(inWindow, `window ${w}`).toBeLessThanOrEqual(120);
  }
});

it("counts a server stall for every request it held back, from when each was due, and each answer once", async () => {
  const url = await server({ body: 1_000, stallAtMs: 500, stallMs: 300 });
  const r = await openLoop(url, 1.5, 200, {}, 8);
  // No phantom answers (autocannon with a rate adds about L of them for an answer of L ms).
  expect(r.latencies).toHaveLength(300);
  expect(r.errors).toBe(0);
  // 60 requests fell due during the 300 ms stall; counted from their due time, those due in its
  // first half waited at least 150 ms (counted from when they were sent, on 8 busy connections,
  // most would show the few ms after the stall).
  expect(r.latencies.filter((ms) => ms >= 150).length).toBeGreaterThanOrEqual(25);
  expect(Math.max(...r.latencies)).toBeGreaterThanOrEqual(280);
  // The generator itself kept its schedule: the stall was the server's.
  expect(r.lateMax).toBeLessThan(150);
});

it("counts refusals as errors, not latencies, and replaces the connections the server closes", async () => {
  const url = await server({ body: 100, refuseEvery: 5 });
  const r = await openLoop(url, 1, 300, {}, 8);
  expect(r.sent).toBe(300);
  expect(r.errors).toBe(60);
  expect(r.latencies).toHaveLength(240);
});

it("retires a connection whose answer says Connection: close, without losing a request to it", async () => {
  // A stall across the run's end: requests still wait for the connection after the last fell due
  // (as on a loaded machine), and the connections the server closes then must be replaced too.
  const url = await server({ body: 100, closeEvery: 3, stallAtMs: 850, stallMs: 300 });
  // One connection, so a request waits for it whenever it is busy and is sent the moment it is free.
  const r = await openLoop(url, 1, 600, {}, 1);
  expect(r.errors).toBe(0);
  expect(r.latencies).toHaveLength(600);
});

it("runs the same load from a process of its own, one run after another, and ends with its stdin", async () => {
  const url = await server({ body: 50_000 });
  const generator = await loadProcess();
  try {
    expect(generator.pid).not.toBe(process.pid);
    for (const rate of [200, 400]) {
      const r = await generator.run(url, 0.5, rate);
      expect(r.sent).toBe(rate / 2);
      expect(r.errors).toBe(0);
      expect(r.latencies).toHaveLength(rate / 2);
    }
    await expect(generator.run("http://127.0.0.1:1/x", 0.5, 100)).rejects.toThrow(/ECONNREFUSED/);
  } finally {
    await generator.close();
  }
  // Gone: a run says so instead of waiting for an answer that cannot come.
  await expect(generator.run(url, 0.5, 100)).rejects.toThrow(/the load process exited/);
});

it("fails at once when nothing listens", async () => {
  await expect(openLoop("http://127.0.0.1:1/x", 1, 100)).rejects.toThrow(/ECONNREFUSED/);
});
