/**
 * DATA_DIR/jwt-secret: a file that is not a usable HS256 key — not UTF-8 text (its bytes would
 * all decode to U+FFFD, one constant key), too short, too repetitive, not a regular file — refuses
 * the start with one message naming the file and what to do; a good one is used as it is.
 */
import { execFile, execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../shared/errors.js";
import { resolveJwtSecret } from "../../shared/secret.js";

const run = promisify(execFile);

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tokenpool-secret-"));
  file = path.join(dir, "jwt-secret");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The refusal of the current file: a ConfigError naming it and the way out. */
async function refusal(): Promise<string> {
  const err = await resolveJwtSecret(undefined, dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  const message = (err as Error).message;
  expect(message.startsWith(`${file} `), message).toBe(true);
  expect(message).not.toContain("\n");
  return message;
}

describe("the JWT secret file", () => {
  it("refuses bytes that are not UTF-8 (\\xff\\xfe\\xfd × 12 would be U+FFFD × 36, a constant key)", async () => {
    await writeFile(file, Buffer.from("fffefd".repeat(12), "hex"), { mode: 0o600 });
    expect(await refusal()).toMatch(/is not valid UTF-8 text; .*Delete the file to have a new one generated.*or set JWT_SECRET/);
    // One bad byte in an otherwise good secret is refused too: the file is damaged.
    await writeFile(file, Buffer.concat([Buffer.from("Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE"), Buffer.from([0xc3, 0x28])]), { mode: 0o600 });
    expect(await refusal()).toMatch(/not valid UTF-8/);
  });

  it("refuses a constant or repetitive key: fewer than 8 distinct characters", async () => {
    for (const content of ["a".repeat(40), "ab".repeat(20), "\uFFFD".repeat(36), "abcdefg".repeat(6) + "\n"]) {
      await writeFile(file, content, { mode: 0o600 });
      expect(await refusal()).toMatch(/holds only \d distinct characters; a JWT secret needs at least 8.*Delete the file/);
    }
  });

  it("still refuses a short file, counting characters, not bytes", async () => {
    // 31 characters of two bytes each: 62 bytes, but a 31-character key.
    await writeFile(file, "éàüöçñßøåæœ€ŷźžđħĳŀłŋŧƀƃƅƈƌƒƕƙƚ".slice(0, 31), { mode: 0o600 });
    expect(await refusal()).toMatch(/holds 31 characters; a JWT secret needs at least 32/);
  });

  it("refuses a directory (instead of failing with EISDIR and a stack trace)", async () => {
    await mkdir(file);
    expect(await refusal()).toMatch(/is a directory, not a regular file; .*Remove it to have a new one generated.*or set JWT_SECRET/);
  });

  it.skipIf(process.platform === "win32")("refuses a named pipe without opening it (opening one would block the start)", async (ctx) => {
    try {
      execFileSync("mkfifo", ["-m", "600", file]);
    } catch (err) {
      ctx.skip(`mkfifo failed: ${(err as Error).message.split("\n")[0]}`); // a visible skip, which fails CI
    }
    expect(await refusal()).toMatch(/is a named pipe, not a regular file/);
  });

  it.skipIf(process.platform === "win32")("refuses a file open to other users before reading it", async () => {
    await writeFile(file, "Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE", { mode: 0o600 });
    await chmod(file, 0o644);
    expect(await refusal()).toMatch(/readable or writable by other users \(mode 644\); run chmod 600/);
  });

  it("accepts a good secret, trimmed, including one of non-ASCII text", async () => {
    await writeFile(file, "  Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE\n", { mode: 0o600 });
    expect(await resolveJwtSecret(undefined, dir)).toBe("Zq8vN3kLmW2xR7tYp4sH6jD9fG1cB5aE");
    const text = "пароль-секрет-ключ-токен-подпись-проверка";
    await writeFile(file, text, { mode: 0o600 });
    expect(await resolveJwtSecret(undefined, dir)).toBe(text);
    // And the generated one passes its own checks (written, then read back).
    await rm(file);
    const generated = await resolveJwtSecret(undefined, dir);
    expect(generated).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await resolveJwtSecret(undefined, dir)).toBe(generated);
  });

  it("`tokenpool api` on such a file exits 1 with one line naming the file", async () => {
    await mkdir(file);
    const err = await run(process.execPath, ["bin/tokenpool.mjs", "api"], {
      env: { ...process.env, DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", JWT_SECRET: "", DATABASE_URL: "", REDIS_URL: "" },
    }).catch((e: unknown) => e as { code: number; stderr: string });
    expect(err).toMatchObject({ code: 1 });
    const stderr = (err as { stderr: string }).stderr.trim();
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toContain(`configuration error: ${file} is a directory, not a regular file`);
    expect(stderr).not.toMatch(/EISDIR|node:internal|\.ts:\d+/);
  }, 60_000);
});
