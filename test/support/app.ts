/**
 * Builds the real app over a test database, with a fake clock and a chosen client IP, and
 * sends requests through `app.request()` exactly as @hono/node-server would hand them over.
 */
import type { Database } from "../../db/index.js";
import { createApp, type AppDeps } from "../../api/app.js";
import { MemoryRateLimitStore } from "../../api/rate-limit/memory-store.js";
import { createLogger } from "../../shared/logger.js";

export const TEST_SECRET = "test-secret-of-at-least-thirty-two-characters";

export class FakeClock {
  constructor(public ms = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  clock: FakeClock;
  /** Sends a request from `ip` (default 203.0.113.7). */
  request(path: string, init?: RequestInit & { ip?: string }): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/**
 * A per-IP request limit out of the way, for suites that make many requests (or poll) from one
 * IP and test something else: buildApp's clock never moves, so its 100 a minute is 100 for life.
 * The limit itself is tested in rate-limit.test.ts and the abuse suites.
 */
export const noRequestLimit = (): AppDeps["rateLimit"] => ({ store: new MemoryRateLimitStore(), max: 100_000, windowMs: 60_000 });

export function buildApp(db: Database, overrides: Partial<AppDeps> & { clock?: FakeClock } = {}): TestApp {
  const clock = overrides.clock ?? new FakeClock();
  const app = createApp({
    db,
    ping: async () => {},
    jwtSecret: TEST_SECRET,
    rateLimit: { store: new MemoryRateLimitStore(), max: 100, windowMs: 60_000 },
    trustProxy: 0,
    logger: createLogger("silent"),
    now: clock.now,
    ...overrides,
  });
  const request = (path: string, init: RequestInit & { ip?: string } = {}) => {
    const { ip = "203.0.113.7", ...rest } = init;
    return Promise.resolve(app.request(path, rest, { incoming: { socket: { remoteAddress: ip, remoteFamily: "IPv4" } } }));
  };
  return {
    app,
    clock,
    request,
    get: (path, headers = {}) => request(path, { headers }),
    post: (path, body, headers = {}) =>
      request(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...headers } }),
  };
}

/**
 * Registers a user (from `ip`: an address registers at most 10 an hour) and returns an
 * Authorization header for it.
 */
export async function authHeader(t: TestApp, email = "reader@example.com", ip?: string): Promise<Record<string, string>> {
  const res = await t.request("/auth/register", { method: "POST", body: JSON.stringify({ email, password: "correct horse battery" }), headers: { "Content-Type": "application/json" }, ...(ip ? { ip } : {}) });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data: { token: string } };
  return { Authorization: `Bearer ${body.data.token}` };
}

export async function expectError(res: Response, status: number, code: string): Promise<string> {
  const text = await res.text();
  const body = JSON.parse(text) as { success: boolean; error: { code: string; message: string } };
  if (res.status !== status || body.success !== false || body.error?.code !== code || typeof body.error.message !== "string") {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${text}`);
  }
  if (!res.headers.get("content-type")?.startsWith("application/json")) throw new Error(`error without JSON content type: ${res.headers.get("content-type")}`);
  if (Object.keys(body).sort().join() !== "error,success") throw new Error(`error body has extra fields: ${text}`);
  return body.error.message;
}
