/**
 * How a generated method's request is made: through openapi-fetch (URL, parameters, body), under
 * the call's signal and deadline merged with the client's, and answered as the route's 2xx body
 * or thrown as TokenPoolError.
 */
import type { Client } from "openapi-fetch";
import type { CallOptions, HeadersLike, OperationRequest, Transport } from "./call.js";
import { errorOf, TokenPoolError } from "./errors.js";
import { paginate } from "./paginate.js";
import type { components, paths } from "./schema.js";

/** The client-wide options every call starts from. */
export interface CallDefaults {
  timeout?: number;
  signal?: AbortSignal;
}

type Reply = { data?: unknown; error?: unknown; response: Response };
type LooseClient = { request(method: string, path: string, init: object): Promise<Reply> };

export function createTransport(raw: Client<paths>, defaults: CallDefaults = {}): Transport {
  const client = raw as unknown as LooseClient;
  const transport: Transport = {
    async request<T>(req: OperationRequest, options: CallOptions = {}): Promise<T> {
      const scope = callScope(defaults, options);
      let out: Reply;
      try {
        out = await client.request(req.method.toLowerCase(), req.path, {
          params: { path: strings(req.params?.path), query: strings(req.params?.query) },
          body: req.body,
          parseAs: req.parseAs ?? "json",
          signal: scope.signal,
          headers: plainHeaders(options.headers),
        });
      } catch (err) {
        throw scope.failure(err);
      }
      if (out.response.ok && out.data !== undefined) return out.data as T;
      const body = out.error as Partial<components["schemas"]["Error"]> | undefined;
      if (body?.error?.code) throw await errorOf(new Response(JSON.stringify(body), { status: out.response.status, headers: out.response.headers }));
      throw new TokenPoolError(out.response.status, "INTERNAL_ERROR", `HTTP ${out.response.status} without the API's error body`);
    },
    pages<T>(req: OperationRequest, items: string, options?: CallOptions) {
      return paginate<T>(async (cursor) => {
        const query = { ...req.params?.query, cursor };
        const page = await transport.request<Record<string, unknown>>({ ...req, params: { ...req.params, query } }, options);
        return { items: page[items] as T[], nextCursor: page["nextCursor"] as string | null };
      });
    },
  };
  return transport;
}

/**
 * The signal of one call (the client's, the caller's and the deadline's together), and the error
 * a failed fetch stands for: the caller's abort as the caller's reason (as fetch does), the
 * deadline and a refused connection as TokenPoolError with status 0.
 */
export function callScope(defaults: CallDefaults, options: Pick<CallOptions, "signal" | "timeout">): { signal: AbortSignal | undefined; failure(err: unknown): unknown } {
  const ms = options.timeout ?? defaults.timeout ?? 0;
  if (!(ms >= 0 && ms <= 2_147_483_647)) throw new RangeError(`timeout must be a number of milliseconds from 0 (none) to 2147483647, not ${ms}`);
  const deadline = ms > 0 ? AbortSignal.timeout(ms) : undefined;
  const signals = [defaults.signal, options.signal, deadline].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return {
    signal,
    failure(err) {
      if (err instanceof TokenPoolError) return err;
      if (signal?.aborted) {
        if (deadline?.aborted && signal.reason === deadline.reason) return new TokenPoolError(0, "SERVICE_UNAVAILABLE", `no answer from the API within ${ms} ms`, undefined, deadline.reason);
        return signal.reason;
      }
      return new TokenPoolError(0, "SERVICE_UNAVAILABLE", `no answer from the API: ${err instanceof Error ? err.message : String(err)}`, undefined, err);
    },
  };
}

/** Headers as a plain object (openapi-fetch merges those and Headers over the client's, not arrays of pairs). */
export function plainHeaders(headers: HeadersLike | undefined): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  const out: Record<string, string> = {};
  // forEach, not iteration: the DOM library without DOM.Iterable (the package's build) has no Headers iterator.
  new Headers(headers).forEach((value, name) => (out[name] = value));
  return out;
}

/** Parameter values as the API reads them (numbers as digits), undefined ones left out. */
function strings(values: object | undefined): Record<string, string> | undefined {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}
