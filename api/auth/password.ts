import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { AppError } from "../../shared/errors.js";

/**
 * scrypt runs on libuv's thread pool (4 threads), which bearer-token checks (WebCrypto HMAC),
 * file reads and DNS share: 40 logins at once used to queue a first-seen token's check behind
 * them for seconds. At most HASH_CONCURRENCY hashes run at once, at most HASH_QUEUE wait, none
 * longer than HASH_WAIT_MS; the rest are refused with 503 at once. Hand-written (a dozen lines)
 * because p-limit and friends queue without bound and have no timeout.
 */
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 32;
export const HASH_WAIT_MS = 2_000;
let running = 0;
const waiting: (() => void)[] = [];

function busy(): AppError {
  return new AppError("SERVICE_UNAVAILABLE", "Too many sign-ins at once; retry in a moment.", { "Retry-After": "1" });
}

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_CONCURRENCY) {
    if (waiting.length >= HASH_QUEUE) throw busy();
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(busy());
      }, HASH_WAIT_MS);
      waiting.push(go);
    });
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    // Hand the slot to the next waiter (it never decrements, so no one can overtake it).
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

// scrypt from node:crypto (OpenSSL): memory-hard like Argon2id, no native addon to build.
// N=2^15, r=8 costs 32 MiB and ~60-100 ms per hash on this class of machine.
const PARAMS = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return bounded(() => new Promise((resolve, reject) => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)))));
}

/** "scrypt$N$r$p$salt$hash" (base64url), self-describing so the cost can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;
/**
 * A hash to verify against when the email is unknown, so both failures cost the same time. A
 * computation refused by the bound (a login storm) is not kept: a kept rejection answered every
 * later unknown email 503 at once while known emails took a full hash — telling them apart.
 */
export function decoyHash(): Promise<string> {
  if (!decoy) {
    const attempt = hashPassword(randomBytes(16).toString("hex"));
    decoy = attempt;
    attempt.catch(() => {
      if (decoy === attempt) decoy = undefined;
    });
  }
  return decoy;
}
