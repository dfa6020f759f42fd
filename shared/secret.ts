import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { link, mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "./errors.js";
import { MAKE_SECRET, weakSecret } from "./secret-strength.js";

/** Random bytes of a secret TokenPool makes (the kept JWT key, `tokenpool secret`): 384 bits, 64 base64url characters. */
export const SECRET_BYTES = 48;

/** A new secret: SECRET_BYTES random bytes, base64url (URL-safe: it can sit in a connection URL's password). */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

/**
 * The JWT secret: JWT_SECRET when set; otherwise one generated on first start and kept in
 * DATA_DIR/jwt-secret, so tokens stay valid across restarts. Either is held to one rule: at least
 * MIN_SECRET_BITS of estimated entropy (shared/secret-strength.ts), or the start is refused in
 * one line saying how to make a good one — a guessable key lets anyone forge a token for any user.
 * The file is written whole or not at all (a temporary file, fsync, then a hard link to the final
 * name, which — unlike a rename — never replaces an existing one; the temporary name is removed),
 * with mode 0600. A file that is there but not a usable secret (not a regular file, not UTF-8
 * text, guessable — empty, truncated, hand-edited) or readable by other users refuses the start
 * with its path: silently replacing it would log every user out.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) {
    const weak = await weakSecret(configured);
    if (weak) throw new ConfigError(`JWT_SECRET ${weak}; ${MAKE_SECRET}`);
    return configured;
  }
  const file = path.join(dataDir, "jwt-secret");
  const kept = await readSecret(file);
  if (kept !== undefined) return kept;
  await mkdir(dataDir, { recursive: true });
  const secret = newSecret();
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(secret + "\n");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link() fails when the name exists: another process won the race, and theirs is used.
    await link(temp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file system without hard links: a rename is still atomic (a racing start may then replace
    // a secret another just wrote, before either issued a token).
    if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS") await rename(temp, file);
    else if (code !== "EEXIST") throw err;
  } finally {
    await unlink(temp).catch(() => {});
  }
  return (await readSecret(file)) ?? secret;
}

/** The way out of every refusal: a new secret (logging everyone out), or one configured. */
const REPLACE = `to have a new one generated (every issued token becomes invalid), or set JWT_SECRET (${MAKE_SECRET})`;

/** No file (undefined: one is created), or a ConfigError naming why it cannot be read. */
function unreadable(file: string, err: unknown): undefined {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return undefined;
  throw new ConfigError(`${file} cannot be read (${code ?? "error"}); a JWT secret must be a readable file. Fix its permissions, delete it ${REPLACE}.`);
}

/**
 * The kept secret, or undefined when there is none. Anything else that is not a usable secret
 * refuses the start with a ConfigError naming the file: not a regular file (a directory, a FIFO,
 * a device), unreadable, open to other users, not valid UTF-8 (undecodable bytes would all
 * become U+FFFD, a constant key), or guessable once trimmed.
 */
async function readSecret(file: string): Promise<string | undefined> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch (err) {
    return unreadable(file, err);
  }
  // Checked before opening: reading a directory fails with EISDIR, and opening a FIFO blocks.
  if (!info.isFile()) {
    throw new ConfigError(`${file} is ${kindOf(info)}, not a regular file; a JWT secret must be a file. Remove it ${REPLACE}.`);
  }
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
    throw new ConfigError(`${file} is readable or writable by other users (mode ${(info.mode & 0o777).toString(8)}); run chmod 600 on it.`);
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return unreadable(file, err);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ConfigError(`${file} is not valid UTF-8 text; a JWT secret must be text. Delete the file ${REPLACE}.`);
  }
  const kept = text.trim();
  const weak = await weakSecret(kept);
  if (weak) throw new ConfigError(`${file} ${weak}. Delete the file ${REPLACE}.`);
  return kept;
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a named pipe";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "a special file";
}
