/**
 * Issue 38's attack on the compose shape, through nginx: each attacking client stays inside the
 * API's 100 requests a minute (95), sending 12 expensive reads at once (deep holder pages of
 * 1,000 rows, each a key of its own: neither the cache nor single flight absorbs them), so the
 * apps' read budgets refuse some on purpose (429 at once, 503 after waiting). Meanwhile
 * bystanders, each from an address of its own, read cached answers at 75 a minute and a monitor
 * asks /health at 80 a minute. What each of them got back is the result.
 */
import { answer, errorOf, fromEdge, type Answer } from "./nginx-harness.js";

export interface Outcome {
  status: number;
  /** nginx answered itself (its error body or page, or no answer at all), not a replica. */
  edge: boolean;
  code?: string;
}

export interface AttackResult {
  attacker: Outcome[];
  bystanders: Outcome[];
  health: Outcome[];
}

interface AttackOptions {
  port: number;
  /** The replicas' own ports: the bystanders' answers are cached on each before the attack. */
  replicas: number[];
  token: number;
  authorization: string;
  attackers: string[];
  durationMs: number;
}

const AT_ONCE = 12;
const PER_MINUTE = 95;
const BYSTANDERS = ["127.0.0.40", "127.0.0.41", "127.0.0.42"];
const MONITOR = "127.0.0.45";
const CHEAP = ["/pool/stats", "/oracle/value/0"];

/**
 * Deep holder pages (past the 150,000th holder) not asked for before in this process: page ×
 * limit, since another limit is another cache key.
 */
let pageSeq = 0;
function nextPage(token: number): string {
  const n = pageSeq++;
  return `/assets/holders/${token}?limit=${1000 - Math.floor(n / 140)}&page=${151 + (n % 140)}`;
}

function outcome(a: Answer): Outcome {
  return { status: a.status, edge: fromEdge(a), code: errorOf(a)?.code };
}

const failed = (err: unknown): Answer => ({ status: 0, headers: {}, body: String(err) });

/** Resolves after `ms`, or at once when `stopped()` turns true (checked every 100 ms). */
async function pause(ms: number, stopped: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!stopped() && Date.now() < end) await new Promise((r) => setTimeout(r, Math.min(100, end - Date.now())));
}

export async function attack(opts: AttackOptions): Promise<AttackResult> {
  const result: AttackResult = { attacker: [], bystanders: [], health: [] };
  // Bystanders read answers cached on every replica, as they would be on a running service.
  for (const replica of opts.replicas) {
    for (const path of CHEAP) {
      const warm = await answer(replica, { path, from: "127.0.0.46" });
      if (warm.status !== 200) throw new Error(`warming ${path}: ${warm.status} ${warm.body}`);
    }
  }
  const end = Date.now() + opts.durationMs;
  const stopped = () => Date.now() >= end;
  const ask = (path: string, from: string, headers: Record<string, string> = {}) => answer(opts.port, { path, from, headers, timeoutMs: 30_000 }).catch(failed);

  const attackers = opts.attackers.map(async (from) => {
    while (!stopped()) {
      const wave = Date.now();
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => ask(nextPage(opts.token), from, { authorization: opts.authorization })));
      result.attacker.push(...answers.map(outcome));
      await pause(wave + (AT_ONCE * 60_000) / PER_MINUTE - Date.now(), stopped);
    }
  });
  const bystanders = BYSTANDERS.map(async (from, i) => {
    for (let n = i; !stopped(); n++) {
      result.bystanders.push(outcome(await ask(CHEAP[n % CHEAP.length]!, from)));
      await pause(800, stopped);
    }
  });
  const monitor = (async () => {
    while (!stopped()) {
      result.health.push(outcome(await ask("/health", MONITOR)));
      await pause(750, stopped);
    }
  })();
  await Promise.all([...attackers, ...bystanders, monitor]);
  return result;
}

/** One line of figures: what the apps and nginx answered each group. */
export function summary(r: AttackResult): string {
  const count = (list: Outcome[], f: (o: Outcome) => boolean) => list.filter(f).length;
  const pct = (n: number, of: number) => `${of ? ((100 * n) / of).toFixed(0) : 0} %`;
  const bystanderFailed = count(r.bystanders, (o) => o.status !== 200);
  return [
    `attacker ${r.attacker.length} requests: the apps ${count(r.attacker, (o) => !o.edge && o.status === 200)} × 200, ${count(r.attacker, (o) => !o.edge && o.status === 503)} × 503, ${count(r.attacker, (o) => !o.edge && o.status === 429)} × 429; nginx ${count(r.attacker, (o) => o.edge && o.status === 502)} × 502, ${count(r.attacker, (o) => o.edge && o.status !== 502)} other`,
    `bystanders ${r.bystanders.length}: ${count(r.bystanders, (o) => o.status === 502)} × 502 (${pct(count(r.bystanders, (o) => o.status === 502), r.bystanders.length)}), ${bystanderFailed} not 200 (${pct(bystanderFailed, r.bystanders.length)})`,
    `/health ${r.health.length}: ${count(r.health, (o) => o.status !== 200)} not 200 (${count(r.health, (o) => o.status === 502)} × 502)`,
  ].join("; ");
}
