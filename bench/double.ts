/**
 * Starts bench/rpc-double.ts in a child process (its own devnet, generated storage) and resolves
 * with its URL once the storage is generated: the bootstrap and sweep benches' node.
 */
import { spawn, type ChildProcess } from "node:child_process";

export function startDouble(opts: { accounts: string; assetAccounts: string; latencyMs: number; heapMb?: number }): Promise<{ url: string; child: ChildProcess }> {
  // 1.5M generated accounts outgrow node's default 4 GB heap: a larger one when asked.
  const heap = opts.heapMb ? [`--max-old-space-size=${opts.heapMb}`] : [];
  const child = spawn(process.execPath, [...heap, "--import", "tsx", new URL("./rpc-double.ts", import.meta.url).pathname], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ACCOUNTS: opts.accounts, ASSET_ACCOUNTS: opts.assetAccounts, LATENCY_MS: String(opts.latencyMs), LOG_LEVEL: "error" },
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`the RPC double exited (${code})`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url, child });
    });
  });
}
