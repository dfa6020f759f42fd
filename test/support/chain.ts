/**
 * Chain storage at one block, read independently of the indexer's reader (full-state entries
 * and the assetConversionApi runtime call), in the same shape as the database, so a test can
 * demand that the two be equal. Token ids are worked out here too, from the storage keys: an
 * asset's id (2^32 for the one with the native id), a foreign asset's from the blake2 hash of
 * its location's bytes as the chain stores them.
 */
import "@polkadot/api-augment/assetHubKusama";
import type { ApiPromise } from "@polkadot/api";
import type { Codec } from "@polkadot/types/types";
import { u8aToBigInt, u8aToString } from "@polkadot/util";
import { blake2AsU8a, encodeAddress } from "@polkadot/util-crypto";
import { asc, sql } from "drizzle-orm";
import { schema, type Database } from "../../db/index.js";

export interface Snapshot {
  tokens: Record<string, { name: string; symbol: string; decimals: number; supply: string; owner: string | null; status: string; kind: string; assetId: number | null }>;
  holders: Record<string, string>;
  pools: Record<string, { reserve0: string; reserve1: string; lpSupply: string; lpTokenId: number }>;
  /** LP token balances (positions), "lpTokenId|address". */
  lpHolders: Record<string, string>;
}

/** 2^32 + 1 + (first 8 bytes of blake2_256(location bytes), little-endian) mod (2^53 − 2^32 − 1). */
export function foreignId(location: Codec): number {
  const h = u8aToBigInt(blake2AsU8a(location.toU8a(), 256).subarray(0, 8), { isLe: true });
  const min = 2n ** 32n + 1n;
  return Number(min + (h % (2n ** 53n - 1n - min + 1n)));
}

export function tokenIdOfLocation(location: Codec, nativeTokenId: number): number {
  const l = location.toPrimitive() as { parents: number; interior: Record<string, any> };
  if (l.parents === 1 && "here" in l.interior) return nativeTokenId;
  const x2 = l.interior.x2 as [Record<string, unknown>, Record<string, unknown>] | undefined;
  if (l.parents === 0 && x2?.[0]?.palletInstance === 50 && x2[1]?.generalIndex !== undefined) return assetTokenId(Number(x2[1].generalIndex), nativeTokenId);
  return foreignId(location);
}

const assetTokenId = (assetId: number, nativeTokenId: number) => (assetId === nativeTokenId ? 2 ** 32 : assetId);

export async function chainSnapshot(api: ApiPromise, hash: string, nativeTokenId = 0): Promise<Snapshot> {
  const at = await api.at(hash);
  const ss58 = api.registry.chainSS58 ?? 42;
  const snap: Snapshot = { tokens: {}, holders: {}, pools: {}, lpHolders: {} };
  const props = api.registry.getChainProperties()!;
  const symbol = props.tokenSymbol.unwrap()[0]!.toString();
  snap.tokens[nativeTokenId] = { name: symbol, symbol, decimals: props.tokenDecimals.unwrap()[0]!.toNumber(), supply: (await at.query.balances.totalIssuance()).toString(), owner: null, status: "live", kind: "native", assetId: null };
  const pallets = [{ query: at.query.assets, kind: "asset" }, ...(at.query.foreignAssets ? [{ query: at.query.foreignAssets, kind: "foreign" }] : [])] as { query: any; kind: string }[];
  for (const { query, kind } of pallets) {
    const idOf = (key: any): number => (kind === "asset" ? assetTokenId(Number(key.toString()), nativeTokenId) : foreignId(key));
    const metadata = new Map<number, any>((await query.metadata.entries()).map(([k, m]: [any, any]) => [idOf(k.args[0]), m]));
    for (const [key, value] of await query.asset.entries()) {
      const d = (value as any).unwrap();
      const id = idOf(key.args[0]);
      const m = metadata.get(id);
      snap.tokens[id] = {
        name: m ? u8aToString(m.name.toU8a(true)) : "",
        symbol: m ? u8aToString(m.symbol.toU8a(true)) : "",
        decimals: m ? m.decimals.toNumber() : 0,
        supply: d.supply.toString(),
        owner: encodeAddress(d.owner, ss58),
        status: d.status ? d.status.type.toLowerCase() : d.isFrozen.isTrue ? "frozen" : "live", // isFrozen: older runtimes
        kind,
        assetId: kind === "asset" ? Number(key.args[0].toString()) : null,
      };
    }
    for (const [key, value] of await query.account.entries()) {
      const balance = (value as any).unwrap().balance.toString();
      if (balance !== "0") snap.holders[`${idOf(key.args[0])}|${encodeAddress(key.args[1], ss58)}`] = balance;
    }
  }
  for (const [key, value] of await at.query.system.account.entries()) {
    const total = BigInt((value as any).data.free.toString()) + BigInt((value as any).data.reserved.toString());
    if (total > 0n) snap.holders[`${nativeTokenId}|${encodeAddress(key.args[0], ss58)}`] = total.toString();
  }
  for (const [key, value] of at.query.poolAssets ? await at.query.poolAssets.account.entries() : []) {
    const balance = (value as any).unwrap().balance.toString();
    if (balance !== "0") snap.lpHolders[`${Number(key.args[0].toString())}|${encodeAddress(key.args[1], ss58)}`] = balance;
  }
  // Older runtimes (the Rococo fallback devnet) have no asset conversion: no pools.
  for (const [key, value] of at.query.assetConversion ? await at.query.assetConversion.pools.entries() : []) {
    const [l0, l1] = key.args[0] as any;
    const lpToken = Number((value as any).unwrap().lpToken.toString());
    const lp = (await at.query.poolAssets.asset(lpToken)) as any;
    const ids = [l0, l1].map((l) => tokenIdOfLocation(l, nativeTokenId));
    const reserves = (await (at.call as any).assetConversionApi.getReserves(l0, l1)) as any;
    let r: [string, string];
    if (reserves.isSome) {
      r = [reserves.unwrap()[0].toString(), reserves.unwrap()[1].toString()];
    } else {
      // The runtime answers None while an asset of the pool is frozen (nothing can leave the
      // pool); the tokens are still there: the pool account's (the LP token owner's) balances.
      const account = lp.unwrap().owner;
      const native = ((await at.query.system.account(account)) as any).data.free.toString();
      const asset = ((await at.query.assets.account(Number(l1.toPrimitive().interior.x2[1].generalIndex), account)) as any).unwrap().balance.toString();
      r = [native, asset];
    }
    snap.pools[ids.join("/")] = { reserve0: r[0], reserve1: r[1], lpSupply: lp.isSome ? lp.unwrap().supply.toString() : "0", lpTokenId: lpToken };
  }
  return snap;
}

export async function dbSnapshot(db: Database): Promise<Snapshot> {
  const snap: Snapshot = { tokens: {}, holders: {}, pools: {}, lpHolders: {} };
  for (const t of await db.select().from(schema.tokens).orderBy(asc(schema.tokens.id))) {
    snap.tokens[t.id] = { name: t.name, symbol: t.symbol, decimals: t.decimals, supply: t.supply, owner: t.owner, status: t.status, kind: t.kind, assetId: t.assetId };
  }
  for (const h of await db.select().from(schema.holders)) snap.holders[`${h.tokenId}|${h.account}`] = h.balance;
  for (const h of await db.select().from(schema.lpHolders)) snap.lpHolders[`${h.lpTokenId}|${h.account}`] = h.balance;
  for (const p of await db.select().from(schema.pools)) {
    snap.pools[`${p.token0Id}/${p.token1Id}`] = { reserve0: p.reserve0, reserve1: p.reserve1, lpSupply: p.lpSupply, lpTokenId: p.lpTokenId };
  }
  return snap;
}

/** Tokens whose holder count (holder_counts) is not the number of their holder rows: none when the store is sound. */
export async function miscountedTokens(db: Database): Promise<string[]> {
  const result = (await db.execute(sql`select coalesce(c.token_id, h.token_id)::text as token_id from holder_counts c
      full join (select token_id, count(*) as n from holders group by token_id) h on h.token_id = c.token_id
      where coalesce(c.holders, 0) <> coalesce(h.n, 0)`)) as unknown as { rows?: { token_id: string }[] } | { token_id: string }[];
  return (Array.isArray(result) ? result : (result.rows ?? [])).map((r) => r.token_id);
}
