/**
 * Holder snapshots (docs/api.md, "Holder snapshots"): every holder of a token as of a block,
 * computed once by a job (api/snapshot-runner.ts) and kept; ranked pages and a streamed CSV.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Database, Snapshot } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import { MAX_TOKEN_ID, TOKEN_ID_RULE } from "../../shared/ids.js";
import type { SnapshotRunner } from "../snapshot-runner.js";
import { clientMethod, type AppEnv } from "../env.js";
import { acceptsCsv } from "../middleware/cache.js";
import { clientIp } from "../middleware/client-ip.js";
import { COMMON_ERRORS, Decimal, errors, intQuery, Integer, json } from "../schemas.js";
import type { Logger } from "../../shared/logger.js";
import type { ReadBudget } from "../middleware/read-budget.js";
import { csvDownload } from "./csv-download.js";
import type { PaceLimits } from "../services/csv-pace.js";
import type { DownloadSlots } from "../services/download-slots.js";
import { snapshotCsvStream } from "../services/snapshot-csv.js";
import { createSnapshot, finishedSnapshot, snapshotHolderPage, snapshotView, type SnapshotLimits } from "../services/snapshots.js";

const security = [{ bearerAuth: [] }];

const idParam = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "must be a snapshot id (a positive integer below 10^15)")
  .transform(Number)
  .openapi({ param: { name: "id", in: "path" }, example: "1", description: "Snapshot id (POST /snapshots answered it)" });

/** What a snapshot is of: a token, or an LP token (a pool's providers), the other null. */
const subjectFields = {
  tokenId: z.number().int().nullable().openapi({ description: "The token; null for an LP token's snapshot" }),
  lpTokenId: z.number().int().nullable().openapi({ description: "The LP token (PoolAssets id: its holders are the pool's providers); null for a token's snapshot" }),
};

const SnapshotView = z
  .object({
    id: z.number().int(),
    ...subjectFields,
    blockNumber: z.number().int(),
    timestamp: z.number().int().nullable().openapi({ description: "The block's on-chain time (Unix seconds)" }),
    state: z.enum(["queued", "running", "done", "failed"]),
    progress: z.object({
      accountsRead: z.number().int().openapi({ description: "Accounts of the token's balance history read so far" }),
      accountsTotal: z.number().int().nullable().openapi({ description: "Accounts the job reads in all (null until it starts)" }),
      fraction: Decimal.openapi({ description: "accountsRead / accountsTotal, \"1\" when done" }),
    }),
    holders: z.number().int().nullable().openapi({ description: "Accounts with a non-zero balance at the block (when done)" }),
    totalBalance: z.union([Integer, z.null()]).openapi({ description: "The sum of their balances (when done)" }),
    error: z.string().nullable(),
    createdAt: z.string().openapi({ description: "ISO 8601" }),
    finishedAt: z.string().nullable(),
    links: z.object({ holders: z.string(), csv: z.string() }),
  })
  .openapi("HolderSnapshot");

const SnapshotHolder = z
  .object({ rank: z.number().int(), address: z.string(), balance: Integer, share: Decimal.openapi({ description: "balance / totalBalance of the snapshot" }) })
  .openapi("SnapshotHolder");

const SnapshotHolderPage = z
  .object({
    snapshotId: z.number().int(),
    ...subjectFields,
    blockNumber: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalHolders: z.number().int(),
    totalPages: z.number().int(),
    holders: z.array(SnapshotHolder),
    nextCursor: z.string().nullable().openapi({ description: "Pass as ?cursor= for the next page; null on the last page" }),
  })
  .openapi("SnapshotHolderPage");

const create = createRoute({
  method: "post",
  path: "/snapshots",
  operationId: "createSnapshot",
  tags: ["snapshots"],
  summary: "Start a holder snapshot of a token, or of an LP token (a pool's providers), as of a block (or a time, or now); the same token and block give the same snapshot",
  security,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              tokenId: z.number().int().min(0).max(MAX_TOKEN_ID).optional().openapi({ description: `The token: ${TOKEN_ID_RULE} (asset ids, and foreign assets' derived ids). Give this or lpTokenId` }),
              lpTokenId: z.number().int().min(0).max(4_294_967_295).optional().openapi({ description: "Or: an LP token (PoolAssets id, as /pools lists it): its holders at the block are the pool's providers" }),
              block: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().openapi({ description: "The block (default: the newest indexed)" }),
              atTime: z.number().int().min(0).max(99_999_999_999).optional().openapi({ description: "Or: the last block at or before this time (Unix seconds)" }),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    200: json(SnapshotView, "The snapshot of this token and block exists and is done"),
    202: json(SnapshotView, "Queued or being computed: poll GET /snapshots/{id}"),
    ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", "BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY", "TOO_MANY_SNAPSHOTS", "SNAPSHOT_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: "get",
  path: "/snapshots/{id}",
  operationId: "getSnapshot",
  tags: ["snapshots"],
  summary: "A holder snapshot's state and progress",
  security,
  request: { params: z.object({ id: idParam }) },
  responses: { 200: json(SnapshotView, "The snapshot"), ...errors("SNAPSHOT_NOT_FOUND", ...COMMON_ERRORS) },
});

const pageQuery = z.object({
  page: intQuery("page", 1, 10_000_000, "Page number, from 1 (default 1)"),
  limit: intQuery("limit", 1, 1000, "Holders per page, 1-1000 (default 50)"),
  cursor: z.string().max(64, "must be at most 64 characters").optional().openapi({ param: { name: "cursor", in: "query" }, description: "nextCursor of the previous page; replaces page" }),
});

const CSV = { "text/csv": { schema: z.string().openapi({ example: "rank,address,balance\n1,HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F,1000000\n" }) } };

/** What a CSV download announces before its first byte, so that one cut short is told from a whole one (docs/api.md, "CSV downloads"). */
export const CSV_RESPONSE_HEADERS = {
  "X-Row-Count": { description: "CSV only: the data rows the file holds (holders; the header line not counted). A file with fewer lines after its header is incomplete.", schema: { type: "string" as const, pattern: "^[0-9]+$" } },
  "Content-Length": { description: "CSV only: the file's exact size in bytes. A download that ends short of it was cut (the connection is closed before, never ended cleanly).", schema: { type: "string" as const, pattern: "^[0-9]+$" } },
  "X-Block-Number": { description: "CSV only: the block the list is exact at.", schema: { type: "string" as const, pattern: "^[0-9]+$" } },
  "Content-Disposition": { description: "CSV only: the file's name, its token and block (holders-{tokenId}-at-{block}.csv; an LP token's snapshot: lp-holders-{lpTokenId}-at-{block}.csv)", schema: { type: "string" as const, example: 'attachment; filename="holders-1984-at-9000000.csv"' } },
};

const holders = createRoute({
  method: "get",
  path: "/snapshots/{id}/holders",
  operationId: "listSnapshotHolders",
  tags: ["snapshots"],
  summary: "A finished snapshot's holders by balance, descending (pages; the whole list as CSV with Accept: text/csv)",
  security,
  request: { params: z.object({ id: idParam }), query: pageQuery },
  responses: {
    200: { content: { ...json(SnapshotHolderPage, "").content, ...CSV }, headers: CSV_RESPONSE_HEADERS, description: "One page of holders (JSON), or every holder (CSV: rank,address,balance; streamed; X-Row-Count and Content-Length say how much)" },
    ...errors("SNAPSHOT_NOT_FOUND", "SNAPSHOT_NOT_READY", ...COMMON_ERRORS),
  },
});

const csv = createRoute({
  method: "get",
  path: "/snapshots/{id}/holders.csv",
  operationId: "getSnapshotHoldersCsv",
  tags: ["snapshots"],
  summary: "Every holder of a finished snapshot as CSV (rank,address,balance), streamed",
  security,
  request: { params: z.object({ id: idParam }) },
  responses: { 200: { content: CSV, headers: CSV_RESPONSE_HEADERS, description: "rank,address,balance; exact integers in smallest units; X-Row-Count and Content-Length say how much (a download that ends short of them was cut: use curl --fail and check its exit code)" }, ...errors("SNAPSHOT_NOT_FOUND", "SNAPSHOT_NOT_READY", ...COMMON_ERRORS) },
});

/** Whether the client asked for CSV (one rule for the routes, the cache and the read snapshot). */
export const wantsCsv = acceptsCsv;

export interface SnapshotDeps {
  /** The primary: snapshots are written here (never a read replica). */
  db: Database;
  runner: SnapshotRunner | undefined;
  /** Snapshot jobs: unfinished at once (in all, per user, per client key, per IPv6 /48) and rows per day (SNAPSHOT_LIMITS). */
  limits: SnapshotLimits;
  /** CSV downloads: their places, their minimum rate, and the read budget their batches go through. */
  csv: { slots: DownloadSlots; pace: PaceLimits; reads?: ReadBudget | undefined };
  trustProxy: number;
  logger: Logger;
}

/**
 * A snapshot's CSV says what it is — token and block in the file name and in headers — and how
 * much of it there is: X-Row-Count (holders: lines after the header line) and Content-Length (set
 * when the job finished it, db/queries/snapshot-rank.ts), so a download cut short is told from a
 * whole one. HEAD too. Content-Length is left out only for a row marked done without its size
 * (none the job or migration 0019 wrote); the answer is then chunked, and a cut one has no last chunk.
 */
const csvHeaders = (s: Snapshot): Record<string, string> => ({
  "Content-Type": "text/csv; charset=utf-8",
  "Content-Disposition": `attachment; filename="${s.lp ? "lp-holders" : "holders"}-${s.tokenId}-at-${s.blockNumber}.csv"`,
  "Cache-Control": "no-store",
  "X-Snapshot-Id": String(s.id),
  [s.lp ? "X-Lp-Token-Id" : "X-Token-Id"]: String(s.tokenId),
  "X-Block-Number": String(s.blockNumber),
  "X-Row-Count": String(s.holders ?? 0),
  ...(s.csvBytes === null ? {} : { "Content-Length": String(s.csvBytes) }),
});

export function snapshotRoutes(deps: SnapshotDeps) {
  const streamCsv = async (c: Context<AppEnv>, id: number) => {
    // HEAD: the headers a GET would have, without a place or reading the list.
    if (clientMethod(c) === "HEAD") {
      return c.body(null, 200, csvHeaders(await finishedSnapshot(deps.db, id)));
    }
    return csvDownload(c, { slots: deps.csv.slots, trustProxy: deps.trustProxy, logger: deps.logger }, { snapshot: id }, async (key, hooks) => {
      const s = await finishedSnapshot(deps.db, id);
      const body = snapshotCsvStream(deps.db, id, s.holders ?? 0, { pace: deps.csv.pace, reads: deps.csv.reads && { budget: deps.csv.reads, key }, hooks, bytes: s.csvBytes ?? undefined });
      return { body, headers: csvHeaders(s) };
    });
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(create, async (c) => {
      const body = c.req.valid("json");
      const view = await createSnapshot(deps.db, deps.runner, { ...body, userId: c.get("userId")!, clientKey: clientIp(c, deps.trustProxy) }, deps.limits);
      return c.json(view, view.state === "done" ? 200 : 202);
    })
    .openapi(show, async (c) => c.json(await snapshotView(deps.db, c.req.valid("param").id), 200))
    .openapi(holders, async (c) => {
      const { id } = c.req.valid("param");
      const { page, limit, cursor } = c.req.valid("query");
      if (wantsCsv(c.req.header("accept"))) {
        if (page !== undefined || limit !== undefined || cursor !== undefined) throw new AppError("VALIDATION_ERROR", "page, limit and cursor do not apply to the CSV: it is the whole list.");
        return (await streamCsv(c, id)) as never;
      }
      if (page !== undefined && cursor !== undefined) throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": send either page or cursor, not both.');
      return c.json(await snapshotHolderPage(deps.db, id, { page, limit: limit ?? 50, cursor }), 200);
    })
    .openapi(csv, async (c) => (await streamCsv(c, c.req.valid("param").id)) as never);
}
