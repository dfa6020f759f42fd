import { randomBytes } from "node:crypto";
import { link, mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "./errors.js";

/** HS256 keys shorter than this are guessable; the generated one is 64 characters. */
export const MIN_SECRET_LENGTH = 32;

/**
 * The JWT secret: JWT_SECRET when set; otherwise one generated on first start and kept in
 * DATA_DIR/jwt-secret, so tokens stay valid across restarts. The file is written whole or not at
 * all (a temporary file, fsync, then a hard link to the final name, which — unlike a rename —
 * never replaces an existing one; the temporary name is removed), with mode
 * 0600. A file that is there but too short (empty, truncated, hand-edited) or readable by other
 * users refuses the start with its path: a short key could be forged, and silently replacing it
 * would log every user out.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, "jwt-secret");
  const kept = await readSecret(file);
  if (kept !== undefined) return kept;
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
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

async function readSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const kept = text.trim();
  if (kept.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`${file} holds ${kept.length} characters; a JWT secret needs at least ${MIN_SECRET_LENGTH}. Delete the file to have a new one generated (every issued token becomes invalid), or set JWT_SECRET.`);
  }
  const { mode } = await stat(file);
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    throw new ConfigError(`${file} is readable or writable by other users (mode ${(mode & 0o777).toString(8)}); run chmod 600 on it.`);
  }
  return kept;
}
