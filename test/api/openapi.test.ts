/**
 * Requests every route of the OpenAPI document — success and error answers — and checks each
 * answer against the schema the document gives for that status.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect, it } from "vitest";
import { describeDb } from "../support/db.js";
import { authHeader, buildApp } from "../support/app.js";
import { ALICE, DAVE, KSM, LONELY, seedMarket, TEN, USDT, ZERO } from "../support/fixtures.js";
import { documentedCodes } from "../support/openapi.js";
import { HEAD_BLOCK } from "../support/fixtures.js";
import { insertTransfers, requestSnapshot } from "../../db/index.js";
import { createLogger } from "../../shared/logger.js";
import { runSnapshot, startSnapshotRunner } from "../../api/snapshot-runner.js";

interface Case {
  method: "get" | "post";
  path: string;
  body?: unknown;
  auth?: boolean;
}

const cases: Record<string, Case[]> = {
  "/auth/register": [
    { method: "post", path: "/auth/register", body: { email: "new@example.com", password: "correct horse battery", name: "New" } },
    { method: "post", path: "/auth/register", body: { email: "new@example.com", password: "correct horse battery" } },
    { method: "post", path: "/auth/register", body: { email: "bad" } },
  ],
  "/auth/login": [
    { method: "post", path: "/auth/login", body: { email: "new@example.com", password: "correct horse battery" } },
    { method: "post", path: "/auth/login", body: { email: "new@example.com", password: "wrong password" } },
    { method: "post", path: "/auth/login", body: {} },
  ],
  "/oracle/value/{id}": [
    { method: "get", path: `/oracle/value/${KSM}` },
    { method: "get", path: `/oracle/value/${ZERO}` }, // its price expired: PRICE_UNAVAILABLE
    { method: "get", path: `/oracle/value/${LONELY}` }, // never priced: PRICE_UNAVAILABLE
    { method: "get", path: "/oracle/value/999" },
    { method: "get", path: "/oracle/value/x" },
  ],
  "/assets/metadata/{id}": [
    { method: "get", path: `/assets/metadata/${USDT}`, auth: true },
    { method: "get", path: `/assets/metadata/${KSM}`, auth: true },
    { method: "get", path: `/assets/metadata/${ZERO}`, auth: true }, // its price expired: treasuryValue "0" (a string, as the spec types it), valueUsd null
    { method: "get", path: "/assets/metadata/999", auth: true },
    { method: "get", path: `/assets/metadata/${USDT}` },
  ],
  "/assets/holders/{id}": [
    { method: "get", path: `/assets/holders/${TEN}?limit=2`, auth: true },
    { method: "get", path: `/assets/holders/${KSM}`, auth: true }, // native: free, reserved, frozen, transferable
    { method: "get", path: `/assets/holders/${TEN}?page=9`, auth: true },
    { method: "get", path: `/assets/holders/${TEN}?limit=0`, auth: true },
    { method: "get", path: `/assets/holders/${TEN}` },
  ],
  "/pool/stats": [{ method: "get", path: "/pool/stats" }],
  "/pool/stats/{tokenA}/{tokenB}": [
    { method: "get", path: `/pool/stats/KSM/${USDT}` },
    { method: "get", path: `/pool/stats/ZERO/KSM` },
    { method: "get", path: "/pool/stats/dup/KSM" },
    { method: "get", path: "/pool/stats/LONE/KSM" },
    { method: "get", path: "/pool/stats/NOPE/KSM" },
  ],
  "/health": [{ method: "get", path: "/health" }],
  "/assets": [
    { method: "get", path: "/assets" },
    { method: "get", path: "/assets?sort=valueUsd&limit=2&page=2" },
    { method: "get", path: "/assets?sort=price" },
  ],
  "/pools": [
    { method: "get", path: "/pools?sort=volume24h&order=asc" },
    { method: "get", path: "/pools?limit=0" },
  ],
  "/accounts/{address}": [
    { method: "get", path: `/accounts/${ALICE}`, auth: true },
    { method: "get", path: `/accounts/${DAVE}`, auth: true }, // native parts beside asset status
    // ALICE's account id in hex, and TREASURY (the dev Alice key) in the generic prefix.
    { method: "get", path: "/accounts/0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3", auth: true },
    { method: "get", path: "/accounts/5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", auth: true },
    { method: "get", path: "/accounts/not-an-address", auth: true },
    { method: "get", path: `/accounts/${ALICE}` },
  ],
  "/accounts/{address}/transfers": [
    { method: "get", path: `/accounts/${ALICE}/transfers?limit=1`, auth: true }, // a page and a cursor
    { method: "get", path: `/accounts/${ALICE}/transfers?direction=in&kind=mint`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/transfers?fromBlock=9&toBlock=8`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/transfers` },
  ],
  "/accounts/{address}/balances/{id}": [
    { method: "get", path: `/accounts/${ALICE}/balances/${USDT}`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/balances/${USDT}?at=1`, auth: true }, // before the history floor
    { method: "get", path: `/accounts/${ALICE}/balances/${USDT}?at=99999`, auth: true }, // not indexed yet
    { method: "get", path: `/accounts/${ALICE}/balances/999`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/balances/${USDT}?at=x`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/balances/${USDT}` },
  ],
  "/accounts/{address}/lp-balances/{lpTokenId}": [
    { method: "get", path: `/accounts/${ALICE}/lp-balances/1`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/lp-balances/1?atTime=1`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/lp-balances/999`, auth: true },
  ],
  "/accounts/{address}/swaps": [
    { method: "get", path: `/accounts/${ALICE}/swaps?limit=1`, auth: true },
    { method: "get", path: `/accounts/${ALICE}/swaps?cursor=bm9wZQ`, auth: true },
  ],
  "/assets/{id}/transfers": [
    { method: "get", path: `/assets/${USDT}/transfers`, auth: true },
    { method: "get", path: "/assets/999/transfers", auth: true },
    { method: "get", path: `/assets/${USDT}/transfers?cursor=bm9wZQ`, auth: true },
  ],
  "/assets/lp/{lpTokenId}/transfers": [
    { method: "get", path: "/assets/lp/1/transfers?limit=1", auth: true },
    { method: "get", path: "/assets/lp/999/transfers", auth: true },
    { method: "get", path: "/assets/lp/1/transfers?fromTime=9&toTime=8", auth: true },
  ],
  "/pools/{tokenA}/{tokenB}/swaps": [
    { method: "get", path: `/pools/KSM/${USDT}/swaps?limit=2` },
    { method: "get", path: `/pools/${USDT}/KSM/swaps?cursor=bm9wZQ` },
    { method: "get", path: "/pools/LONE/KSM/swaps" },
  ],
  "/pools/{tokenA}/{tokenB}/ohlcv": [
    { method: "get", path: `/pools/KSM/${USDT}/ohlcv?interval=1h` },
    { method: "get", path: `/pools/${USDT}/KSM/ohlcv?interval=1d&from=0` },
    { method: "get", path: `/pools/KSM/${USDT}/ohlcv?interval=7m` },
    { method: "get", path: "/pools/NOPE/KSM/ohlcv" },
  ],
  "/assets/{id}/history": [
    { method: "get", path: `/assets/${TEN}/history?interval=4h`, auth: true },
    { method: "get", path: "/assets/999/history", auth: true },
    { method: "get", path: `/assets/${TEN}/history` },
  ],
  "/oracle/values": [
    { method: "get", path: `/oracle/values?ids=${KSM},${USDT},${ZERO},999` }, // a value each, or the error /oracle/value/{id} answers
    { method: "get", path: "/oracle/values?ids=1,1" },
  ],
  "/dexscreener/latest-block": [{ method: "get", path: "/dexscreener/latest-block" }],
  "/dexscreener/asset": [
    { method: "get", path: `/dexscreener/asset?id=${USDT}` },
    { method: "get", path: "/dexscreener/asset?id=999" },
    { method: "get", path: "/dexscreener/asset" },
  ],
  "/dexscreener/pair": [
    { method: "get", path: `/dexscreener/pair?id=${KSM}-${USDT}` },
    { method: "get", path: `/dexscreener/pair?id=${USDT}-${KSM}` },
    { method: "get", path: "/dexscreener/pair?id=x" },
  ],
  "/dexscreener/events": [
    { method: "get", path: `/dexscreener/events?fromBlock=1001&toBlock=${HEAD_BLOCK}` },
    { method: "get", path: `/dexscreener/events?fromBlock=${HEAD_BLOCK}&toBlock=${HEAD_BLOCK + 1}` },
    { method: "get", path: "/dexscreener/events?fromBlock=1&toBlock=5000" },
  ],
  "/oracle/history/{id}": [
    { method: "get", path: `/oracle/history/${KSM}` },
    { method: "get", path: `/oracle/history/${KSM}?interval=5` },
    { method: "get", path: `/oracle/history/${ZERO}` }, // expired: null points naming the expiry block
    { method: "get", path: "/oracle/history/999" },
  ],
};

describeDb("OpenAPI conformance", (ctx) => {
  it("every documented route answers as documented, on success and on error", async () => {
    await seedMarket(ctx.db);
    // Alice sends USDt, receives minted LP tokens: every field of a transfer, null and not.
    const moved = { extrinsicIndex: 1, timestamp: 1_700_000_000, amount: "1000000", valueUsd: "1" };
    await insertTransfers(ctx.db, [
      { ...moved, blockNumber: 5, eventIndex: 1, tokenId: USDT, lpTokenId: null, fromAccount: ALICE, toAccount: DAVE, kind: "transfer", event: "assets.Transferred" },
      { ...moved, blockNumber: 6, eventIndex: 2, extrinsicIndex: null, tokenId: null, lpTokenId: 1, fromAccount: null, toAccount: ALICE, kind: "mint", event: "poolAssets.Issued", valueUsd: null },
    ]);
    // A finished holder snapshot and one that is queued (its job never runs here).
    const runner = await startSnapshotRunner(ctx.db, createLogger("silent"));
    const done = (await requestSnapshot(ctx.db, USDT, HEAD_BLOCK, null)).snapshot.id;
    await runSnapshot(ctx.db, done);
    const queued = (await requestSnapshot(ctx.db, TEN, HEAD_BLOCK, null)).snapshot.id;
    cases["/snapshots"] = [
      { method: "post", path: "/snapshots", body: { tokenId: USDT }, auth: true }, // the finished one: 200
      { method: "post", path: "/snapshots", body: { tokenId: KSM }, auth: true }, // a new one: 202
      { method: "post", path: "/snapshots", body: { tokenId: 999 }, auth: true },
      { method: "post", path: "/snapshots", body: { tokenId: USDT, block: 1 }, auth: true },
      { method: "post", path: "/snapshots", body: { tokenId: "x" }, auth: true },
      { method: "post", path: "/snapshots", body: { tokenId: USDT } },
    ];
    cases["/snapshots/{id}"] = [
      { method: "get", path: `/snapshots/${done}`, auth: true },
      { method: "get", path: "/snapshots/987654", auth: true },
    ];
    cases["/snapshots/{id}/holders"] = [
      { method: "get", path: `/snapshots/${done}/holders?limit=2`, auth: true },
      { method: "get", path: `/snapshots/${queued}/holders`, auth: true },
      { method: "get", path: `/snapshots/${done}/holders?cursor=x`, auth: true },
    ];
    cases["/snapshots/{id}/holders.csv"] = [
      { method: "get", path: `/snapshots/${done}/holders.csv`, auth: true },
      { method: "get", path: "/snapshots/987654/holders.csv", auth: true },
    ];
    const t = buildApp(ctx.db, { snapshots: runner });
    const auth = await authHeader(t);
    const doc: any = await (await t.get("/openapi.json")).json();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "openapi", components: doc.components });
    const rewrite = (schema: unknown): unknown =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));

    const documented = Object.keys(doc.paths).sort();
    expect(Object.keys(cases).sort()).toEqual(documented);
    const seen = new Set<string>();
    // The first success answer of each operation and status: the document's examples.
    const examples: Record<string, Record<string, unknown>> = {};
    for (const [route, list] of Object.entries(cases)) {
      for (const c of list) {
        const res = c.method === "post" ? await t.post(c.path, c.body, c.auth ? auth : {}) : await t.get(c.path, c.auth ? auth : {});
        const response = doc.paths[route][c.method]?.responses?.[String(res.status)];
        expect(response, `${c.method.toUpperCase()} ${c.path} answered ${res.status}, which ${route} does not document`).toBeDefined();
        if (res.headers.get("content-type")?.startsWith("text/csv")) {
          // A holder list as CSV: documented so, a header row then one line per holder.
          expect(response.content["text/csv"], `${c.path}: CSV not documented`).toBeDefined();
          expect((await res.text()).split("\n")[0]).toBe("rank,address,balance");
          seen.add(`${route} ${res.status}`);
          continue;
        }
        const schema = response.content?.["application/json"]?.schema;
        expect(res.headers.get("content-type")).toContain("application/json");
        const body = (await res.json()) as any;
        const validate = ajv.compile(rewrite(schema) as object);
        expect(validate(body), `${c.path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
        // The Error schema allows every code: the answered one must be among those the route documents.
        if (res.status >= 400) expect(documentedCodes(response), `${c.path} answered ${body.error.code}`).toContain(body.error.code);
        if (res.status >= 400) seen.add(`${route} ${body.error.code}`);
        seen.add(`${route} ${res.status}`);
        const operation = (examples[doc.paths[route][c.method].operationId] ??= {});
        if (res.status < 300) operation[res.status] ??= example(body);
      }
    }
    // Both successes and errors were exercised.
    expect(new Set([...seen].filter((s) => / 20\d$/.test(s)).map((s) => s.split(" ")[0])).size).toBe(documented.length);
    expect(seen).toContain("/snapshots 202");
    expect([...seen].filter((s) => !/ 20\d$/.test(s)).length).toBeGreaterThanOrEqual(10);
    await runner.close();
    expect(seen).toContain("/oracle/value/{id} PRICE_UNAVAILABLE");
    // The examples the document serves are these answers: a change to an answer must be taken into
    // api/openapi-examples.ts (`npx vitest run test/api/openapi.test.ts -u`), and CI refuses a drift.
    const generated = Object.fromEntries(Object.entries(examples).filter(([, byStatus]) => Object.keys(byStatus).length > 0).sort(([a], [b]) => a.localeCompare(b)));
    await expect(examplesModule(generated)).toMatchFileSnapshot("../../api/openapi-examples.ts");
    expect(doc.paths["/oracle/value/{id}"].get.responses["200"].content["application/json"].example).toEqual(generated.getOracleValue!["200"]);
  });
});

/** api/openapi-examples.ts's text for `examples` (operationId → status → answer). */
function examplesModule(examples: Record<string, Record<string, unknown>>): string {
  return [
    "// The OpenAPI document's example answers (api/app.ts attaches them): the test fixture's real answers,",
    "// written by test/api/openapi.test.ts (`npx vitest run test/api/openapi.test.ts -u`). Do not edit by hand:",
    "// the test fails when an answer and its example differ.",
    `export const OPENAPI_EXAMPLES: Record<string, Record<string, unknown>> = ${JSON.stringify(examples, null, 2)};`,
    "",
  ].join("\n");
}

/**
 * The fields that differ from run to run (a new user's id and token, the times the database
 * stamps a snapshot with), set to one fixed value each so that the examples are stable.
 */
const VOLATILE: Record<string, unknown> = {
  userId: "0b7c5a52-3f0e-4c1a-9d55-2f6a8e1c7b10",
  token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdjNWE1Mi0zZjBlLTRjMWEtOWQ1NS0yZjZhOGUxYzdiMTAiLCJpYXQiOjE3OTUzNDg4MDAsImV4cCI6MTc5NTQzNTIwMH0.signature",
  createdAt: "2026-11-22T12:00:00.000Z",
  finishedAt: "2026-11-22T12:00:01.000Z",
};
/** An answer as the document shows it: volatile fields fixed, and each list cut to its first EXAMPLE_ITEMS items. */
const EXAMPLE_ITEMS = 3;
function example(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ITEMS).map(example);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k in VOLATILE && v !== null ? VOLATILE[k] : example(v)]));
}
