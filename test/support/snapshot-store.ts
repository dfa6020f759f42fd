/**
 * The store the holder-snapshot suites read: 300 accounts of USDt over blocks 100-111, written
 * the way the indexer writes them (Batch.commit, a few blocks per batch), balances moving,
 * dropping to zero and coming back; `truth` keeps each block's balances as written, and
 * `ranked(n)` the CSV lines a snapshot at n must give.
 */
import { encodeAddress } from "@polkadot/util-crypto";
import { snapshotTaken, type Database } from "../../db/index.js";
import { Batch } from "../../indexer/writer.js";
import { USDT } from "./fixtures.js";

export const TOKEN = USDT;
export const time = (n: number) => 1_700_000_000 + n * 12;
export const ACCOUNTS = Array.from({ length: 300 }, (_, i) => encodeAddress(new Uint8Array(32).fill(i % 251).map((b, j) => (j === 0 ? i >> 8 : j === 1 ? i & 255 : b)), 2));

/** A small deterministic generator (the test must not depend on the run). */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => ((x = (x * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32);
}

/** Balance of each account of TOKEN at each block, as written: what every snapshot must equal. */
export const truth = new Map<number, Map<string, string>>();

export async function writeSnapshotStore(db: Database) {
  const random = rng(7);
  let now = new Map<string, string>();
  const token = (n: number) => ({ id: TOKEN, name: "Tether", symbol: "USDt", decimals: 6, supply: "1000000000", owner: null, blockNumber: n });
  const batches = [[100], [101, 102, 103], [104], [105, 106, 107, 108], [109, 110, 111]];
  for (const blocks of batches) {
    const batch = new Batch();
    for (const n of blocks) {
      if (n === 100) batch.token(token(n));
      now = new Map(now);
      // Block 100 reads everyone (the first snapshot); later blocks move a few dozen accounts.
      const moved = n === 100 ? ACCOUNTS : ACCOUNTS.filter(() => random() < 0.15);
      for (const account of moved) {
        const r = random();
        // Ties on purpose (a handful of distinct amounts): rank order falls back to the address.
        const balance = r < 0.2 ? "0" : r < 0.4 ? "5000" : r < 0.5 ? "340282366920938463463374607431768211455" : String(Math.floor(random() * 1e9));
        now.set(account, balance);
        batch.holder({ tokenId: TOKEN, account, balance, blockNumber: n, free: null, reserved: null, frozen: null, transferable: null, status: null });
      }
      batch.blocks.push({ number: n, hash: `0x${n.toString(16)}`, timestamp: time(n) });
      truth.set(n, now);
    }
    const last = blocks[blocks.length - 1]!;
    await batch.commit(db, { blockNumber: last, blockHash: `0x${last.toString(16)}`, chainFinalized: last });
    if (blocks[0] === 100) await snapshotTaken(db, "holders", 100);
  }
}

/** The ranked list a snapshot at `n` must give: non-zero balances, largest first, then by address. */
export function ranked(n: number): string[] {
  const rows = [...truth.get(n)!].filter(([, b]) => b !== "0");
  rows.sort(([a, x], [b, y]) => (BigInt(x) === BigInt(y) ? (a < b ? -1 : a > b ? 1 : 0) : BigInt(x) > BigInt(y) ? -1 : 1));
  return rows.map(([account, balance], i) => `${i + 1},${account},${balance}`);
}
