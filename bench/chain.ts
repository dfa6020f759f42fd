/**
 * The devnet of the indexer benchmarks, in a child process as a real node would be: seeded, traded
 * for BENCH_BLOCKS blocks (default 60) by the live-swap trickle, then left idle, so the measured
 * process has the CPU to itself apart from the chain answering its reads.
 */
import { spawn } from "node:child_process";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { startDevnet } from "../indexer/devnet/chopsticks.js";
import { seedMarket, startLiveSwaps } from "../indexer/devnet/scenario.js";
import { loadConfig } from "../shared/config.js";

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 60);

/** Child mode: the chain. Prints one JSON line {wsUrl, head} once the history exists. */
export async function chain(genesis: string): Promise<void> {
  const devnet = await startDevnet({ genesis, port: 0 });
  const api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
  const seeded = await seedMarket(api, { holders: 50 });
  const swaps = startLiveSwaps(api, { intervalMs: 0, onError: () => {} });
  while ((await api.rpc.chain.getHeader()).number.toNumber() < seeded.block + BLOCKS) await new Promise((r) => setTimeout(r, 200));
  await swaps.stop();
  const head = (await api.rpc.chain.getHeader()).number.toNumber();
  process.stdout.write(`${JSON.stringify({ wsUrl: devnet.wsUrl, head })}\n`);
  process.once("SIGTERM", () => void api.disconnect().then(() => devnet.close()).then(() => process.exit(0)));
}

export function startChain(): Promise<{ wsUrl: string; head: number; stop(): void }> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, "chain"], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, LOG_LEVEL: "error" } });
  return new Promise((resolve, reject) => {
    let out = "";
    child.on("exit", (code) => reject(new Error(`the chain process exited (${code}) before it was ready`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ ...(JSON.parse(line) as { wsUrl: string; head: number }), stop: () => child.kill("SIGTERM") });
    });
  });
}


if (process.argv[2] === "chain") await chain(loadConfig().devnetGenesis!);
