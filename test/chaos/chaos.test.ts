/**
 * The fault campaign, short (the full one is `npm run chaos`: 30 kills): 3 SIGKILLs of the
 * indexer, one each in bootstrap, catch-up and follow, 2 chain-connection cuts and 2 PostgreSQL crashes on a private
 * cluster; the store must end equal to chain storage, swaps exactly once. See campaign.ts.
 */
import { describe, expect, it } from "vitest";
import { postgresBin } from "../support/pg-cluster.js";
import { runCampaign } from "./campaign.js";

const skip = postgresBin() ? undefined : "no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)";

describe.skipIf(skip)(`fault campaign${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("SIGKILLs, connection cuts and PostgreSQL crashes: /health recovers after each, and the store ends equal to the chain", async () => {
    const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : undefined;
    const result = await runCampaign({ kills: 3, cuts: 2, outages: 2, seed, log: (line) => console.log(line) });
    console.log(`chaos: ${JSON.stringify(result)}`);
    expect(result.drift).toEqual([]);
    expect(result.kills.bootstrap).toBeGreaterThan(0);
    expect(result.kills.catchUp).toBeGreaterThan(0);
    expect(result.kills.follow).toBeGreaterThan(0);
    expect(result.cuts).toBe(2);
    expect(result.outages).toBe(2);
    expect(result.swaps).toBeGreaterThan(0);
  }, 900_000);
});
