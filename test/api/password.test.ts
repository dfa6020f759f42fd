/**
 * The bounded password hashing and the decoy hash of unknown-email logins, on a fresh module
 * (the decoy is module state).
 */
import { expect, it, vi } from "vitest";

it("a decoy hash refused during a login storm is not kept: once the storm passes, unknown emails are hashed like known ones", async () => {
  vi.resetModules();
  const { decoyHash, hashPassword, verifyPassword, HASH_CONCURRENCY, HASH_QUEUE } = await import("../../api/auth/password.js");
  // Fill every running slot and every waiting place.
  const storm = Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE }, (_, i) => hashPassword(`password ${i}`));
  await expect(decoyHash()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  await Promise.allSettled(storm);
  // The storm is over: the decoy is computed now (it was kept as a rejection before).
  const decoy = await decoyHash();
  expect(decoy).toMatch(/^scrypt\$/);
  expect(await verifyPassword("anything at all", decoy)).toBe(false);
  expect(await decoyHash()).toBe(decoy); // computed once, then kept
}, 60_000);
