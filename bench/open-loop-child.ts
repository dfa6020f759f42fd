/**
 * The constant-rate load (bench/open-loop.ts) in a process of its own, so that the bench's own
 * process — its heap, the mixed-pages checker, the orchestration — does not pause the generator
 * (its pauses count as the server's latency). Started by loadProcess(); one run at a time: a JSON
 * line on stdin ({ url, seconds, rate, headers }), a JSON line back (the run's OpenLoopResult, or
 * { error }).
 */
import { createInterface } from "node:readline";
import { openLoop } from "./open-loop.js";

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  queue = queue.then(async () => {
    try {
      const { url, seconds, rate, headers } = JSON.parse(line) as { url: string; seconds: number; rate: number; headers: Record<string, string> };
      const r = await openLoop(url, seconds, rate, headers);
      // Latencies to the µs: a third of the bytes of full doubles, and nothing the figures use is finer.
      process.stdout.write(`${JSON.stringify({ ...r, latencies: r.latencies.map((ms) => Math.round(ms * 1000) / 1000) })}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ error: String(err) })}\n`);
    }
  });
});
process.stdout.write("ready\n");
