/**
 * The JWT secret, from JWT_SECRET or DATA_DIR/jwt-secret, held to one rule: at least 128 bits of
 * estimated entropy (shared/secret-strength.ts: zxcvbn-ts), so repetition, dictionary words and
 * short hand-typed keys are refused in one line that says how to make a good one, and what
 * `openssl rand` and `tokenpool secret` print is accepted; hex or base64 is judged by what it
 * encodes (a digest of a common password, guessable text). A file that is not a usable key — not
 * UTF-8 text (its bytes would all decode to U+FFFD, one constant key), guessable, not a regular
 * file — refuses the start with one message naming the file and what to do.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../shared/errors.js";
import { resolveJwtSecret } from "../../shared/secret.js";
import { patterned } from "../../shared/secret-decodings.js";
import { MIN_SECRET_BITS, secretStrength } from "../../shared/secret-strength.js";

const run = promisify(execFile);

/** A key that passes: 48 random bytes, as `tokenpool secret` makes them. */
const STRONG = "gV2S0QI_qd7k6Ozzu3IEcibudo_Hn-Ntp58mhhK46nJul0Q-57ZKNc_idkEG_Gpp";

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

  it("refuses a guessable key: repetition, dictionary words, to the same rule as JWT_SECRET", async () => {
    for (const content of ["a".repeat(40), "abcdefg".repeat(6) + "\n", "changeme-changeme-changeme-changeme-changeme", "\uFFFD".repeat(40)]) {
      await writeFile(file, content, { mode: 0o600 });
      expect(await refusal()).toMatch(/is guessable: about \d+ bits of estimated entropy \((a repeated pattern|dictionary words)[^)]*\), and a secret needs at least 128\. Delete the file to have a new one generated .*\(make one with: tokenpool secret\)\.$/);
    }
  });

  it("refuses a short file at once, counting characters, not bytes", async () => {
    // 38 characters of two bytes each: 76 bytes, but a 38-character key (39 are the least that can carry 128 bits).
    await writeFile(file, "éàüöçñßøåæœ€ŷźžđħĳŀłŋŧƀƃƅƈƌƒƕƙƚƛƜƝƞƟƠơƢƣƤ".slice(0, 38), { mode: 0o600 });
    expect(await refusal()).toMatch(/is guessable: 38 characters, and a secret needs at least 39 \(128 bits of estimated entropy\)/);
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
    await writeFile(file, STRONG, { mode: 0o600 });
    await chmod(file, 0o644);
    expect(await refusal()).toMatch(/readable or writable by other users \(mode 644\); run chmod 600/);
  });

  it("accepts a good secret, trimmed, including one of non-ASCII text", async () => {
    await writeFile(file, `  ${STRONG}\n`, { mode: 0o600 });
    expect(await resolveJwtSecret(undefined, dir)).toBe(STRONG);
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

/** A run of the `tokenpool` command: exit code, stdout, stderr. */
async function tokenpool(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // Killed if it outlives the test (an API that started when it should have been refused).
    const { stdout, stderr } = await run(process.execPath, ["bin/tokenpool.mjs", ...args], { env: { ...process.env, ...env }, timeout: 50_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The refusal of `configured` as JWT_SECRET: a ConfigError of one line, naming it and how to make a good one. */
async function refusalOf(configured: string): Promise<string> {
  const err = await resolveJwtSecret(configured, dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, configured).toBeInstanceOf(ConfigError);
  const message = (err as Error).message;
  expect(message).toMatch(/^JWT_SECRET is guessable: .*; make one with: tokenpool secret$/);
  expect(message).not.toContain("\n");
  return message;
}

describe("JWT_SECRET: at least 128 bits of estimated entropy", () => {
  it("refuses the issue's guessable keys, and repetition, sequences, dictionary words and l33t spellings of them, each in one line", async () => {
    // Issue 38: both passed the old rule (≥ 32 characters, ≥ 8 distinct), and a token forged with
    // such a key read /assets/holders. Under 39 characters nothing can carry 128 bits: refused at once.
    expect(await refusalOf("changeme-changeme-changeme-changeme")).toMatch(/35 characters, and a secret needs at least 39/);
    expect(await refusalOf("12345678901234567890123456789012")).toMatch(/32 characters/);
    // A hand-typed 32-character key: ≈ 106 bits by the estimate, whatever its alphabet.
    expect(await refusalOf("Qx7!pL2#vN9@tR4$wZ6^yB8&kM3*hJ5(")).toMatch(/32 characters/);
    // Long enough, and still guessable.
    const cases: [string, RegExp][] = [
      ["changeme-changeme-changeme-changeme-changeme", /about \d+ bits of estimated entropy \(a repeated pattern/],
      ["1234567890123456789012345678901234567890", /a repeated pattern|a sequence/],
      ["correct horse battery staple correct horse", /dictionary words/],
      ["m0nk3y-dr4g0n-sh4d0w-m4st3r-f00tb4ll-b4s3b4ll", /dictionary words/],
      ["qwertyuiopasdfghjklzxcvbnmqwertyuiopasdfg", /dictionary words|a keyboard pattern/],
    ];
    const messages = await Promise.all(cases.map(([secret]) => refusalOf(secret)));
    messages.forEach((m, i) => expect(m, cases[i]![0]).toMatch(cases[i]![1]));
  }, 60_000);

  it("accepts what `openssl rand -base64 32`, `openssl rand -hex 32` and `tokenpool secret` print", async () => {
    const openssl = (args: string[]) => execFileSync("openssl", ["rand", ...args], { encoding: "utf8" }).trim();
    let made: string[];
    try {
      made = [openssl(["-base64", "32"]), openssl(["-hex", "32"])];
    } catch {
      // The same bytes and encodings, where openssl is missing.
      made = [randomBytes(32).toString("base64"), randomBytes(32).toString("hex")];
    }
    const printed = (await tokenpool(["secret"])).stdout.trim();
    for (const secret of [...made, printed]) expect(await resolveJwtSecret(secret, dir), secret).toBe(secret);
    // With room to spare: 2,000 of each measured 139 (base64), 195 (hex) and 208 bits (tokenpool secret) at the least.
    const bits = await Promise.all([...made, printed].map(async (s) => (await secretStrength(s)).bits));
    for (const b of bits) expect(b).toBeGreaterThan(MIN_SECRET_BITS + 5);
  }, 60_000);
});

describe("JWT_SECRET: an encoding is judged by what it encodes (issue 38, finding 7)", () => {
  const hex = (text: string) => Buffer.from(text).toString("hex");
  const digest = (algorithm: string, text: string, encoding: "hex" | "base64" | "base64url") => createHash(algorithm).update(text).digest(encoding);

  it("refuses the digest of a common password or word, in hex or base64, and hex or base64 of guessable text", async () => {
    const cases: [string, RegExp][] = [
      // 64 hex characters looked random: ≈ 200 bits by the estimate, and both passed.
      [digest("sha256", "password", "hex"), /the SHA-256 \(hex\) of a common password/],
      [digest("sha256", "password\n", "hex").toUpperCase(), /the SHA-256 \(hex\) of a common password/], // `echo password | sha256sum`
      [digest("sha1", "dragon", "hex"), /the SHA-1 \(hex\) of a common password/],
      [digest("sha1", "abdomen", "hex"), /the SHA-1 \(hex\) of a dictionary word/],
      [Buffer.from(digest("md5", "qwerty", "hex")).toString("base64"), /the MD5 \(base64 of hex\) of a common password/], // an MD5 itself is too short
      [digest("sha512", "monkey", "base64url"), /the SHA-512 \(base64\) of a common password/],
      [Buffer.from(`${digest("sha256", "letmein", "hex")}  -\n`).toString("base64"), /the SHA-256 \(base64 of hex\) of a common password/],
      [Buffer.from("changeme-changeme-changeme-changeme-changeme").toString("base64"), /base64-encoded text; a repeated pattern/],
      [hex("this is the jwt secret of our token api"), /hex-encoded text; .*dictionary words/],
      [hex("correct horse battery staple correct horse"), /hex-encoded text; dictionary words/],
    ];
    const messages = await Promise.all(cases.map(([secret]) => refusalOf(secret)));
    messages.forEach((m, i) => expect(m, cases[i]![0]).toMatch(cases[i]![1]));
    // The digest's estimate is the list it was found in: a few hundred thousand guesses at most.
    expect((await secretStrength(digest("sha256", "password", "hex"))).bits).toBeLessThan(20);
  }, 60_000);

  // 20 random bytes in hex (40 characters) sit on the estimate's edge: 467 of 3,000 samples were
  // estimated under 128 bits (a date or a sequence found in them); 24 bytes (48): none of 3,000,
  // the least 143 bits; 32 bytes in base64 (44): none, the least 142 (docs/operators.md).
  it("accepts random bytes in hex and base64 (no digest of a listed word), and what `tokenpool secret` prints", async () => {
    const printed = (await tokenpool(["secret"])).stdout.trim();
    for (const secret of [randomBytes(32).toString("hex"), randomBytes(32).toString("base64"), randomBytes(24).toString("hex"), printed]) {
      expect(await resolveJwtSecret(secret, dir), secret).toBe(secret);
    }
  }, 60_000);
});

describe("JWT_SECRET: digests and made bytes that passed (issue 38 re-attack round 3, finding 5)", () => {
  const digest = (algorithm: string, text: string, encoding: "hex" | "base64" = "hex") => createHash(algorithm).update(text).digest(encoding);
  /** What `md5sum`, `sha*sum` and `b2sum` print for standard input: "<hex>  -". */
  const sumLine = (algorithm: string, text: string) => `${digest(algorithm, text)}  -`;

  it("refuses a digest with what `sha256sum` prints after it, of nothing, of line ends and of common forms of a word", async () => {
    const cases: [string, RegExp][] = [
      // JWT_SECRET=$(echo password | sha256sum): the "  -" made it not hex, and 64 random-looking characters.
      [sumLine("sha256", "password\n"), /the SHA-256 \(hex\) of a common password/],
      [`${sumLine("sha512", "password\n")}\n`, /the SHA-512 \(hex\) of a common password/],
      [digest("sha256", ""), /the SHA-256 \(hex\) of an empty string/], // echo -n "$UNSET" | sha256sum
      [sumLine("sha256", "\n"), /the SHA-256 \(hex\) of a lone newline/], // echo "$UNSET" | sha256sum
      [digest("sha256", "password\r\n"), /the SHA-256 \(hex\) of a common password/],
      [digest("sha256", "password "), /the SHA-256 \(hex\) of a common password/],
      [digest("sha256", "Password1"), /the SHA-256 \(hex\) of a common password/],
    ];
    const messages = await Promise.all(cases.map(([secret]) => refusalOf(secret)));
    messages.forEach((m, i) => expect(m, cases[i]![0]).toMatch(cases[i]![1]));
    // Found in a few hundred thousand guesses: the list, five forms of each word, "" and "\n" first.
    expect((await secretStrength(digest("sha256", ""))).bits).toBe(0);
  }, 60_000);

  it("refuses SHA-224 and BLAKE2b-512 (`b2sum`), and the SHA-256 of a hex SHA-256", async () => {
    const cases: [string, RegExp][] = [
      [digest("sha224", "password"), /the SHA-224 \(hex\) of a common password/],
      [sumLine("blake2b512", "password\n"), /the BLAKE2b-512 \(hex\) of a common password/], // echo password | b2sum
      [digest("sha256", digest("sha256", "password")), /the SHA-256 of the hex SHA-256 \(hex\) of a common password/],
    ];
    const messages = await Promise.all(cases.map(([secret]) => refusalOf(secret)));
    messages.forEach((m, i) => expect(m, cases[i]![0]).toMatch(cases[i]![1]));
  }, 60_000);

  it("refuses bytes that are made, not drawn: a sequence, one byte repeated, a short repeat, few distinct values", async () => {
    // 36 bytes of three values, in no repeat: the digits of π, mod 3.
    const few = Buffer.from([..."314159265358979323846264338327950288"].map((d) => [0x11, 0x5a, 0xc3][Number(d) % 3]!));
    const cases: [string, RegExp][] = [
      [Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString("hex"), /about 16 bits .*an arithmetic sequence of bytes \(hex\)/],
      [Buffer.from(Array.from({ length: 48 }, (_, i) => i)).toString("base64"), /an arithmetic sequence of bytes \(base64\)/],
      [Buffer.alloc(48, 7).toString("base64"), /one byte repeated \(base64\)/],
      // 13 bytes thrice: the base64 repeats only every 52 characters, where zxcvbn sees no repeat.
      [Buffer.from(randomBytes(13).toString("hex").repeat(3), "hex").toString("base64"), /13 bytes repeated \(base64\)/],
      [few.toString("base64"), /bytes of only 3 distinct values \(base64\)/],
    ];
    const messages = await Promise.all(cases.map(([secret]) => refusalOf(secret)));
    messages.forEach((m, i) => expect(m, cases[i]![0]).toMatch(cases[i]![1]));
  }, 60_000);

  it("finds no pattern in random bytes of 16 to 64 (the odds are under 10^-10 each: shared/secret-decodings.ts)", () => {
    for (let i = 0; i < 5_000; i += 1) {
      const bytes = randomBytes(16 + (i % 49));
      expect(patterned(bytes, MIN_SECRET_BITS), bytes.toString("hex")).toBeUndefined();
    }
  });
});

describe("`tokenpool secret` and the API's start", () => {
  it("prints a new secret each time: 64 URL-safe characters (48 random bytes, 384 bits), one line", async () => {
    const [a, b, help] = await Promise.all([tokenpool(["secret"]), tokenpool(["secret"]), tokenpool(["secret", "--help"])]);
    for (const r of [a, b]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^[A-Za-z0-9_-]{64}\n$/);
      expect(r.stderr).toBe("");
    }
    expect(a.stdout).not.toBe(b.stdout);
    // URL-safe as it is: it sits in a connection URL's password unchanged.
    const secret = a.stdout.trim();
    expect(new URL(`postgres://tokenpool:${secret}@postgres:5432/tokenpool`).password).toBe(secret);
    expect(help.stdout).toMatch(/Usage: tokenpool secret \[options\]\n\nprint a new random secret \(384 bits, 64 URL-safe characters\)/);
  }, 60_000);

  it("`tokenpool api` with a guessable JWT_SECRET exits 1 with one line that says how to make a good one", async () => {
    const env = { DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATABASE_URL: "", REDIS_URL: "" };
    const [long, short] = await Promise.all([
      tokenpool(["api"], { ...env, JWT_SECRET: "changeme-changeme-changeme-changeme-changeme" }),
      tokenpool(["api"], { ...env, JWT_SECRET: "changeme-changeme-changeme-changeme" }),
    ]);
    for (const r of [long, short]) {
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/configuration error: JWT_SECRET is guessable: .*; make one with: tokenpool secret\n$/);
    }
    expect(long.stderr).toMatch(/a repeated pattern/);
  }, 60_000);
});
