/**
 * Starts the bench node (server.ts) in a child process and resolves with its URL once every
 * block is encoded. Its stdin is a pipe: when this process ends, the node ends too.
 */
import { spawn, type ChildProcess } from "node:child_process";

export interface BenchNode {
  url: string;
  blocks: number;
  eventsPerBlock: number;
  child: ChildProcess;
  stop(): void;
}

export function startBenchNode(opts: { blocks: number; latencyMs: number }): Promise<BenchNode> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./server.ts", import.meta.url).pathname], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, BLOCKS: String(opts.blocks), LATENCY_MS: String(opts.latencyMs) },
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`the bench node exited (${code}) before it was ready`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ ...(JSON.parse(line) as { url: string; blocks: number; eventsPerBlock: number }), child, stop: () => child.kill("SIGTERM") });
    });
  });
}
