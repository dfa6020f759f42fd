/**
 * What every operation method shares (operations.ts is generated on these): the per-call
 * options, the transport the methods call through, and the types read off the generated
 * `operations` of the API document.
 */
import type { PageIterator } from "./paginate.js";

/** Options of one call, merged over the client's (`new TokenPool({ timeout, headers, signal })`). */
export interface CallOptions {
  /** Aborts the call (and its Retry-After waits); it rejects with the signal's reason, as fetch does. */
  signal?: AbortSignal;
  /**
   * Milliseconds the call may take, Retry-After waits and a re-login included (0: no limit).
   * Past it the call rejects with TokenPoolError, status 0, code SERVICE_UNAVAILABLE, and a
   * `cause` named "TimeoutError". Iterators (`…All`) apply it to each page.
   */
  timeout?: number;
  /** Extra request headers, over the client's own. */
  headers?: HeadersLike;
}

export type HeadersLike = ConstructorParameters<typeof Headers>[0];

/** One operation of the document, as a generated method asks for it. */
export interface OperationRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The document's path template, e.g. "/assets/metadata/{id}". */
  path: string;
  params?: { path?: Record<string, PathValue>; query?: object };
  body?: unknown;
  /** How a 2xx body is read: JSON, or text (CSV downloads). */
  parseAs?: "json" | "text";
}

/** The client's side of the generated methods: a request answered (or thrown), and lists paged by cursor. */
export interface Transport {
  request<T>(request: OperationRequest, options?: CallOptions): Promise<T>;
  /** Every item of the list under `items` in each page, following `nextCursor`. */
  pages<T>(request: OperationRequest, items: string, options?: CallOptions): PageIterator<T>;
}

/** A path parameter: numbers are sent as their digits. */
export type PathValue = string | number;

type Responses<O> = O extends { responses: infer R } ? R : never;
type JsonOf<R> = R extends { content: { "application/json": infer T } } ? T : never;
/** An operation's 2xx JSON body. */
export type Json<O> = { [S in keyof Responses<O>]: S extends 200 | 201 | 202 ? JsonOf<Responses<O>[S]> : never }[keyof Responses<O>];

type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** An operation's query; numbers allowed where the API takes digits. */
export type Query<O> = { [K in keyof QueryOf<O>]: QueryOf<O>[K] | (string extends QueryOf<O>[K] ? number : never) };
/** The query of an iterator: the cursor (and page number) are its own. */
export type PageQuery<O> = Omit<Query<O>, "cursor" | "page">;

/** An operation's JSON request body. */
export type Body<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** The items of a paged answer's list `K`. */
export type Item<O, K extends string> = Json<O> extends { [P in K]: (infer T)[] } ? T : never;
