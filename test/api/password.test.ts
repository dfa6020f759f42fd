/**
 * The bounded password hashing and the decoy hash of unknown-email logins, on a fresh module
 * each (the queue and the decoy are module state).
 */
import { expect, it, vi } from "vitest";

async function fresh() {
  vi.resetModules();
  return import("../../api/auth/password.js");
}

it("a decoy hash refused during a login storm is not kept: once the storm passes, unknown emails are hashed like known ones", async () => {
  const { decoyHash, hashPassword, verifyPassword, HASH_CONCURRENCY, HASH_QUEUE } = await fresh();
  // Fill every running slot and every waiting place, from clients that each stay within their share.
  const storm = Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE }, (_, i) => hashPassword(`password ${i}`, `198.18.0.${i}`));
  await expect(decoyHash("203.0.113.7")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  await Promise.allSettled(storm);
  // The storm is over: the decoy is computed now (it was kept as a rejection before).
  const decoy = await decoyHash("203.0.113.7");
  expect(decoy).toMatch(/^scrypt\$/);
  expect(await verifyPassword("anything at all", decoy, "203.0.113.7")).toBe(false);
  expect(await decoyHash("203.0.113.7")).toBe(decoy); // computed once, then kept
}, 60_000);

/**
 * Settles every hash: how many were refused at once as over their client's share, and how many
 * were let in (done, or — on a loaded machine — refused after HASH_WAIT_MS in the queue).
 */
async function outcome(hashes: Promise<string>[]): Promise<{ admitted: number; overShare: number }> {
  const settled = await Promise.allSettled(hashes);
  let overShare = 0;
  for (const s of settled) {
    if (s.status === "fulfilled") continue;
    expect(s.reason).toMatchObject({ code: "SERVICE_UNAVAILABLE", headers: { "Retry-After": "1" } });
    if (/from your (address|network)/.test((s.reason as Error).message)) overShare += 1;
  }
  return { admitted: settled.length - overShare, overShare };
}

it("one client key holds at most 6 places in the hash queue, one IPv6 /48 at most 12: their excess is refused at once while other clients get in", async () => {
  const { hashPassword, HASH_PER_CLIENT, HASH_PER_PREFIX, HASH_QUEUE } = await fresh();
  expect([HASH_PER_CLIENT, HASH_PER_PREFIX]).toEqual([6, 12]);
  // Issue 38, finding 3: one address sent 10 at once; before, all 10 queued (there was room for 32).
  const flood = Array.from({ length: 10 }, (_, i) => hashPassword(`flood ${i}`, "198.51.100.66"));
  const flooded = outcome(flood);
  // Its excess is refused before any hash of its own is done: at once, not after a wait.
  const refusedAt = await Promise.race([Promise.allSettled(flood.slice(HASH_PER_CLIENT)).then(() => "refused"), new Promise((r) => setTimeout(() => r("waited"), 30))]);
  expect(refusedAt).toBe("refused");
  // Another client, meanwhile, is let in (done, or on a loaded machine refused after its wait in
  // the queue: never refused as over a share).
  expect(await outcome([hashPassword("bystander", "203.0.113.9")])).toEqual({ admitted: 1, overShare: 0 });
  expect(await flooded).toEqual({ admitted: HASH_PER_CLIENT, overShare: 10 - HASH_PER_CLIENT });
  // Three /64s of one /48 (one site): 12 places between them, whichever /64 asks.
  const site = outcome(Array.from({ length: 15 }, (_, i) => hashPassword(`site ${i}`, `2001:db8:1:${i % 3}::/64`)));
  expect(await outcome([hashPassword("another site", "2001:db8:2:1::/64")])).toEqual({ admitted: 1, overShare: 0 });
  expect(await site).toEqual({ admitted: HASH_PER_PREFIX, overShare: 15 - HASH_PER_PREFIX });
  // Shares are given back when their hashes end: the same client is let in again.
  expect(await outcome(Array.from({ length: HASH_PER_CLIENT }, (_, i) => hashPassword(`again ${i}`, "198.51.100.66")))).toEqual({ admitted: HASH_PER_CLIENT, overShare: 0 });
  expect(HASH_QUEUE).toBeGreaterThan(HASH_PER_PREFIX); // a /48 never fills the queue alone
}, 60_000);
