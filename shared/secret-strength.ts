/**
 * How guessable a secret is, by zxcvbn-ts (@zxcvbn-ts/core with @zxcvbn-ts/language-common, MIT):
 * the guesses an attacker who knows the common patterns needs — common passwords, dictionary
 * words (the diceware list), repeats, sequences, keyboard walks, dates, l33t spellings — and, for
 * what matches none of them, brute force at 10 guesses a character. An HS256 key must take at
 * least 2^128 guesses. Random text clears it from about 40 characters on (`tokenpool secret`
 * prints 64; `openssl rand -base64 32`, 44; `-hex 32`, 64); 32 characters typed by hand do not.
 *
 * The estimate runs in a worker thread: loading the dictionaries and checking a 64-character key
 * is ≈ 0.3 s of CPU, which the API's start spends meanwhile opening its store (it awaits the
 * answer before it serves).
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

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

/** CommonJS run in the worker: the modules' paths come resolved from here, so it works from dist/ and from the sources alike. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { ZxcvbnFactory } = require(workerData.core);
const common = require(workerData.common);
const zxcvbn = new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs, l33tMaxSubstitutions: workerData.l33t });
const result = zxcvbn.check(workerData.text);
parentPort.postMessage({ log10: result.guessesLog10, patterns: result.sequence.map((m) => m.pattern) });
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

/** The estimate for `text` (the first 256 characters: zxcvbn's bound on its work). */
export function secretStrength(text: string): Promise<SecretStrength> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { text, l33t: L33T_SUBSTITUTIONS, core: require.resolve("@zxcvbn-ts/core"), common: require.resolve("@zxcvbn-ts/language-common") },
    });
    worker.once("message", (m: { log10: number; patterns: string[] }) => {
      // Brute force is named only when nothing else was found: then length is what is missing.
      const patterns = [...new Set(m.patterns.filter((p) => p !== "bruteforce" && p !== "separator"))];
      resolve({ bits: m.log10 * Math.log2(10), found: (patterns.length ? patterns : ["bruteforce"]).map((p) => PATTERNS[p] ?? p) });
    });
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`the secret's strength check exited with code ${code}`)));
  });
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
