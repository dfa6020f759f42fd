/**
 * Cores for "reads under ingest" in its pinned form (bench/under-ingest.ts): the reading side (the
 * API process and the load generator) on one core, the writing side (the indexer and Postgres) on
 * the other, with util-linux's taskset. On a 2-core machine the unpinned form mostly measures the
 * two sides taking turns on the same cores; pinned, what is left of a slowdown crosses through the
 * store (locks, buffer eviction, WAL flushes).
 */
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";

/** Every thread of each process to `cpus` (a taskset list: "0", "1", "0-1"). */
export function pin(pids: number[], cpus: string): void {
  for (const pid of pids) execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
}

/**
 * Every core, as read when this module loads: availableParallelism() counts the cores this
 * process may use, which is one once it has pinned itself.
 */
const ALL = `0-${availableParallelism() - 1}`;
export const allCpus = (): string => ALL;

/**
 * This machine's PostgreSQL processes: the postmaster (its new backends inherit its cores) and
 * the backends open now. Empty when the store is elsewhere or pgrep is missing.
 */
export function postgresPids(): number[] {
  try {
    return execFileSync("pgrep", ["-x", "postgres"], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Why the pinned form cannot run here, or undefined when it can. */
export function cannotPin(): string | undefined {
  if (availableParallelism() < 2) return "one core";
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
  } catch {
    return "no taskset (Debian: util-linux)";
  }
  if (postgresPids().length === 0) return "PostgreSQL is not a process of this machine";
  return undefined;
}
