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
    // Not an HTTP date, though Date.parse reads them as some past date (a retry at once).
    for (const odd of ["1.5", "-5", "5, 10"]) expect(retryAfterSeconds(odd, now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });

  it("retries a GET's 503 and a POST's 429 after the wait named (the body sent again), never a POST's 503, and hands back a wait over the cap", async () => {
    const bodies: string[] = [];
    let answers = [new Response("{}", { status: 503, headers: { "retry-after": "2" } }), new Response('{"ok":true}', { status: 200 })];
    const waits: number[] = [];
    const f = sessionFetch(async (r) => (bodies.push(await (r as Request).text()), answers.shift()!), session, {}, async (ms) => void waits.push(ms));
    expect((await f(new Request("http://x/pool/stats"))).status).toBe(200);
    expect(waits).toEqual([2_000]);

    answers = [new Response("{}", { status: 429, headers: { "retry-after": "1" } }), new Response('{"ok":true}', { status: 200 })];
    bodies.length = 0;
    expect((await f(new Request("http://x/snapshots", { method: "POST", body: '{"tokenId":1}' }))).status).toBe(200);
    expect(bodies).toEqual(['{"tokenId":1}', '{"tokenId":1}']);

    // A 503 may be a deadline while the work went on (a register that commits after it): not sent twice.
    answers = [new Response("{}", { status: 503, headers: { "retry-after": "1" } }), new Response('{"ok":true}', { status: 200 })];
    bodies.length = 0;
    expect((await f(new Request("http://x/auth/register", { method: "POST", body: "{}" }))).status).toBe(503);
    expect(bodies).toHaveLength(1);

    const long = sessionFetch(async () => new Response("{}", { status: 429, headers: { "retry-after": "3600" } }), session, { maxWaitMs: 60_000 }, async () => {
      throw new Error("must not wait an hour");
    });
    expect((await long(new Request("http://x/pool/stats"))).status).toBe(429);
  });

  it("tries a refused request again exactly maxRetries times (0: never), waiting 1 s, 2 s, … without Retry-After", async () => {
    const refused = (maxRetries: number) => {
      const seen = { sent: 0, waits: [] as number[] };
      const f = sessionFetch(async () => (seen.sent++, new Response("{}", { status: 429 })), session, { maxRetries }, async (ms) => void seen.waits.push(ms));
      return { f, seen };
    };
    const none = refused(0);
    expect((await none.f(new Request("http://x/pool/stats"))).status).toBe(429);
    expect(none.seen).toEqual({ sent: 1, waits: [] });
    const three = refused(3);
    expect((await three.f(new Request("http://x/pool/stats"))).status).toBe(429);
    expect(three.seen).toEqual({ sent: 4, waits: [1_000, 2_000, 4_000] });
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
    ).rejects.toThrow(/cursor it had answered before/);
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

it("a 401 logs in again once; a request whose token was replaced meanwhile is only resent with the new one", async () => {
  let token = "old";
  let logins = 0;
  const session = {
    token: () => token,
    relogin: async () => {
      logins++;
      await new Promise((r) => setTimeout(r, 20));
      token = `new${logins}`;
      return true;
    },
  };
  const base = async (r: Request) => new Response("{}", { status: r.headers.get("authorization") === `Bearer ${token}` && token !== "old" ? 200 : 401 });
  const f = sessionFetch(base as typeof fetch, session);
  const first = await f(new Request("http://x/assets/metadata/1"));
  expect(first.status).toBe(200);
  // Sent with an old token, answered 401 after another request's re-login replaced it: resent
  // with the new one, no second login.
  token = "old";
  let calls = 0;
  const late = sessionFetch(
    (async (r: Request) => {
      calls++;
      if (calls === 1) token = "new1"; // another request's re-login lands meanwhile
      return new Response("{}", { status: r.headers.get("authorization") === "Bearer new1" ? 200 : 401 });
    }) as typeof fetch,
    session,
  );
  expect((await late(new Request("http://x/assets/metadata/1"))).status).toBe(200);
  expect(calls).toBe(2);
  expect(logins).toBe(1);
});

it("neither the token nor the password shows in the client's JSON", async () => {
  const { TokenPool } = await import("../src/index.js");
  const api = new TokenPool({ baseUrl: "http://x", token: "secret-token", credentials: { email: "a@b.c", password: "secret-password" } });
  expect(JSON.stringify(api)).not.toMatch(/secret-(token|password)/);
  expect(api.token).toBe("secret-token");
});
