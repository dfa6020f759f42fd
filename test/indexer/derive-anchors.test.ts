import { expect, it } from "vitest";
import type { TokenDirectory } from "../../indexer/chain/directory.js";
import { Deriver } from "../../indexer/derive.js";
import { oracleSettings } from "../../indexer/service.js";
import { loadConfig } from "../../shared/config.js";
import { captureLog } from "../support/log.js";

it("the chain's USD anchors are said once by the follower, not by every deriver (a backfill makes one a chunk)", () => {
  const log = captureLog("info");
  const chain = { identity: { genesisHash: `0x${"45".repeat(32)}`, specName: "statemine" }, nativeTokenId: 0, directory: {} as TokenDirectory };
  const options = { oracle: oracleSettings(loadConfig({})), logger: log.logger };
  for (let chunk = 0; chunk < 3; chunk++) new Deriver(chain, options);
  expect(log.records()).toEqual([]);
  new Deriver(chain, options).announceAnchors();
  expect(log.records().map((l) => [l.msg, l.chain])).toEqual([["oracle: USD anchors of this chain", "Kusama Asset Hub"]]);
});
