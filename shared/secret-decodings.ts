/**
 * What a secret may be an encoding of. Hex and base64 look random to a guess estimator (64 hex
 * characters are ≈ 200 bits of "brute force"), but the hex sha256 of "password" is one guess, and
 * base64 of a phrase is as guessable as the phrase (issue 38, finding 7). So a secret that decodes
 * as hex or base64/base64url is judged by what it decodes to as well: readable text by its own
 * estimate, a digest's length of bytes against the digests of the common passwords and words
 * (shared/secret-strength.ts does both, in its worker).
 */

/**
 * Digest algorithms by their length in bytes: what `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`,
 * `sha512sum` and `b2sum` (BLAKE2b-512) print. Not SHA-384: 48 bytes is also what `tokenpool
 * secret` prints, and every default secret would pay its search; nor SHA3-256, ≈ 145 ms more for
 * every 32-byte secret (shared/secret-strength.ts has the figures).
 */
export const DIGESTS_BY_LENGTH: Readonly<Record<number, readonly string[]>> = {
  16: ["md5"],
  20: ["sha1"],
  28: ["sha224"],
  32: ["sha256"],
  64: ["sha512", "blake2b512"],
};

/** A digest algorithm's name as the refusal spells it: SHA-256, SHA-1, BLAKE2b-512, MD5. */
export function digestName(algorithm: string): string {
  if (algorithm === "blake2b512") return "BLAKE2b-512";
  return algorithm.toUpperCase().replace(/^SHA(\d{3})$/, "SHA-$1").replace(/^SHA1$/, "SHA-1");
}

export interface Decoding {
  /** How the secret encodes it, outermost first: "hex", "base64", "base64 of hex". */
  encoding: string;
  bytes: Buffer;
  /** The bytes as text, when they are mostly printable UTF-8 text. */
  text: string | undefined;
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/**
 * The bytes as text if they are valid UTF-8 of which at least 90 % of the characters are not
 * control characters (tab and line ends allowed: `echo` adds one). Random bytes almost never are:
 * 16 random bytes are valid UTF-8 about once in 10^4 tries, and then a quarter of their
 * characters are controls.
 */
function readable(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const chars = [...text];
  const controls = chars.filter((ch) => /[\p{Cc}]/u.test(ch) && !/[\t\n\r]/.test(ch)).length;
  return chars.length > 0 && controls <= chars.length * 0.1 ? text : undefined;
}

/**
 * What `md5sum`, `sha*sum` and `b2sum` print after the digest: two spaces and "-" for standard
 * input (" *-" in binary mode). `JWT_SECRET=$(echo password | sha256sum)` keeps them, and the
 * line, no longer hex, read as 64 random characters (issue 38 re-attack round 3, finding 5).
 */
const SUM_TAIL = /\s+\*?-$/;

/**
 * The readings of `secret` as hex and as base64/base64url, and of a readable one again (base64 of
 * the hex a `sha256sum` printed), up to `depth` levels. A hex string is valid base64 too: both
 * are read, and the weakest reading decides. What a `sha256sum` line adds after the digest is
 * dropped first, at every level: the secret as configured stays what it is, and is judged by the
 * digest it carries.
 */
export function decodings(secret: string, depth = 2): Decoding[] {
  secret = secret.trim().replace(SUM_TAIL, "");
  const found: Decoding[] = [];
  const add = (encoding: string, bytes: Buffer) => {
    if (bytes.length === 0) return;
    const text = readable(bytes);
    found.push({ encoding, bytes, text });
    if (text !== undefined && depth > 1) {
      for (const inner of decodings(text, depth - 1)) found.push({ ...inner, encoding: `${encoding} of ${inner.encoding}` });
    }
  };
  if (HEX.test(secret)) add("hex", Buffer.from(secret, "hex"));
  if (BASE64.test(secret) && secret.length % 4 !== 1 && (!secret.endsWith("=") || secret.length % 4 === 0)) add("base64", Buffer.from(secret, "base64"));
  return found;
}

/** log2 of n choose k. */
function log2Choose(n: number, k: number): number {
  let bits = 0;
  for (let i = 0; i < k; i += 1) bits += Math.log2(n - i) - Math.log2(i + 1);
  return bits;
}

/**
 * Bytes made, not drawn (issue 38 re-attack round 3, finding 5: the hex of bytes 0x00..0x1f and
 * base64 of bytes 0..47 passed as random): how they are patterned and the guesses that pattern
 * leaves, in bits, or undefined. For 16 bytes or more:
 * - an arithmetic sequence (every step the same, mod 256: a run of one byte, 00 01 02 …): a first
 *   byte and a step, 16 bits;
 * - a repeat of its first p < 16 bytes, at least twice over: 8p bits;
 * - few distinct byte values d (at most half its length) such that choosing them and then each
 *   byte among them, log2 C(256, d) + n·log2 d, is under `minBits`: 32 bytes of at most 6 values,
 *   64 of at most 3.
 * Random bytes essentially never are. For n random bytes, 16 ≤ n ≤ 64: an arithmetic sequence
 * 256^-(n-2), a repeat under 15 · 256^-(n/2), few values (summed exactly over d) 1.0·10^-10 at
 * 16 bytes, 4·10^-12 at 20, 2·10^-41 at 32, 10^-117 at 64 — and 16 bytes come only from a
 * decoding inside another (hex in base64): a secret of 39 characters decodes to 20 bytes or more.
 */
export function patterned(bytes: Buffer, minBits: number): { bits: number; pattern: string } | undefined {
  const n = bytes.length;
  if (n < 16) return undefined;
  const step = (bytes[1]! - bytes[0]! + 256) % 256;
  let arithmetic = true;
  for (let i = 2; i < n && arithmetic; i += 1) arithmetic = (bytes[i]! - bytes[i - 1]! + 256) % 256 === step;
  if (arithmetic) return { bits: 16, pattern: step === 0 ? "one byte repeated" : "an arithmetic sequence of bytes" };
  for (let p = 1; p < 16 && 2 * p <= n; p += 1) {
    let repeats = true;
    for (let i = p; i < n && repeats; i += 1) repeats = bytes[i] === bytes[i - p];
    if (repeats) return { bits: 8 * p, pattern: `${p} bytes repeated` };
  }
  // No length trips on more than 10 values (20 or 21 bytes of 10: 124–128 bits): counting stops
  // there, so a 16 MB secret of random bytes costs no pass over all of it.
  const seen = new Uint8Array(256);
  let d = 0;
  for (let i = 0; i < n && d <= 10; i += 1) if (seen[bytes[i]!]!++ === 0) d += 1;
  if (d > 10) return undefined;
  const bits = log2Choose(256, d) + n * Math.log2(d);
  if (d <= n / 2 && bits < minBits) return { bits, pattern: `bytes of only ${d} distinct values` };
  return undefined;
}
