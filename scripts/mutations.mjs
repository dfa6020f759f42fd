#!/usr/bin/env node
/**
 * Deliberate breaks, one at a time: each is a one-line change to the source that a user would
 * see as a wrong answer, a lost row or a limit gone, and the tests named beside it must catch it.
 * Each break is made in a scratch worktree of HEAD (the working tree is never touched), the tests
 * are run there, and a table says which broke a test (caught) and which passed them all (missed).
 * Not part of `npm test`: a campaign takes about twenty minutes on 2 cores. Its latest table is in
 * docs/architecture.md ("Deliberate breaks").
 *
 *   node scripts/mutations.mjs                 every break
 *   node scripts/mutations.mjs --only 3,7      breaks 3 and 7 (numbers from --list)
 *   node scripts/mutations.mjs --list          the breaks, and whether each still applies to HEAD
 *
 * Tests run as the suite runs them (TEST_DATABASE_URL / TEST_REDIS_URL from the environment).
 * A break whose line is no longer in the source is reported "stale": edit its `find`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** [area, what a user would see, file, the line as it is, the line broken, the tests that must catch it]. */
const BREAKS = [
  // Chain decoding and transfers (indexer/movements.ts: events → transfer rows; indexer/touched.ts: a block's events in turn).
  ["transfers", "assets.Deposited (a fee paid in an asset, an XCM deposit) makes no transfer row", "indexer/movements.ts", `    Deposited: ["deposit", null, f(1, "who"), f(2, "amount")],`, ``, ["test/indexer/runtimes.test.ts", "test/indexer/touched.test.ts"]],
  ["transfers", "assets.Withdrawn makes no transfer row", "indexer/movements.ts", `    Withdrawn: ["withdraw", f(1, "who"), null, f(2, "amount")],`, ``, ["test/indexer/runtimes.test.ts", "test/indexer/touched.test.ts"]],
  ["transfers", "a mint is listed as a transfer", "indexer/movements.ts", `    Issued: ["mint", null, f(1, "owner"), f(2, "amount", "totalSupply")],`, `    Issued: ["transfer", null, f(1, "owner"), f(2, "amount", "totalSupply")],`, ["test/indexer/runtimes.test.ts", "test/indexer/touched.test.ts"]],
  ["transfers", "a transfer's sender and receiver swapped", "indexer/movements.ts", `    Transfer: ["transfer", f(0, "from"), f(1, "to"), f(2, "amount")],`, `    Transfer: ["transfer", f(1, "to"), f(0, "from"), f(2, "amount")],`, ["test/indexer/runtimes.test.ts", "test/indexer/touched.test.ts"]],
  ["transfers", "a fee paid in an asset makes no row", "indexer/touched.ts", `        if (token !== ctx.nativeTokenId) changes.transfers.push(feeMovement(e, token));`, ``, ["test/indexer/runtimes.test.ts", "test/indexer/touched.test.ts"]],
  ["transfers", "a native fee's tip is dropped", "indexer/movements.ts", `kind: "fee", tokenId, lpTokenId: null, from: who, to: null, amount: amount(feeField(e, "actualFee", 1), "actualFee"), tip: amount(feeField(e, "tip", 2), "tip") };`, `kind: "fee", tokenId, lpTokenId: null, from: who, to: null, amount: amount(feeField(e, "actualFee", 1), "actualFee"), tip: null };`, ["test/indexer/runtimes.test.ts", "test/indexer/touched.test.ts"]],
  ["transfers", "a transfer's USD value uses the wrong decimals", "indexer/transfers.ts", `      valueUsd: price === undefined || decimals === undefined ? null : formatFixed(usdValue(BigInt(t.amount), decimals, price), USD_SCALE),`, `      valueUsd: price === undefined || decimals === undefined ? null : formatFixed(usdValue(BigInt(t.amount), decimals + 1, price), USD_SCALE),`, ["test/indexer/touched.test.ts", "test/indexer/runtimes.test.ts"]],
  ["swaps", "a multi-hop swap's next hop starts from the wrong amount", "indexer/swaps.ts", `    amountIn = BigInt(out);`, ``, ["test/indexer/market.test.ts", "test/indexer/touched.test.ts"]],
  // Exact money.
  ["money", "USD values divided by ten", "shared/decimal.ts", `  return mulDiv(amount, priceUsd, pow10(decimals));`, `  return mulDiv(amount, priceUsd, pow10(decimals + 1));`, ["test/shared/decimal.test.ts"]],
  ["money", "amounts keep trailing zeros (\"1.500000\")", "shared/decimal.ts", `  let frac = scale > 0 ? (abs % base).toString().padStart(scale, "0").replace(/0+$/, "") : "";`, `  let frac = scale > 0 ? (abs % base).toString().padStart(scale, "0") : "";`, ["test/shared/decimal.test.ts"]],
  // Prices.
  ["prices", "pools under the minimum liquidity price tokens", "indexer/prices.ts", `  if (depth < min || depth === 0n) return undefined;`, `  if (depth === 0n) return undefined;`, ["test/indexer/prices.test.ts"]],
  ["prices", "a stablecoin is worth 0.1 USD", "indexer/prices.ts", `best.set(id, { price: pow10(USD_SCALE), depth: INFINITE, hops: 0, via: -1 });`, `best.set(id, { price: pow10(USD_SCALE - 1), depth: INFINITE, hops: 0, via: -1 });`, ["test/indexer/prices.test.ts"]],
  ["prices", "a price that fell below the floor never expires", "indexer/market.ts", `    for (const id of this.prices.keys()) if (!next.has(id)) changed.set(id, null);`, ``, ["test/indexer/market.test.ts", "test/indexer/price-expiry.test.ts"]],
  ["pools", "the 24 h window is a second short", "db/queries/pool-stats.ts", "      w as (select timestamp - ${DAY - 1}::bigint as lo, timestamp + 1 as hi from head),", "      w as (select timestamp - ${DAY - 2}::bigint as lo, timestamp + 1 as hi from head),", ["test/db/queries.test.ts"]],
  ["pools", "/pool/stats drops the swaps of the first second of the head's own minute", "db/queries/pool-stats.ts", "from swaps, e where timestamp >= greatest(m1, m0) and timestamp < hi", "from swaps, e where timestamp > greatest(m1, m0) and timestamp < hi", ["test/db/queries.test.ts"]],
  // Answers as of a block.
  ["at", "?at= one block past the store's head answers instead of BLOCK_NOT_INDEXED", "api/services/as-of.ts", `    if (q.at > head.number) throw new AppError("BLOCK_NOT_INDEXED",`, `    if (q.at > head.number + 1) throw new AppError("BLOCK_NOT_INDEXED",`, ["test/api/balances-at.test.ts", "test/api/portfolio-at.test.ts"]],
  ["at", "?atTime= after the head's time answers (a later block could still come)", "api/services/as-of.ts", `    if (q.atTime > head.timestamp) throw new AppError("BLOCK_NOT_INDEXED",`, `    if (q.atTime > head.timestamp + 12) throw new AppError("BLOCK_NOT_INDEXED",`, ["test/api/balances-at.test.ts", "test/api/portfolio-at.test.ts"]],
  ["at", "?at= of the history floor itself is refused (its first complete snapshot)", "api/services/as-of.ts", `    if (q.at < floor) throw refuseBefore(\`Block \${q.at}\`);`, `    if (q.at <= floor) throw refuseBefore(\`Block \${q.at}\`);`, ["test/api/balances-at.test.ts"]],
  // Lists and their walk through the partitions.
  ["lists", "the walk skips the first block below each slice", "db/queries/partitions.ts", `    upper = oldest.from - 1;`, `    upper = oldest.from - 2;`, ["test/db/partitions.test.ts", "test/db/transfer-walk.test.ts"]],
  ["lists", "a sweep that read too many rows is taken as the page", "db/queries/transfer-walk.ts", "  return found.length > 0 && found[0]!.over ? undefined : found;", "  return found;", ["test/db/transfer-walk.test.ts"]],
  ["lists", "the holders page at an offset past the end repeats the first page", "db/queries/holders.ts", `  if (total !== undefined && offset >= total) return [];`, ``, ["test/db/queries.test.ts", "test/api/reads.test.ts"]],
  ["lists", "holders ranked by address before balance ties", "db/queries/holders.ts", "const rankOrder = [sql`${holders.balance} desc nulls last`, asc(holders.account)] as const;", "const rankOrder = [sql`${holders.balance} desc nulls last`, desc(holders.account)] as const;", ["test/db/queries.test.ts", "test/api/reads.test.ts"]],
  ["lists", "a token's holder count grows by one more on each batch", "db/queries/holders.ts", "      on conflict (token_id) do update set holders = holder_counts.holders + excluded.holders`);", "      on conflict (token_id) do update set holders = holder_counts.holders + excluded.holders + 1`);", ["test/db/holders.test.ts"]],
  ["lists", "an account's multi-hop trades are listed as single-hop (multiHop false on a 2-hop route)", "api/services/history.ts", `      multiHop: s.hops > 1,
      pool: {`, `      multiHop: s.hops > 2,
      pool: {`, ["test/api/transfers.test.ts"]],
  // Budgets and limits.
  ["budgets", "a client may run one read more than its budget", "api/middleware/read-budget.ts", `    if (client.running >= this.perClient) return false;`, `    if (client.running > this.perClient) return false;`, ["test/api/read-budget.test.ts"]],
  ["budgets", "a JSON body one level deeper than the limit is read", "api/middleware/json-body.ts", `    if (depth >= MAX_JSON_DEPTH) return { tooDeep: true };`, `    if (depth > MAX_JSON_DEPTH) return { tooDeep: true };`, ["test/api/input.test.ts"]],
  ["budgets", "a login token lives a week, not 24 h", "api/auth/tokens.ts", `export const TOKEN_LIFETIME_SECONDS = 86_400;`, `export const TOKEN_LIFETIME_SECONDS = 7 * 86_400;`, ["test/api/auth.test.ts"]],
  ["budgets", "the /ws connection slot is never given back", "api/live/ws.ts", `      if (left <= 0) perIp.delete(ip);`, `      if (left <= 0) return;`, ["test/api/ws-abuse.test.ts", "test/api/ws-budget.test.ts"]],
  ["budgets", "the rate limit lets one request more a window through", "api/rate-limit/memory-store.ts", `    const allowed = count < max;`, `    const allowed = count <= max;`, ["test/api/rate-limit.test.ts"]],
  ["cache", "a stale ETag still gets 304 Not Modified", "api/middleware/cache.ts", `    if (hit) return answer(c, hit, ifNoneMatches(rawHeader(c, "if-none-match"), hit.etag) ? 304 : 200);`, `    if (hit) return answer(c, hit, rawHeader(c, "if-none-match") ? 304 : 200);`, ["test/api/cache.test.ts"]],
  // Runtime upgrades: a block decoded with the runtime its own state names.
  ["upgrades", "a block is decoded with its parent's runtime (one block late across an upgrade)", "indexer/chain/runtimes.ts", `    const spec = named ?? (await this.version(await this.parentOf(hash)));`, `    const spec = await this.version(await this.parentOf(hash));`, ["test/indexer/runtime-confirm.test.ts", "test/indexer/upgrade-fake.test.ts"]],
  ["upgrades", "tokens and pools a runtime upgrade's migration changed (no event) are not read again", "indexer/catch-up.ts", `      await resnapshotMarket(ctx.reader, ctx.deriver, r.block, batch);`, ``, ["test/indexer/upgrade-fake.test.ts"]],
  ["upgrades", "state changed without events (holds, refunds, storage writes) is not read again when the block asks for it", "indexer/follower.ts", `      pipeline.clear();
      await this.reread(s);`, `      pipeline.clear();`, ["test/indexer/reread.test.ts"]],
  // Verification against chain storage.
  ["sweep", "drift in a token's details is found but not repaired", "indexer/sweep.ts", `      if (d) drift.push(d), repairs.tokens.push(t.id);`, `      if (d) drift.push(d);`, ["test/indexer/sweep.test.ts"]],
  // The client.
  ["client", "iteration stops after the first page", "client/src/paginate.ts", `    cursor = page.nextCursor;`, `    return;`, ["client/test"]],
  ["client", "maxRetries: 0 still retries once (and every limit one more)", "client/src/http.ts", `      if (retriable(res.status) && attempt < maxRetries) {`, `      if (retriable(res.status) && attempt <= maxRetries) {`, ["client/test"]],
  // The dashboard.
  ["dashboard", "amounts shown ten times too large", "api/dashboard/src/format.ts", `  const s = String(amount).padStart(decimals + 1, "0");`, `  const s = String(amount).padStart(decimals, "0") + "0";`, ["test/browser/dashboard.test.ts"]],
  ["dashboard", "a percentage's whole part shown ten times too large (a share of 0.3 as 300 %)", "api/dashboard/src/format.ts", "  const whole = `${int}${padded.slice(0, 2)}`.replace(/^0+(?=\\d)/, \"\");", "  const whole = `${int}${padded.slice(0, 2)}0`.replace(/^0+(?=\\d)/, \"\");", ["test/browser/dashboard.test.ts", "test/api/dashboard/scale.test.ts"]],
];

function run(cmd, args, cwd, extra = {}) {
  return spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...extra });
}

const args = process.argv.slice(2);
const only = args.includes("--only") ? new Set(args[args.indexOf("--only") + 1].split(",").map(Number)) : undefined;

function applies(b) {
  const [, , file, find] = b;
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return text.split(find).length - 1;
}

if (args.includes("--list")) {
  BREAKS.forEach((b, i) => {
    const n = applies(b);
    console.log(`${String(i + 1).padStart(2)}  ${b[0].padEnd(10)} ${n === 1 ? "      " : n === 0 ? "STALE " : "TWICE "} ${b[1]}  (${b[2]})`);
  });
  process.exit(0);
}

const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" }).trim();
if (dirty) console.error(`mutations: the breaks are made on HEAD (${head}); uncommitted changes are not in them`);
const scratch = mkdtempSync(path.join(tmpdir(), "tokenpool-mutations-"));
const tree = path.join(scratch, "tree");
execFileSync("git", ["worktree", "add", "--detach", tree, "HEAD"], { cwd: ROOT, stdio: "ignore" });
symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));
if (existsSync(path.join(ROOT, "client/node_modules"))) symlinkSync(path.join(ROOT, "client/node_modules"), path.join(tree, "client/node_modules"));

const results = [];
try {
  for (const [i, b] of BREAKS.entries()) {
    if (only && !only.has(i + 1)) continue;
    const [area, what, file, find, replace, tests] = b;
    const target = path.join(tree, file);
    const original = readFileSync(target, "utf8");
    const count = original.split(find).length - 1;
    if (count !== 1) {
      results.push({ n: i + 1, area, what, file, outcome: count === 0 ? "stale" : "ambiguous", seconds: 0, caughtBy: "" });
      continue;
    }
    writeFileSync(target, original.replace(find, replace));
    const started = Date.now();
    // Each test file on its own, so the table names the files that caught it.
    const caughtBy = [];
    for (const t of tests) {
      const r = run(path.join(tree, "node_modules/.bin/vitest"), ["run", t], tree, { env: { ...process.env, TOKENPOOL_MUTATION: "1" }, timeout: 15 * 60_000 });
      if (r.status !== 0) caughtBy.push(t);
    }
    writeFileSync(target, original);
    const seconds = Math.round((Date.now() - started) / 1000);
    results.push({ n: i + 1, area, what, file, outcome: caughtBy.length > 0 ? "caught" : "MISSED", seconds, caughtBy: caughtBy.join(", ") });
    const last = results.at(-1);
    console.error(`mutations: ${last.n} ${last.outcome} (${seconds} s): ${what}${caughtBy.length ? ` — by ${last.caughtBy}` : ""}`);
  }
} finally {
  execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "ignore" });
  rmSync(scratch, { recursive: true, force: true });
}

const caught = results.filter((r) => r.outcome === "caught").length;
const judged = results.filter((r) => r.outcome === "caught" || r.outcome === "MISSED").length;
console.log(`\nDeliberate breaks on ${head} (${new Date().toISOString().slice(0, 10)}): ${caught} of ${judged} caught\n`);
console.log("| # | area | the break (what a user would see) | file | outcome | caught by | s |");
console.log("|---|---|---|---|---|---|---|");
for (const r of results) console.log(`| ${r.n} | ${r.area} | ${r.what} | \`${r.file}\` | ${r.outcome} | ${r.caughtBy.replaceAll("test/", "")} | ${r.seconds} |`);
process.exitCode = results.some((r) => r.outcome !== "caught") ? 1 : 0;
