import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { AppError } from "../../shared/errors.js";
import { widerPrefix } from "../middleware/client-ip.js";

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
/**
 * Hashes one client key (an IPv4 address, an IPv6 /64) may have running or waiting at once, and
 * one IPv6 /48 over all its /64s: without them one client filled all 32 places and every other
 * client's sign-in was refused (issue 38, finding 3). 6 is a burst of 5 tries at one email
 * (the failed-login limit) plus one; it takes 6 clients (3 /48s) to fill the 34 places, each
 * refused its excess at once while the others still get in.
 */
export const HASH_PER_CLIENT = 6;
export const HASH_PER_PREFIX = 12;
let running = 0;
const waiting: (() => void)[] = [];
/** Hashes running or waiting per client key and per /48; a key is dropped at 0. */
const held = new Map<string, number>();

function busy(from = ""): AppError {
  return new AppError("SERVICE_UNAVAILABLE", `Too many sign-ins${from} at once; retry in a moment.`, { "Retry-After": "1" });
}

/** A place in the queue for `client` (its share checked first), or a 503 at once. */
async function bounded<T>(client: string, work: () => Promise<T>): Promise<T> {
  const prefix = widerPrefix(client);
  if ((held.get(client) ?? 0) >= HASH_PER_CLIENT) throw busy(" from your address");
  if (prefix !== undefined && (held.get(prefix) ?? 0) >= HASH_PER_PREFIX) throw busy(" from your network (IPv6 /48)");
  if (running >= HASH_CONCURRENCY && waiting.length >= HASH_QUEUE) throw busy();
  const keys = prefix === undefined ? [client] : [client, prefix];
  for (const key of keys) held.set(key, (held.get(key) ?? 0) + 1);
  try {
    await acquire();
    try {
      return await work();
    } finally {
      // Hand the slot to the next waiter (it never decrements, so no one can overtake it).
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  } finally {
    for (const key of keys) {
      const left = (held.get(key) ?? 1) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
    }
  }
}

/** A running slot: at once when one is free, else in turn (FIFO), else 503 after HASH_WAIT_MS. */
async function acquire(): Promise<void> {
  if (running < HASH_CONCURRENCY) {
    running += 1;
    return;
  }
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
}

// scrypt from node:crypto (OpenSSL): memory-hard like Argon2id, no native addon to build.
// N=2^15, r=8 costs 32 MiB and ~60-100 ms per hash on this class of machine.
const PARAMS = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, client: string): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return bounded(client, () => new Promise((resolve, reject) => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)))));
}

/**
 * "scrypt$N$r$p$salt$hash" (base64url), self-describing so the cost can be raised later. `client`
 * is the asker's client key (api/middleware/client-ip.ts clientIp): its share of the queue.
 */
export async function hashPassword(password: string, client: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS, client);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string, client: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) }, client);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;
/**
 * A hash to verify against when the email is unknown, so both failures cost the same time. A
 * computation refused by the bound (a login storm) is not kept: a kept rejection answered every
 * later unknown email 503 at once while known emails took a full hash — telling them apart. It is
 * computed on the share of the client that first needs it.
 */
export function decoyHash(client: string): Promise<string> {
  if (!decoy) {
    const attempt = hashPassword(randomBytes(16).toString("hex"), client);
    decoy = attempt;
    attempt.catch(() => {
      if (decoy === attempt) decoy = undefined;
    });
  }
  return decoy;
}
