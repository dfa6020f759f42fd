/**
 * The one table of error codes: HTTP status and default message. The API's error body, the
 * OpenAPI document and the README's error table all come from here.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, message: "The request is invalid." },
  AMBIGUOUS_TOKEN: { status: 400, message: "The token symbol matches several tokens." },
  UNAUTHORIZED: { status: 401, message: "The access token is invalid or expired." },
  INVALID_CREDENTIALS: { status: 401, message: "The email or password is incorrect." },
  NOT_FOUND: { status: 404, message: "The resource was not found." },
  TOKEN_NOT_FOUND: { status: 404, message: "The token was not found." },
  POOL_NOT_FOUND: { status: 404, message: "No pool exists for this token pair." },
  PRICE_UNAVAILABLE: {
    status: 404,
    message: "The token has no current USD price: every pool route to a USD stablecoin is below the liquidity floor (ORACLE_MIN_LIQUIDITY_USD) or gone.",
  },
  BLOCK_NOT_INDEXED: { status: 404, message: "The block is not indexed yet." },
  BLOCK_BEFORE_HISTORY: { status: 404, message: "The block is before the store's history." },
  SNAPSHOT_NOT_FOUND: { status: 404, message: "The holder snapshot was not found." },
  METHOD_NOT_ALLOWED: { status: 405, message: "The method is not allowed on this path." },
  EMAIL_TAKEN: { status: 409, message: "An account with this email already exists." },
  SNAPSHOT_NOT_READY: { status: 409, message: "The holder snapshot is not finished yet." },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is too large." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "The request body must be application/json." },
  SNAPSHOT_TOO_LARGE: { status: 422, message: "The holder snapshot would hold more rows than one user may ask for in a day or this server keeps." },
  RATE_LIMITED: { status: 429, message: "Too many requests; retry later." },
  TOO_MANY_SNAPSHOTS: { status: 429, message: "Too many holder snapshots are being computed; retry when one has finished." },
  INTERNAL_ERROR: { status: 500, message: "An unexpected error occurred." },
  SERVICE_UNAVAILABLE: { status: 503, message: "The service is temporarily unavailable." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode]["status"];

/** An error meant for the client: it carries its code, and its message is safe to show. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? ERROR_CODES[code].message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.headers = headers;
  }
}

/** A configuration variable is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
