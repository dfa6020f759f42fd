import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The JWT secret: JWT_SECRET when set; otherwise one generated on first start and kept in
 * DATA_DIR/jwt-secret (mode 0600), so tokens stay valid across restarts.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, "jwt-secret");
  try {
    const kept = (await readFile(file, "utf8")).trim();
    if (kept.length >= 32) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  // "wx" fails if another process wrote it first; then theirs wins and we read it back.
  try {
    await writeFile(file, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return (await readFile(file, "utf8")).trim();
  }
}
