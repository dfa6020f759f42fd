import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import type { AppEnv } from "../env.js";
import { AsOf, asOfQuery, BalanceParts, COMMON_ERRORS, Decimal, errors, intQuery, Integer, json, tokenIdParam, TokenIdentity } from "../schemas.js";
import { assetMetadata, tokenHolders } from "../services/tokens.js";
import { getToken, latestBlock } from "../../db/index.js";
import type { Logger } from "../../shared/logger.js";
import { clientMethod } from "../env.js";
import { csvDownload } from "./csv-download.js";
import type { PaceLimits } from "../services/csv-pace.js";
import type { DownloadSlots } from "../services/download-slots.js";
import type { HolderCsvFiles } from "../services/holder-csv-files.js";
import { currentHoldersCsv } from "../services/holders-csv.js";
import { CSV_RESPONSE_HEADERS, wantsCsv } from "./snapshots.js";

const security = [{ bearerAuth: [] }];
const READ_ERRORS = ["VALIDATION_ERROR", "UNAUTHORIZED", "TOKEN_NOT_FOUND", ...COMMON_ERRORS] as const;

const AssetMetadata = z
  .object({
    tokenId: z.number().int(),
    name: z.string(),
    symbol: z.string(),
    ...TokenIdentity,
    totalSupply: Integer,
    treasuryValue: Decimal.openapi({ description: "USD value of the owner (treasury) account's balance: \"0\" without an owner, and \"0\" when the token has no current USD price (valueUsd null says so)" }),
    valueUsd: z.union([Decimal, z.null()]).openapi({ description: "USD per whole token, the price treasuryValue is at (with at/atTime: the price then); null when the token has no current USD price, and then treasuryValue is \"0\"" }),
    decimals: z.number().int(),
    owner: z.string().nullable().openapi({ description: "SS58 address of the owner account; null for the native token" }),
    status: z.enum(["live", "frozen", "destroying"]),
    blockNumber: z.number().int().openapi({ description: "The block these values were read at (with at/atTime: the newest at or before asOf)" }),
    asOf: AsOf.optional().openapi({ description: "With at or atTime only: the block the answer is exact at" }),
  })
  .openapi("AssetMetadata");

const Holder = z
  .object({
    rank: z.number().int(),
    address: z.string(),
    balance: Integer.openapi({ description: "What the holders are ranked by: native token free + reserved, an asset's balance" }),
    share: Decimal.openapi({ description: "balance / totalSupply" }),
    ...BalanceParts,
  })
  .openapi("Holder");

const HolderPage = z
  .object({
    tokenId: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalHolders: z.number().int(),
    totalPages: z.number().int(),
    holders: z.array(Holder),
    nextCursor: z.string().nullable().openapi({ description: "Pass as ?cursor= for the next page; null on the last page" }),
  })
  .openapi("HolderPage");

const metadata = createRoute({
  method: "get",
  path: "/assets/metadata/{id}",
  operationId: "getAssetMetadata",
  tags: ["assets"],
  summary: "Token metadata, supply and treasury value; now, or as of a block (?at=) or a time (?atTime=)",
  security,
  request: { params: z.object({ id: tokenIdParam("id") }), query: z.object(asOfQuery) },
  responses: { 200: json(AssetMetadata, "Token metadata"), ...errors(...READ_ERRORS, "BLOCK_NOT_INDEXED", "BLOCK_BEFORE_HISTORY") },
});

const holders = createRoute({
  method: "get",
  path: "/assets/holders/{id}",
  operationId: "listAssetHolders",
  tags: ["assets"],
  summary: "Holders by balance, descending (page/limit, or keyset cursor for deep pages)",
  security,
  request: {
    params: z.object({ id: tokenIdParam("id") }),
    query: z.object({
      page: intQuery("page", 1, 10_000_000, "Page number, from 1 (default 1)"),
      limit: intQuery("limit", 1, 1000, "Holders per page, 1-1000 (default 50)"),
      cursor: z.string().max(512, "must be at most 512 characters").optional().openapi({
        param: { name: "cursor", in: "query" },
        description: "nextCursor of the previous page; replaces page",
      }),
    }),
  },
  responses: {
    200: {
      content: { ...json(HolderPage, "").content, "text/csv": { schema: z.string().openapi({ example: "rank,address,balance\n1,HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F,1000000\n" }) } },
      headers: CSV_RESPONSE_HEADERS,
      description: "One page of holders (JSON); with Accept: text/csv every holder at the newest block (rank,address,balance; streamed; X-Block-Number names the block; X-Row-Count and Content-Length say how much: a download that ends short of them was cut)",
    },
    ...errors(...READ_ERRORS),
  },
});

export interface AssetRouteDeps {
  db: Database;
  /** The store itself (not the per-request snapshot): a CSV's list is dumped in its own transaction. */
  store: Database;
  currentCsv: { slots: DownloadSlots; files: HolderCsvFiles; pace: PaceLimits };
  trustProxy: number;
  logger: Logger;
}

export function assetRoutes(deps: AssetRouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(metadata, async (c) => c.json(await assetMetadata(deps.db, c.req.valid("param").id, c.req.valid("query")), 200))
    .openapi(holders, async (c) => {
      const { page, limit, cursor } = c.req.valid("query");
      if (wantsCsv(c.req.header("accept"))) {
        if (page !== undefined || limit !== undefined || cursor !== undefined) {
          throw new AppError("VALIDATION_ERROR", "page, limit and cursor do not apply to the CSV: it is the whole list.");
        }
        const id = c.req.valid("param").id;
        // The file is named by its block, as a snapshot's is (holders-{id}-at-{block}.csv): two downloads at two blocks are two files.
        const headers = (block: number | undefined) => ({
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="holders-${id}${block === undefined ? "" : `-at-${block}`}.csv"`,
          "Cache-Control": "no-store",
          ...(block === undefined ? {} : { "X-Block-Number": String(block) }),
        });
        if (clientMethod(c) === "HEAD") {
          // No place: nothing is read but the token and the newest block (the one a GET now would read).
          const [token, head] = await Promise.all([getToken(deps.store, id), latestBlock(deps.store)]);
          if (!token) throw new AppError("TOKEN_NOT_FOUND", `Token ${id} was not found.`);
          return c.body(null, 200, headers(head?.number)) as never;
        }
        return (await csvDownload(c, { slots: deps.currentCsv.slots, trustProxy: deps.trustProxy, logger: deps.logger }, { tokenId: id }, async (_key, hooks) => {
          const csv = await currentHoldersCsv(deps.currentCsv.files, id, { pace: deps.currentCsv.pace, hooks });
          return { body: csv.body, headers: { ...headers(csv.block), "Content-Length": String(csv.bytes), "X-Row-Count": String(csv.rows) } };
        })) as never;
      }
      if (page !== undefined && cursor !== undefined) {
        throw new AppError("VALIDATION_ERROR", 'Invalid query parameter "cursor": send either page or cursor, not both.');
      }
      return c.json(await tokenHolders(deps.db, c.req.valid("param").id, { page, limit: limit ?? 50, cursor }), 200);
    });
}
