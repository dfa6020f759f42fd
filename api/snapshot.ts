/**
 * One snapshot per read. A route answers from several queries (run concurrently), and the
 * indexer may commit a block between them: without a snapshot, an answer could mix two blocks
 * (a holder page of block N with the count of block N + 1). Each read therefore runs in one
 * `REPEATABLE READ READ ONLY` transaction, and the services keep taking a plain Database: the one
 * they are given is a proxy that sends every call to the transaction of the read in progress
 * (AsyncLocalStorage), or to the store itself outside one.
 *
 * The storage is disabled whenever no read is in progress: on Node 20 an enabled
 * AsyncLocalStorage runs async_hooks' init on every nextTick, timer and promise of the process —
 * ≈ 2 µs of a cached answer's 17 µs, which never reads the store (api/fast-path.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readOnlySnapshot, type Database } from "../db/index.js";
import { AppError } from "../shared/errors.js";

export interface Snapshots {
  /** The store as the services see it: inside `run`, the snapshot's transaction. */
  db: Database;
  /**
   * Runs `fn` with every query of `db` in one read-only snapshot (nested calls join the outer one).
   * Once `signal` aborts (the request's deadline answered it), the snapshot issues no more queries:
   * the next one throws, so the transaction ends and its connection returns to the pool instead
   * of computing an answer nobody will read.
   */
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * Runs `fn`, a read of one statement, without a transaction: one statement is a snapshot of
   * its own, and the transaction around it cost two more round trips (`begin`, `commit`) — the
   * larger part of such an answer on a machine whose system calls are slow. A second query of
   * `fn` throws: the route was declared a one-statement read and is not one any more.
   */
  runOne<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

interface Active {
  tx: Database | undefined;
  signal: AbortSignal | undefined;
  /** A one-statement read (runOne): whether it has issued its statement. */
  one?: { issued: boolean };
}

export class SecondStatementError extends Error {
  override name = "SecondStatementError";
}

export function snapshots(store: Database): Snapshots {
  const current = new AsyncLocalStorage<Active>();
  const db = new Proxy(store, {
    get(target, prop) {
      const snapshot = current.getStore();
      if (snapshot?.signal?.aborted) throw new AppError("SERVICE_UNAVAILABLE", "The request passed its deadline.");
      const active = snapshot?.tx ?? target;
      const value = Reflect.get(active, prop, active) as unknown;
      // Each query starts with one call on the store (db.select(…), db.execute(…)), or with its
      // session (`_`: a prepared statement, db/prepared.ts).
      if (snapshot?.one && (typeof value === "function" || prop === "_")) {
        if (snapshot.one.issued) throw new SecondStatementError(`a one-statement read issued a second query (${String(prop)}): read it in a snapshot (api/app.ts, ONE_STATEMENT)`);
        snapshot.one.issued = true;
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(active) : value;
    },
  });
  let running = 0;
  return {
    db,
    run(fn, signal) {
      if (current.getStore()) return fn();
      running += 1;
      return readOnlySnapshot(store, (tx) => current.run({ tx, signal }, fn)).finally(() => {
        // No read in progress: no context to keep, so no hooks to pay for (run() enables it again).
        if (--running === 0) current.disable();
      });
    },
    runOne(fn, signal) {
      if (current.getStore()) return fn();
      running += 1;
      return current.run({ tx: undefined, signal, one: { issued: false } }, fn).finally(() => {
        if (--running === 0) current.disable();
      });
    },
  };
}
