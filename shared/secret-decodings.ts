/**
 * What a secret may be an encoding of. Hex and base64 look random to a guess estimator (64 hex
 * characters are ≈ 200 bits of "brute force"), but the hex sha256 of "password" is one guess, and
 * base64 of a phrase is as guessable as the phrase (issue 38, finding 7). So a secret that decodes
 * as hex or base64/base64url is judged by what it decodes to as well: readable text by its own
 * estimate, a digest's length of bytes against the digests of the common passwords and words
 * (shared/secret-strength.ts does both, in its worker).
 */

/** Digest algorithms by their length in bytes: what `md5sum`, `sha1sum`, `sha256sum`, `sha512sum` print. */
export const DIGEST_BY_LENGTH: Readonly<Record<number, string>> = { 16: "md5", 20: "sha1", 32: "sha256", 64: "sha512" };

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
 * The readings of `secret` as hex and as base64/base64url, and of a readable one again (base64 of
 * the hex a `sha256sum` printed), up to `depth` levels. A hex string is valid base64 too: both
 * are read, and the weakest reading decides.
 */
export function decodings(secret: string, depth = 2): Decoding[] {
  const found: Decoding[] = [];
  const add = (encoding: string, bytes: Buffer) => {
    if (bytes.length === 0) return;
    const text = readable(bytes);
    found.push({ encoding, bytes, text });
    if (text !== undefined && depth > 1) {
      // `sha256sum` prints "<hex>  -": the hex is what was encoded.
      for (const inner of decodings(text.trim().replace(/\s+-$/, ""), depth - 1)) found.push({ ...inner, encoding: `${encoding} of ${inner.encoding}` });
    }
  };
  if (HEX.test(secret)) add("hex", Buffer.from(secret, "hex"));
  if (BASE64.test(secret) && secret.length % 4 !== 1 && (!secret.endsWith("=") || secret.length % 4 === 0)) add("base64", Buffer.from(secret, "base64"));
  return found;
}
