import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { afterAll, describe, expect, it, vi } from "vitest";
import { devKeyring } from "../../indexer/devnet/accounts.js";
import { startDevnet, type Devnet } from "../../indexer/devnet/chopsticks.js";
import { createSubmitter } from "../../indexer/devnet/submitter.js";
import { loadConfig } from "../../shared/config.js";

const genesis = loadConfig().devnetGenesis;

describe(`devnet genesis`, () => {
  let devnet: Devnet | undefined;
  let api: ApiPromise | undefined;

  afterAll(async () => {
    await api?.disconnect();
    await devnet?.close();
  }, 60_000);

  it("starts a usable chain even when a 12 s slot boundary falls inside the first block build", async () => {
    // chopsticks reads the wall clock several times while building block 1 from a raw genesis.
    // A clock that jumps a second per read makes the reads straddle a slot boundary every time,
    // which is what happens by chance on a slow machine (the CI failure this guards against).
    const realNow = Date.now.bind(Date);
    const start = Math.floor(realNow() / 12_000) * 12_000 - 1;
    let reads = 0;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => start + 1_000 * reads++);
    try {
      devnet = await startDevnet({ genesis, port: 0 });
    } finally {
      clock.mockRestore();
    }
    expect(reads).toBeGreaterThan(2);
    api = await ApiPromise.create({ provider: new WsProvider(devnet.wsUrl), noInitWarn: true });
    expect((await api.rpc.chain.getHeader()).number.toNumber()).toBeGreaterThanOrEqual(1);

    const { dev } = await devKeyring(0, api.registry.chainSS58 ?? 42);
    const included = await createSubmitter(api, dev.Alice).send(api.tx.system.remark("0x01"), "remark");
    const block = await api.rpc.chain.getHeader(included.blockHash);
    expect(block.number.toNumber()).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
