/**
 * USD anchors named by symbol (USD_STABLECOINS): anyone can create an asset with any symbol, so a
 * symbol is matched exactly and pinned to the one token that had it when first seen.
 */
import { describe, expect, it } from "vitest";
import { Market, type AnchorNotice } from "../../indexer/market.js";

const oracle = { nativeTokenId: 0, stablecoins: undefined, minLiquidityUsd: 0n };

function market(symbols: string[]) {
  const notices: AnchorNotice[] = [];
  const m = new Market(oracle, { ids: [1337], symbols }, (n) => notices.push(n));
  return { m, notices };
}

describe("USD anchors by symbol", () => {
  it("pins a symbol to the one token that has it, exactly (USDt is not USDT), and keeps it when a copycat appears", () => {
    const { m, notices } = market(["USDt"]);
    m.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    m.setToken({ id: 66, decimals: 6, symbol: "USDT" }); // Snowbridge's, on Polkadot AH: another token
    expect([...m.anchorIds()].sort()).toEqual([1337, 1984]);
    m.setToken({ id: 99, decimals: 6, symbol: "USDt" }); // a copycat, later
    expect([...m.anchorIds()].sort()).toEqual([1337, 1984]);
    expect(notices).toEqual([{ kind: "pinned", symbol: "USDt", id: 1984 }]);
  });

  it("anchors nothing by a symbol several tokens share when first seen, and says so once", () => {
    const { m, notices } = market(["USDC"]);
    m.setToken({ id: 7, decimals: 6, symbol: "USDC" });
    m.setToken({ id: 8, decimals: 6, symbol: "USDC" });
    expect([...m.anchorIds()]).toEqual([1337]);
    expect([...m.anchorIds()]).toEqual([1337]);
    expect(notices).toEqual([{ kind: "ambiguous", symbol: "USDC", ids: [7, 8] }]);
  });

  it("reports a symbol no token has, then pins it when one appears; look-alike letters do not match", () => {
    const { m, notices } = market(["KSM"]);
    m.setToken({ id: 5, decimals: 12, symbol: "\u212ASM" }); // KELVIN SIGN + "SM"
    expect([...m.anchorIds()]).toEqual([1337]);
    m.setToken({ id: 6, decimals: 12, symbol: "KSM" });
    expect([...m.anchorIds()].sort()).toEqual([1337, 6]);
    expect(notices).toEqual([{ kind: "unmatched", symbol: "KSM" }, { kind: "pinned", symbol: "KSM", id: 6 }]);
  });

  it("keeps its pins across a reconnect (a new market on the same settings)", () => {
    const settings = { ...oracle, pins: new Map<string, number>() };
    const first = new Market(settings, { ids: [], symbols: ["USDt"] });
    first.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    expect([...first.anchorIds()]).toEqual([1984]);
    const second = new Market(settings, { ids: [], symbols: ["USDt"] }); // reloaded from the store after a copycat appeared
    second.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    second.setToken({ id: 99, decimals: 6, symbol: "USDt" });
    expect([...second.anchorIds()]).toEqual([1984]);
  });

  it("prices from the pinned anchor only", () => {
    const { m } = market(["USDt"]);
    m.setToken({ id: 0, decimals: 12, symbol: "KSM" });
    m.setToken({ id: 1984, decimals: 6, symbol: "USDt" });
    m.setPool({ token0Id: 0, token1Id: 1984, lpTokenId: 0, account: "a" }, 10n ** 15n, 25_000n * 10n ** 6n);
    expect(m.reprice().get(0)).toBe(25n * 10n ** 18n);
  });
});
