import { AppError } from "../../shared/errors.js";

export const MAX_RANK = 1_000_000_000_000;

/** Position after the last holder of a page: its balance, its address and its rank. */
export interface HolderCursor {
  balance: string;
  account: string;
  rank: number;
}

export function encodeCursor(c: HolderCursor): string {
  return Buffer.from(JSON.stringify([c.balance, c.account, c.rank])).toString("base64url");
}

export function decodeCursor(text: string): HolderCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    typeof parsed[0] === "string" &&
    /^(?:0|[1-9]\d{0,77})$/.test(parsed[0]) &&
    typeof parsed[1] === "string" &&
    /^[\x21-\x7e]{1,128}$/.test(parsed[1]) &&
    Number.isSafeInteger(parsed[2]) &&
    parsed[2] >= 0 &&
    // No chain has a trillion holders of one token: a larger rank is forged, and its pages would
    // carry ranks past 2^53 (unsafe integers in the answer).
    parsed[2] < MAX_RANK
  ) {
    const cursor = { balance: parsed[0], account: parsed[1], rank: parsed[2] };
    // One spelling per position: every other one would be one more response-cache key.
    if (encodeCursor(cursor) === text) return cursor;
  }
  throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": not a cursor returned by this endpoint (use nextCursor).');
}
