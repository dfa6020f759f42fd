/**
 * How guessable a secret is, by zxcvbn-ts (@zxcvbn-ts/core with @zxcvbn-ts/language-common, MIT):
 * the guesses an attacker who knows the common patterns needs — common passwords, dictionary
 * words (the diceware list), repeats, sequences, keyboard walks, dates, l33t spellings — and, for
 * what matches none of them, brute force at 10 guesses a character. An HS256 key must take at
 * least 2^128 guesses. Random text clears it from about 40 characters on (`tokenpool secret`
 * prints 64; `openssl rand -base64 32`, 44; `-hex 32`, 64); 32 characters typed by hand do not.
 *
 * A secret that is hex or base64 is judged by what it decodes to as well (shared/secret-decodings.ts):
 * 64 hex characters look random, yet the sha256 of "password" is one guess (issue 38, finding 7).
 *
 * The estimate runs in a worker thread: loading the dictionaries and checking a 64-character key
 * is ≈ 0.3 s of CPU, which the API's start spends meanwhile opening its store (it awaits the
 * answer before it serves). A secret that decodes to a digest's length (16, 20, 28, 32 or 64
 * bytes: `openssl rand -hex 32`) adds the dictionary's digests: ≈ 0.2 s (125 → 316–327 ms median
 * for `-hex 32`, 307–408 for `-base64 32`, measured on a loaded 2-core machine); what
 * `tokenpool secret` prints (48 bytes) adds nothing. SHA-384 (48 bytes too) would add ≈ 0.2 s to
 * every `tokenpool secret` (129 → 298–374 ms) and to `-hex 32` (its base64 reading is 48 bytes:
 * → 445–554 ms): left out. SHA3-256 would add ≈ 145 ms to every 32-byte decoding: left out
 * (issue 38 re-attack round 3, finding 5).
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { DIGESTS_BY_LENGTH, decodings, digestName, patterned } from "./secret-decodings.js";

/** The least estimated entropy of a secret, in bits. */
export const MIN_SECRET_BITS = 128;

/**
 * The fewest characters that can carry MIN_SECRET_BITS by this estimate (brute force is 10
 * guesses a character): 39. Anything shorter is refused at once, without the estimator.
 */
export const MIN_SECRET_LENGTH = Math.ceil(MIN_SECRET_BITS / Math.log2(10));

/** How to make a good one: the end of every refusal. */
export const MAKE_SECRET = "make one with: tokenpool secret";

export interface SecretStrength {
  /** log2 of the estimated guesses. */
  bits: number;
  /** The patterns the estimate found in it ("a repeated pattern", "dictionary words or common passwords"); "too short" when none. */
  found: string[];
}

const require = createRequire(import.meta.url);

/**
 * l33t spellings (p4ssw0rd) tried per dictionary match: zxcvbn-ts's default of 100 costs 165 ms
 * of CPU on a 64-character key, 10 costs 90 ms, and found the same words in our samples
 * ("m0nk3y-dr4g0n-sh4d0w-…": 92 bits either way, 144 without l33t).
 */
const L33T_SUBSTITUTIONS = 10;

/**
 * CommonJS run in the worker: the modules' paths come resolved from here, so it works from dist/
 * and from the sources alike. It estimates each text (the secret and what it decodes to), and
 * looks each digest-sized decoding up among the digests of "" and "\n" (`echo -n "$UNSET" |
 * sha256sum`), then of every common password and diceware word (57,009) in six forms — as typed,
 * with the line end `echo` or Windows adds, with a trailing space or "1", capitalised — and, for
 * MD5 and SHA-256, the digest of the word's hex digest (double hashing): ≈ 400,000 hashes an
 * algorithm, 85–150 ms each with crypto.hash, only for a secret that decodes to a digest's length.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash, hash } = require("node:crypto");
const { ZxcvbnFactory } = require(workerData.core);
const common = require(workerData.common);
const zxcvbn = new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs, l33tMaxSubstitutions: workerData.l33t });
const estimates = workerData.texts.map((text) => {
  const result = zxcvbn.check(text);
  return { log10: result.guessesLog10, patterns: result.sequence.map((m) => m.pattern) };
});
const lists = [["a common password", common.dictionary["passwords-common"]], ["a dictionary word", common.dictionary["diceware-common"]]];
// crypto.hash (Node 20.12 on) is one call: 4–6 times faster than createHash for words this short.
const hashOf = hash ? (algorithm, text) => hash(algorithm, text, "hex") : (algorithm, text) => createHash(algorithm).update(text).digest("hex");
const wanted = new Map();
for (const d of workerData.digests) {
  if (!wanted.has(d.algorithm)) wanted.set(d.algorithm, new Map());
  wanted.get(d.algorithm).set(d.hex, d.index);
}
const algorithms = [...wanted];
const twice = algorithms.filter(([algorithm]) => algorithm === "sha256" || algorithm === "md5");
let digest;
let tried = 0;
const look = (typed, kind, pairs, inner) => {
  for (const [algorithm, hexes] of pairs) {
    tried += 1;
    const index = hexes.get(hashOf(algorithm, inner ? hashOf(algorithm, typed) : typed));
    if (index !== undefined) {
      digest = { index, algorithm, kind, twice: inner };
      return true;
    }
  }
  return false;
};
search: if (algorithms.length > 0) {
  for (const [typed, kind] of [["", "an empty string"], ["\\n", "a lone newline"]]) if (look(typed, kind, algorithms, false)) break search;
  for (const [kind, words] of lists) {
    for (const word of words) {
      const capital = word.charAt(0).toUpperCase() + word.slice(1);
      for (const typed of [word, word + "\\n", word + "\\r\\n", word + " ", word + "1"]) if (look(typed, kind, algorithms, false)) break search;
      if (capital !== word && look(capital, kind, algorithms, false)) break search;
      if (look(word, kind, twice, true)) break search;
    }
  }
}
parentPort.postMessage({ estimates, digest, tried });
`;

const PATTERNS: Record<string, string> = {
  repeat: "a repeated pattern",
  dictionary: "dictionary words or common passwords",
  sequence: "a sequence (abc, 123)",
  spatial: "a keyboard pattern",
  date: "a date",
  regex: "a year or pattern",
  bruteforce: "too short: random text needs 40 characters or so",
};

interface WorkerAnswer {
  estimates: { log10: number; patterns: string[] }[];
  digest: { index: number; algorithm: string; kind: string; twice: boolean } | undefined;
  tried: number;
}

/** The worker's answer for these texts and digests. */
function inWorker(texts: string[], digests: { algorithm: string; hex: string; index: number }[]): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { texts, digests, l33t: L33T_SUBSTITUTIONS, core: require.resolve("@zxcvbn-ts/core"), common: require.resolve("@zxcvbn-ts/language-common") },
    });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`the secret's strength check exited with code ${code}`)));
  });
}

/**
 * The estimate for `text` (the first 256 characters: zxcvbn's bound on its work), and for what it
 * decodes to as hex or base64 (shared/secret-decodings.ts): the weakest reading decides. The
 * digest of a common password or word is as guessable as the list is long: log2 of the digests
 * tried to find it.
 */
export async function secretStrength(text: string): Promise<SecretStrength> {
  const readings = decodings(text);
  const texts = readings.filter((r) => r.text !== undefined);
  const digests = readings.flatMap((r, index) => (DIGESTS_BY_LENGTH[r.bytes.length] ?? []).map((algorithm) => ({ algorithm, hex: r.bytes.toString("hex"), index })));
  const answer = await inWorker([text, ...texts.map((r) => r.text!)], digests);
  if (answer.digest) {
    const { index, algorithm, kind, twice } = answer.digest;
    const name = digestName(algorithm);
    const of = twice ? `the ${name} of the hex ${name}` : `the ${name}`;
    return { bits: Math.log2(answer.tried), found: [`${of} (${readings[index]!.encoding}) of ${kind}`] };
  }
  // Brute force is named only when nothing else was found: then length is what is missing.
  const named = answer.estimates.map((e, i) => {
    const patterns = [...new Set(e.patterns.filter((p) => p !== "bruteforce" && p !== "separator"))];
    const found = (patterns.length ? patterns : ["bruteforce"]).map((p) => PATTERNS[p] ?? p);
    return { bits: e.log10 * Math.log2(10), found: i === 0 ? found : [`${texts[i - 1]!.encoding}-encoded text`, ...found] };
  });
  // Bytes made, not drawn (00 01 02 …), by what the pattern leaves to guess.
  const made = readings.flatMap(({ encoding, bytes }) => {
    const found = patterned(bytes, MIN_SECRET_BITS);
    return found ? [{ bits: found.bits, found: [`${found.pattern} (${encoding})`] }] : [];
  });
  return [...named, ...made].reduce((weakest, e) => (e.bits < weakest.bits ? e : weakest));
}

/** Why `text` is too short to be a usable secret, or undefined (a check without the estimator, for shared/config.ts). */
export function shortSecret(text: string): string | undefined {
  if (text.length >= MIN_SECRET_LENGTH) return undefined;
  return `is guessable: ${text.length} characters, and a secret needs at least ${MIN_SECRET_LENGTH} (${MIN_SECRET_BITS} bits of estimated entropy)`;
}

/**
 * Why `text` is not a usable secret, or undefined: under MIN_SECRET_BITS of estimated entropy,
 * with what made it guessable (for a one-line refusal).
 */
export async function weakSecret(text: string): Promise<string | undefined> {
  const short = shortSecret(text);
  if (short) return short;
  const { bits, found } = await secretStrength(text);
  if (bits >= MIN_SECRET_BITS) return undefined;
  return `is guessable: about ${Math.floor(bits)} bits of estimated entropy (${found.join("; ")}), and a secret needs at least ${MIN_SECRET_BITS}`;
}
