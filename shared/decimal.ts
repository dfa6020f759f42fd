/**
 * Exact decimal arithmetic on bigint. Amounts are u128 integers in smallest units; USD values
 * are fixed-point bigints with USD_SCALE fractional digits. Nothing here touches a JS number
 * for money, so nothing is ever rounded by a float.
 */
export const USD_SCALE = 18;
const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

/** 10^0 … 10^77 (a u256 has 78 digits), computed once: every transfer's USD value needs two. */
const POWERS = Array.from({ length: 78 }, (_, i) => 10n ** BigInt(i));

export function pow10(n: number): bigint {
  return POWERS[n] ?? 10n ** BigInt(n);
}

/** Parse a plain decimal string ("12", "0.5", "-3.25") into a bigint scaled by 10^scale, truncating extra digits. */
export function parseFixed(value: string, scale: number): bigint {
  const m = DECIMAL_RE.exec(value.trim());
  if (!m) throw new RangeError(`not a plain decimal number: ${JSON.stringify(value)}`);
  const [, sign, int = "0", frac = ""] = m;
  const digits = (frac + "0".repeat(scale)).slice(0, scale);
  const abs = BigInt(int) * pow10(scale) + BigInt(digits || "0");
  return sign ? -abs : abs;
}

/** Format a bigint scaled by 10^scale as a plain decimal string without trailing zeros ("1.5", "0", "-0.001"). */
export function formatFixed(value: bigint, scale: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = pow10(scale);
  const int = abs / base;
  let frac = scale > 0 ? (abs % base).toString().padStart(scale, "0").replace(/0+$/, "") : "";
  const text = frac ? `${int}.${frac}` : `${int}`;
  return negative && abs !== 0n ? `-${text}` : text;
}

/** Normalize a decimal string (e.g. a Postgres numeric "1.500000") to the API's plain form ("1.5"). */
export function normalizeDecimal(value: string): string {
  const m = DECIMAL_RE.exec(value.trim());
  if (!m) throw new RangeError(`not a plain decimal number: ${JSON.stringify(value)}`);
  return formatFixed(parseFixed(value, m[3]?.length ?? 0), m[3]?.length ?? 0);
}

/** a * b / c, rounded towards zero. */
export function mulDiv(a: bigint, b: bigint, c: bigint): bigint {
  if (c === 0n) throw new RangeError("division by zero");
  return (a * b) / c;
}

/** a / b as a fixed-point bigint with `scale` fractional digits (0 when b is 0). */
export function ratio(a: bigint, b: bigint, scale: number): bigint {
  return b === 0n ? 0n : mulDiv(a, pow10(scale), b);
}

/** USD value (fixed, USD_SCALE) of `amount` smallest units of a token with `decimals`, priced at `priceUsd` (fixed, USD_SCALE) per whole token. */
export function usdValue(amount: bigint, decimals: number, priceUsd: bigint): bigint {
  return mulDiv(amount, priceUsd, pow10(decimals));
}
