/**
 * What the indexer keeps of real-chain data in the store, so that a restart, a hostile asset or a
 * bad runtime cannot stall it: foreign token locations outlive their token rows, metadata with a
 * NUL byte is storable, and any number of skipped events fits one batch.
 */
import { expect, it } from "vitest";
import { allForeignLocations, countSkippedEvents, getToken, latestSkippedEvents, replaceSkippedEvents, upsertTokens } from "../../db/index.js";
import { TokenDirectory } from "../../indexer/chain/directory.js";
import { locationJsonToken } from "../../indexer/chain/locations.js";
import { Market } from "../../indexer/market.js";
import { Batch } from "../../indexer/writer.js";
import { describeDb } from "../support/db.js";
import { LOCATIONS } from "../support/runtimes.js";

const oracle = { nativeTokenId: 0, stablecoins: undefined, minLiquidityUsd: 0n };

describeDb("the indexer's store", (ctx) => {
  it("keeps a foreign token's location after the token is destroyed, and a restart reads it back", async () => {
    const { id, token } = locationJsonToken(LOCATIONS.snowbridgeUsdc, 0);
    const learned = new TokenDirectory(0);
    expect(learned.set(id, token)).toBe(true);
    const batch = new Batch();
    batch.token({ id, name: "USDC", symbol: "USDC", decimals: 6, supply: "1", kind: "foreign", location: (token as { location: unknown }).location, blockNumber: 5 });
    for (const [tokenId, key] of learned.drainLearned()) batch.foreignLocations.push({ tokenId, locationKey: key.key, location: key.location, blockNumber: 5 });
    batch.blocks.push({ number: 5, hash: "0x05", timestamp: 60 });
    await batch.commit(ctx.db, { blockNumber: 5, blockHash: "0x05", chainFinalized: 5 });
    expect(learned.drainLearned().size).toBe(0); // drained once

    const later = new Batch(); // destroyed, while a pool may still name it
    later.destroy(id, 6);
    later.blocks.push({ number: 6, hash: "0x06", timestamp: 72 });
    await later.commit(ctx.db, { blockNumber: 6, blockHash: "0x06", chainFinalized: 6 });
    expect(await getToken(ctx.db, id)).toBeUndefined();

    const restarted = new TokenDirectory(0);
    expect(restarted.key(id)).toBeUndefined();
    await Market.load(ctx.db, oracle, { ids: [], symbols: [] }, restarted);
    expect(restarted.key(id)).toEqual(token);
    expect(restarted.drainLearned().size).toBe(0); // read from the store, not news
    expect(await allForeignLocations(ctx.db)).toHaveLength(1);
  });

  it("refuses a second location with the same derived id instead of merging the two", () => {
    const directory = new TokenDirectory(0);
    const a = locationJsonToken(LOCATIONS.ksm, 0);
    expect(directory.set(a.id, a.token)).toBe(true);
    expect(directory.set(a.id, { kind: "foreign", key: "0x0201090100", location: {} })).toBe(false);
    expect(directory.key(a.id)).toEqual(a.token);
    expect(directory.set(a.id, a.token)).toBe(true); // the same location again is fine
  });

  it("stores asset metadata with a NUL byte in it (any bytes the asset's owner chose) without failing the batch: the NUL, which Postgres text cannot hold, is dropped and the rest kept", async () => {
    await upsertTokens(ctx.db, [{ id: 66, name: "Evil\u0000Coin", symbol: "E\u0000", decimals: 0, supply: "1", blockNumber: 1 }]);
    expect(await getToken(ctx.db, 66)).toMatchObject({ name: "EvilCoin", symbol: "E" });
  });

  it("records a skipped event whose name holds a NUL byte (a runtime's metadata names its events) without failing the batch: the NUL is dropped", async () => {
    await replaceSkippedEvents(ctx.db, [], [{ blockNumber: 3, eventIndex: 0, event: "assets.Evil\u0000", reason: "assetId is not a u32\u0000" }]);
    expect(await latestSkippedEvents(ctx.db, 1)).toMatchObject([{ blockNumber: 3, event: "assets.Evil", reason: "assetId is not a u32" }]);
  });

  it("commits a batch with 20,000 skipped events, and /health's count stops at 10,000", async () => {
    const batch = new Batch();
    for (let b = 1; b <= 2; b++) {
      batch.blocks.push({ number: b, hash: `0x0${b}`, timestamp: 12 * b });
      for (let i = 0; i < 10_000; i++) batch.skipped.push({ blockNumber: b, eventIndex: i, event: "assets.Issued", reason: "assetId is not a u32" });
    }
    await batch.commitHistory(ctx.db);
    expect(await countSkippedEvents(ctx.db)).toBe(10_000);
    expect(await countSkippedEvents(ctx.db, 50_000)).toBe(20_000);
    // Indexing the blocks again, cleanly, clears them.
    const again = new Batch();
    again.blocks.push({ number: 1, hash: "0x01", timestamp: 12 }, { number: 2, hash: "0x02", timestamp: 24 });
    await again.commitHistory(ctx.db);
    expect(await countSkippedEvents(ctx.db)).toBe(0);
  });
});
