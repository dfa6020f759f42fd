/**
 * Token identity from XCM locations: the same token id whatever XCM version (v3 on the 2023
 * runtimes, v4, v5 today) decoded the location, the native id alias, and foreign ids that never
 * change between deployments.
 */
import { TypeRegistry } from "@polkadot/types";
import { beforeAll, describe, expect, it } from "vitest";
import { ALIAS_TOKEN_ID, FOREIGN_MIN, locationJsonToken, locationToken } from "../../indexer/chain/locations.js";
import { FOREIGN_ASSETS } from "../../indexer/devnet/plan.js";
import { currentRuntime, LOCATIONS, type Runtime } from "../support/runtimes.js";

/** XCM v3 as the 2023 runtimes (and the devnet) encode it: polkadot-js' own v3 definitions. */
const v3 = new TypeRegistry();
const asV3 = (location: unknown) => v3.createType("MultiLocationV3", location);

describe("locations → tokens", () => {
  let pah: Runtime;
  const asV5 = (location: unknown) => pah.registry.createType("StagingXcmV5Location", location);

  beforeAll(async () => {
    pah = await currentRuntime("asset-hub-polkadot");
  });

  it("names the native token and Assets-pallet assets in v3 and v5 alike", () => {
    for (const encode of [asV3, asV5]) {
      expect(locationToken(encode(LOCATIONS.native), 0)).toEqual({ id: 0, token: { kind: "native" } });
      expect(locationToken(encode(LOCATIONS.native), 5)?.id).toBe(5);
      expect(locationToken(encode(LOCATIONS.asset(1984)), 0)).toEqual({ id: 1984, token: { kind: "asset", assetId: 1984 } });
      expect(locationToken(encode(LOCATIONS.asset(4_294_967_295)), 0)?.id).toBe(4_294_967_295);
    }
  });

  it("serves the asset whose id is the native token's id as 2^32", () => {
    expect(locationToken(asV5(LOCATIONS.asset(0)), 0)).toEqual({ id: ALIAS_TOKEN_ID, token: { kind: "asset", assetId: 0 } });
    expect(locationToken(asV5(LOCATIONS.asset(0)), 5)?.id).toBe(0);
    expect(locationToken(asV5(LOCATIONS.asset(5)), 5)?.id).toBe(ALIAS_TOKEN_ID);
  });

  it("gives a foreign location one id above 2^32 in every XCM version", () => {
    const ksmV3 = { parents: 2, interior: { X1: { GlobalConsensus: "Kusama" } } }; // v3's X1 holds one junction, v4+'s an array of one
    for (const [location, v3Spelling] of [LOCATIONS.snowbridgeUsdc, LOCATIONS.polkadotUsdc, [LOCATIONS.ksm, ksmV3] as const, ...FOREIGN_ASSETS.map((f) => f.location)].map((l) => (Array.isArray(l) ? l : [l, l]))) {
      const [a, b] = [locationToken(asV3(v3Spelling), 0), locationToken(asV5(location), 0)];
      expect(a?.token.kind).toBe("foreign");
      expect(a?.id).toBe(b?.id);
      expect(a!.id).toBeGreaterThanOrEqual(FOREIGN_MIN);
      expect(a!.id).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
      expect(locationJsonToken(location, 0).id).toBe(a!.id);
    }
  });

  it("keeps foreign ids stable across deployments (the values the README lists)", () => {
    const id = (location: unknown) => locationToken(asV5(location), 0)?.id;
    const ethereum = (key: string) => ({ parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key } }] } });
    const polkadotHub = (assetId: number) => ({ parents: 2, interior: { X4: [{ GlobalConsensus: "Polkadot" }, { Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: assetId }] } });
    expect(id(LOCATIONS.snowbridgeUsdc)).toBe(6_044_162_399_878_595);
    expect(id(ethereum("0xdac17f958d2ee523a2206206994597c13d831ec7"))).toBe(6_832_405_273_570_504); // Snowbridge USDT
    expect(id(ethereum("0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"))).toBe(4_963_915_648_263_051); // Snowbridge WETH
    expect(id(polkadotHub(1984))).toBe(6_766_275_052_932_365);
    expect(id(LOCATIONS.polkadotUsdc)).toBe(6_520_275_024_738_589);
    expect(id(LOCATIONS.ksm)).toBe(1_819_897_376_811_385);
    expect(id({ parents: 2, interior: { X1: [{ GlobalConsensus: "Polkadot" }] } })).toBe(251_702_808_482_979);
    expect(locationToken(asV3(FOREIGN_ASSETS[1]!.location), 0)?.id).toBe(5_663_926_466_120_535); // the devnet's KAR
  });

  it("reads Ethereum at its fixed network index 7 (XCM v5 dropped 4-6 without renumbering)", () => {
    const token = locationToken(asV5(LOCATIONS.snowbridgeUsdc), 0);
    expect(token?.token).toMatchObject({ location: { parents: 2, interior: { x2: [{ globalConsensus: { ethereum: { chainId: 1 } } }, {}] } } });
  });

  it("gives a v3 Westend location the id of its v5 form, ByGenesis(Westend's genesis)", () => {
    const named = asV3({ parents: 2, interior: { X2: [{ GlobalConsensus: "Westend" }, { Parachain: 1000 }] } });
    const byGenesis = asV5({ parents: 2, interior: { X2: [{ GlobalConsensus: { ByGenesis: "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e" } }, { Parachain: 1000 }] } });
    const a = locationToken(named, 0);
    expect(a?.id).toBe(locationToken(byGenesis, 0)?.id);
    // Storage stays keyed by the chain's own bytes.
    expect(a?.token).toMatchObject({ kind: "foreign", key: named.toHex() });
  });

  it("treats a GeneralIndex beyond u32 under the Assets pallet as foreign, and garbage as no location", () => {
    expect(locationToken(asV5(LOCATIONS.asset(2 ** 40)), 0)?.token.kind).toBe("foreign");
    expect(locationToken("0x01ff", 0)).toBeUndefined(); // no junctions variant 255
    expect(locationToken("0x0100ff", 0)).toBeUndefined(); // trailing bytes
    expect(locationToken("not hex", 0)).toBeUndefined();
  });
});
