/** Retry-After as the client reads it: seconds or an HTTP date, waited out up to a cap. */
import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "../src/errors.js";
import { isPublic, sessionFetch } from "../src/http.js";

const session = { token: () => undefined, relogin: async () => false };

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP dates; ignores what is neither", () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    expect(retryAfterSeconds("7", now)).toBe(7);
    expect(retryAfterSeconds("Thu, 26 Nov 2026 12:00:30 GMT", now)).toBe(30);
    expect(retryAfterSeconds("Thu, 26 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterSeconds("soon", now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });

  it("retries a 503 after the wait it names, sends the body again, and hands back a wait over the cap", async () => {
    const bodies: string[] = [];
    const answers = [new Response("{}", { status: 503, headers: { "retry-after": "2" } }), new Response('{"ok":true}', { status: 200 })];
    const waits: number[] = [];
    const f = sessionFetch(async (r) => (bodies.push(await (r as Request).text()), answers.shift()!), session, {}, async (ms) => void waits.push(ms));
    const res = await f(new Request("http://x/snapshots", { method: "POST", body: '{"tokenId":1}' }));
    expect(res.status).toBe(200);
    expect(waits).toEqual([2_000]);
    expect(bodies).toEqual(['{"tokenId":1}', '{"tokenId":1}']);

    const long = sessionFetch(async () => new Response("{}", { status: 429, headers: { "retry-after": "3600" } }), session, { maxWaitMs: 60_000 }, async () => {
      throw new Error("must not wait an hour");
    });
    expect((await long(new Request("http://x/pool/stats"))).status).toBe(429);
  });
});

describe("paginate", () => {
  it("stops on a null cursor, and refuses a cursor that does not move instead of looping", async () => {
    const { paginate } = await import("../src/paginate.js");
    const pages: Record<string, { items: number[]; nextCursor: string | null }> = { start: { items: [1, 2], nextCursor: "a" }, a: { items: [3], nextCursor: null } };
    const seen: number[] = [];
    for await (const x of paginate(async (c) => pages[c ?? "start"]!)) seen.push(x);
    expect(seen).toEqual([1, 2, 3]);
    const stuck = paginate(async () => ({ items: [1], nextCursor: "same" }));
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const x of stuck) got.push(x);
      })(),
    ).rejects.toThrow(/same cursor twice/);
    expect(got).toEqual([1, 1]);
  });
});

it("knows the public operations from the document: no token is sent there", () => {
  expect(isPublic("GET", "/pool/stats/KSM/USDt")).toBe(true);
  expect(isPublic("GET", "/api/v1/oracle/value/0")).toBe(true); // under a base path
  expect(isPublic("GET", "/assets/metadata/1984")).toBe(false);
  expect(isPublic("GET", "/accounts/HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F")).toBe(false);
  expect(isPublic("POST", "/snapshots")).toBe(false);
  expect(isPublic("POST", "/pool/stats")).toBe(false);
});
