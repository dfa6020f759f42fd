/**
 * The fetch every request goes through: the bearer token, one re-login on a 401 when the client
 * holds credentials, and waiting out Retry-After on 429 and 503. openapi-fetch does the typing
 * and the URL; this is the part no library does for this API.
 */
import { retryAfterSeconds } from "./errors.js";
import { PUBLIC_OPERATIONS } from "./schema.js";

export interface RetryOptions {
  /** Retries of one request after a 429 or 503 (default 3; 0: none). */
  maxRetries?: number;
  /** The longest Retry-After waited out (default 60 s); a longer one is returned to the caller. */
  maxWaitMs?: number;
  /** Wait without Retry-After (503 from a proxy, say): doubled per retry (default 1 s). */
  fallbackMs?: number;
}

export interface Session {
  token(): string | undefined;
  /** Logs in again with the credentials held; false when there are none. */
  relogin(): Promise<boolean>;
}

export type Sleep = (ms: number, signal?: AbortSignal | null) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** A shared wait (one re-login for many requests) given up by one request whose signal aborts. */
const abortable = <T>(wait: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    wait.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });

const AUTH_PATHS = /\/auth\/(login|register)$/;

/** "GET /oracle/value/{id}" → a test of a request's method and path (under any base path). */
const PUBLIC = PUBLIC_OPERATIONS.map((op) => {
  const [method, route] = op.split(" ") as [string, string];
  const pattern = route.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
  return { method, path: new RegExp(`${pattern}$`) };
});
/** Whether the API answers this request without a token: then none is sent (an expired one would be refused). */
export const isPublic = (method: string, pathname: string): boolean => PUBLIC.some((p) => p.method === method && p.path.test(pathname));

export function sessionFetch(base: typeof fetch, session: Session, retry: RetryOptions = {}, wait: Sleep = sleep): (request: Request) => Promise<Response> {
  const maxRetries = retry.maxRetries ?? 3;
  const maxWaitMs = retry.maxWaitMs ?? 60_000;
  const fallbackMs = retry.fallbackMs ?? 1_000;
  return async (request) => {
    // The body can be read once: each attempt sends a copy.
    const original = request.clone();
    const { pathname } = new URL(request.url);
    const auth = AUTH_PATHS.test(pathname);
    const open = isPublic(request.method, pathname);
    let sent: string | undefined;
    const send = () => {
      const r = original.clone();
      // Only where a token is asked for: register/login take none (a refused one must not block
      // the re-login), and the API refuses a public request that carries an expired one.
      sent = auth || open ? undefined : session.token();
      if (sent && !r.headers.has("authorization")) r.headers.set("authorization", `Bearer ${sent}`);
      return base(r);
    };
    // A POST is retried only after a 429 (refused before any work); a 503 may come from a
    // deadline while the work went on (a register that commits after its 503).
    const retriable = (status: number) => status === 429 || (status === 503 && (request.method === "GET" || request.method === "HEAD"));
    let res = await send();
    let relogged = false;
    for (let attempt = 0; ; attempt++) {
      if (res.status === 401 && !relogged && !auth && !open) {
        relogged = true;
        // Another request logged in again meanwhile: its token, not another login.
        if (session.token() !== sent || (await abortable(session.relogin(), request.signal))) {
          await res.body?.cancel();
          res = await send();
          continue;
        }
        return res;
      }
      if (retriable(res.status) && attempt < maxRetries) {
        const after = retryAfterSeconds(res.headers.get("retry-after"));
        const ms = after === undefined ? fallbackMs * 2 ** attempt : after * 1000;
        if (ms > maxWaitMs) return res;
        await res.body?.cancel();
        await wait(ms, request.signal);
        res = await send();
        continue;
      }
      return res;
    }
  };
}
