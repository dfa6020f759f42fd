import type { components } from "./schema.js";

export type ErrorCode = components["schemas"]["Error"]["error"]["code"];

/** An answer other than 2xx, with the API's error body (`{success:false, error:{code,message}}`). */
export class TokenPoolError extends Error {
  override name = "TokenPoolError";
  constructor(
    /** HTTP status (0: no answer, e.g. the connection failed). */
    readonly status: number,
    /** The API's error code; "INTERNAL_ERROR" when the body was not the API's. */
    readonly code: ErrorCode,
    message: string,
    /** Seconds the server asked to wait (429, 503), when it said. */
    readonly retryAfter?: number,
    /** What failed under a status 0: the connection's error, or the deadline's TimeoutError. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** `snapshots.wait()` gave up: the snapshot failed (its `error` says why), or was not done in time. */
export class SnapshotWaitError extends Error {
  override name = "SnapshotWaitError";
  constructor(
    readonly reason: "failed" | "timeout",
    message: string,
    /** The snapshot as last read (state, progress, error); none when no answer came in time. */
    readonly snapshot: components["schemas"]["HolderSnapshot"] | undefined,
  ) {
    super(message);
  }
}

/** The error an answer stands for (reads its body). */
export async function errorOf(res: Response): Promise<TokenPoolError> {
  let code: ErrorCode = "INTERNAL_ERROR";
  let message = `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as Partial<components["schemas"]["Error"]>;
    if (body?.error?.code) code = body.error.code;
    if (body?.error?.message) message = body.error.message;
  } catch {
    // Not the API's body (a proxy's page, say): the status says what there is.
  }
  return new TokenPoolError(res.status, code, message, retryAfterSeconds(res.headers.get("retry-after")));
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  // Only the IMF-fixdate form ("Thu, 26 Nov 2026 12:00:30 GMT"): Date.parse reads "1.5" or "-5" as dates.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
