/**
 * Token ids as the API accepts them: the native token (0 by default), assets under their u32 id,
 * the asset whose id is the native id under 2^32, and foreign assets above it, up to 2^53 − 1
 * (indexer/chain/locations.ts). Every id is an exact JS number and a Postgres bigint.
 */
export const MAX_TOKEN_ID = Number.MAX_SAFE_INTEGER;
export const TOKEN_ID_RULE = `must be an integer from 0 to ${MAX_TOKEN_ID}`;
const DIGITS = /^(0|[1-9]\d{0,15})$/;

/** The id in `text` (digits only, no sign, no leading zeros), or undefined. */
export function parseTokenId(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_TOKEN_ID ? id : undefined;
}
