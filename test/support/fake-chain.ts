/**
 * A Polkadot Asset Hub chain for the fake node, built block by block: a genesis state, then
 * blocks of operations (transfers, swaps, …) that change the state and emit the events a
 * runtime emits for them, and a runtime upgrade. As on a real Cumulus chain, block N is
 * executed by the runtime whose code is in the state of block N − 1: the block that applies an
 * upgrade (U) still runs the old runtime and puts the new code in its state, and U + 1 is the
 * first block of the new one. Every block's storage and events are encoded with the types of
 * the runtime that executed it; System.LastRuntimeUpgrade at N is that runtime's version.
 */
import { stringToHex, u8aToHex } from "@polkadot/util";
import { blake2AsHex } from "@polkadot/util-crypto";
import { POLKADOT_ASSET_HUB_GENESIS } from "../../indexer/anchors.js";
import { ChainState, encodeState, type AccountHex } from "./fake-state.js";
import { CODE_KEY, RuntimeCodec, type VersionJson } from "./fake-storage.js";
import { currentRuntime, eventRecord, LOCATIONS } from "./runtimes.js";

/** A: statemint 2,000,000; B: its upgrade; C: B again as the next version (a second upgrade). */
export type RuntimeId = "A" | "B" | "C";

export interface FakeEvent {
  section: string;
  method: string;
  fields: Record<string, unknown>;
  extrinsic: number;
}

export interface FakeBlock {
  number: number;
  hash: string;
  header: { parentHash: string; number: string; stateRoot: string; extrinsicsRoot: string; digest: { logs: string[] } };
  /** The runtime that executed this block, and the one whose code is in its state (differ at U). */
  executedBy: RuntimeId;
  code: RuntimeId;
  /** Unix milliseconds (Timestamp.Now). */
  timestamp: number;
  state: ChainState;
  events: FakeEvent[];
  storage: Map<string, string>;
  /** Storage keys in byte order (state_getKeysPaged). */
  keys: string[];
}

export interface FakeChain {
  blocks: FakeBlock[];
  runtimes: Record<RuntimeId, RuntimeCodec>;
  /** The block that applies the (first) upgrade (its state holds B's code), if any. */
  upgradeAt: number | undefined;
}

/** Spec version of the upgraded runtime (statemint with the fellows 2.3 changes). */
export const SPEC_B = 2_003_001;
/** Spec version of a second upgrade (B's types, the next version). */
export const SPEC_C = 2_003_002;
const GENESIS_MS = 1_780_000_000_000;
const BLOCK_MS = 12_000;
/** Extrinsics 0 and 1 are the inherents (set_validation_data, timestamp.set). */
const FIRST_SIGNED = 2;

/**
 * Statemint 2,000,000 (A), the same with the fellows 2.3 changes as 2,003,001 (B), and B's types
 * as 2,003,002 (C); each metadata's System.Version names its own version, as a runtime's does.
 */
export async function assetHubRuntimes(): Promise<Record<RuntimeId, RuntimeCodec>> {
  const later = (specVersion: number) => currentRuntime("asset-hub-polkadot", { holdEvents: true, permillLpFee: true, specVersion });
  const [a, b, c] = await Promise.all([currentRuntime("asset-hub-polkadot"), later(SPEC_B), later(SPEC_C)]);
  const { default: ver } = (await import("@polkadot/types-support/metadata/v15/asset-hub-polkadot-ver")) as unknown as { default: VersionJson };
  const wasm = (spec: number) => u8aToHex(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...new TextEncoder().encode(`statemint-${spec}`)]));
  return {
    A: new RuntimeCodec(a, { ...ver }, wasm(ver.specVersion)),
    B: new RuntimeCodec(b, { ...ver, specVersion: SPEC_B }, wasm(SPEC_B)),
    C: new RuntimeCodec(c, { ...ver, specVersion: SPEC_C }, wasm(SPEC_C)),
  };
}

/** What one block does; each call is one extrinsic of the block. */
export class BlockOps {
  private extrinsic = FIRST_SIGNED;

  constructor(
    readonly state: ChainState,
    readonly events: FakeEvent[],
  ) {}

  private emit(section: string, method: string, fields: Record<string, unknown>, extrinsic = this.extrinsic): void {
    this.events.push({ section, method, fields, extrinsic });
  }

  transfer(from: AccountHex, to: AccountHex, amount: bigint): this {
    this.state.moveFree(from, to, amount);
    this.emit("balances", "Transfer", { from, to, amount });
    this.extrinsic++;
    return this;
  }

  /** Held funds of `source` paid to `dest`'s free balance (an event only runtime B has). */
  transferOnHold(source: AccountHex, dest: AccountHex, amount: bigint): this {
    const from = this.state.nativeOf(source);
    if (from.reserved < amount) throw new Error(`native: ${source} holds ${from.reserved}, not ${amount}`);
    from.reserved -= amount;
    this.state.nativeOf(dest).free += amount;
    this.emit("balances", "TransferOnHold", { reason: { PolkadotXcm: "AuthorizeAlias" }, source, dest, amount });
    this.extrinsic++;
    return this;
  }

  /**
   * Staking's bond as today's hubs do it: a hold on the stash's free balance (reserved grows),
   * announced only by `staking.Bonded { stash, amount }` — no `balances` event.
   */
  bond(stash: AccountHex, amount: bigint): this {
    const a = this.state.nativeOf(stash);
    if (a.free < amount) throw new Error(`native: ${stash} has ${a.free} free, not ${amount}`);
    a.free -= amount;
    a.reserved += amount;
    this.emit("staking", "Bonded", { stash, amount });
    this.extrinsic++;
    return this;
  }

  /**
   * A reward paid to another account than the stash, which names it only inside the event's
   * `dest: RewardDestination::Account(..)` (here held at once, as a restake would): no `balances` event.
   */
  reward(stash: AccountHex, payee: AccountHex, amount: bigint): this {
    this.state.nativeOf(payee).reserved += amount;
    this.emit("staking", "Rewarded", { stash, dest: { Account: payee }, amount });
    this.extrinsic++;
    return this;
  }

  assetTransfer(assetId: number, from: AccountHex, to: AccountHex, amount: bigint): this {
    this.state.moveAsset(assetId, from, to, amount);
    this.emit("assets", "Transferred", { assetId, from, to, amount });
    this.extrinsic++;
    return this;
  }

  /**
   * A swap through the native/asset pool, as pallet-asset-conversion does it: the constant
   * product after a 0.3 % LP fee, the two transfer events, then SwapExecuted with each step's amount.
   */
  swap(who: AccountHex, assetId: number, nativeIn: boolean, amountIn: bigint): { amountIn: bigint; amountOut: bigint } {
    const r = this.state.reserves(assetId);
    const [reserveIn, reserveOut] = nativeIn ? [r.native, r.asset] : [r.asset, r.native];
    const withFee = amountIn * 997n;
    const amountOut = (withFee * reserveOut) / (reserveIn * 1000n + withFee);
    const pool = r.pool.account;
    if (nativeIn) {
      this.state.moveFree(who, pool, amountIn);
      this.emit("balances", "Transfer", { from: who, to: pool, amount: amountIn });
      this.state.moveAsset(assetId, pool, who, amountOut);
      this.emit("assets", "Transferred", { assetId, from: pool, to: who, amount: amountOut });
    } else {
      this.state.moveAsset(assetId, who, pool, amountIn);
      this.emit("assets", "Transferred", { assetId, from: who, to: pool, amount: amountIn });
      this.state.moveFree(pool, who, amountOut);
      this.emit("balances", "Transfer", { from: pool, to: who, amount: amountOut });
    }
    const [first, last] = nativeIn ? [LOCATIONS.native, LOCATIONS.asset(assetId)] : [LOCATIONS.asset(assetId), LOCATIONS.native];
    const path = [
      [first, amountIn],
      [last, amountOut],
    ];
    this.emit("assetConversion", "SwapExecuted", { who, sendTo: who, amountIn, amountOut, path });
    this.extrinsic++;
    return { amountIn, amountOut };
  }
}

interface PlannedBlock {
  ops?: (b: BlockOps) => void;
  upgrade?: { codeUpdated: boolean; to: RuntimeId };
}

export class ChainBuilder {
  /** Changed directly before the first block (no events): the genesis state. */
  readonly genesis = new ChainState();
  private readonly planned: PlannedBlock[] = [];

  constructor(
    private readonly runtimes: Record<RuntimeId, RuntimeCodec>,
    private readonly seed = "fake-asset-hub",
  ) {}

  /** The next block; `ops` says what it does. */
  block(ops?: (b: BlockOps) => void): this {
    this.planned.push({ ops });
    return this;
  }

  /**
   * The next block applies the upgrade (parachainSystem.ValidationFunctionApplied, and
   * system.CodeUpdated unless `codeUpdated` is false: the applying block need not emit it), to
   * runtime B unless `to` says otherwise.
   */
  upgrade(options: { codeUpdated?: boolean; to?: RuntimeId } = {}, ops?: (b: BlockOps) => void): this {
    this.planned.push({ ops, upgrade: { codeUpdated: options.codeUpdated ?? true, to: options.to ?? "B" } });
    return this;
  }

  /** Number of the block the next call adds. */
  get next(): number {
    return this.planned.length + 1;
  }

  build(): FakeChain {
    const hashOf = (n: number) => (n === 0 ? POLKADOT_ASSET_HUB_GENESIS : blake2AsHex(`${this.seed}/block/${n}`));
    const blocks: FakeBlock[] = [this.seal(0, hashOf, "A", "A", this.genesis.clone(), [])];
    let upgradeAt: number | undefined;
    this.planned.forEach((plan, i) => {
      const number = i + 1;
      const parent = blocks[i]!;
      const state = parent.state.clone();
      const events: FakeEvent[] = [];
      let code = parent.code;
      if (plan.upgrade) {
        upgradeAt ??= number;
        code = plan.upgrade.to;
        events.push({ section: "parachainSystem", method: "ValidationFunctionApplied", fields: { relayChainBlockNum: 20_000_000 + number }, extrinsic: 0 });
        if (plan.upgrade.codeUpdated) events.push({ section: "system", method: "CodeUpdated", fields: {}, extrinsic: 0 });
      }
      plan.ops?.(new BlockOps(state, events));
      blocks.push(this.seal(number, hashOf, parent.code, code, state, events));
    });
    return { blocks, runtimes: this.runtimes, upgradeAt };
  }

  /** The block's storage: the state and the system entries, with the executing runtime's types. */
  private seal(number: number, hashOf: (n: number) => string, executedBy: RuntimeId, code: RuntimeId, state: ChainState, events: FakeEvent[]): FakeBlock {
    const codec = this.runtimes[executedBy];
    const storage = encodeState(state, codec);
    const timestamp = GENESIS_MS + number * BLOCK_MS;
    const parentHash = number === 0 ? u8aToHex(new Uint8Array(32)) : hashOf(number - 1);
    storage.set(codec.key("timestamp", "now"), codec.value("timestamp", "now", timestamp));
    storage.set(codec.key("system", "number"), codec.value("system", "number", number));
    storage.set(codec.key("system", "parentHash"), codec.value("system", "parentHash", parentHash));
    const { specVersion, specName } = codec.version;
    storage.set(codec.key("system", "lastRuntimeUpgrade"), codec.value("system", "lastRuntimeUpgrade", { specVersion, specName }));
    if (number > 0) storage.set(codec.key("system", "events"), codec.events(events.map((e) => eventRecord(codec.runtime, e.section, e.method, e.fields, e.extrinsic))));
    storage.set(CODE_KEY, this.runtimes[code].code);
    const keys = [...storage.keys()].sort();
    const stateRoot = blake2AsHex(keys.map((k) => k + storage.get(k)).join(""));
    const header = { parentHash, number: `0x${number.toString(16)}`, stateRoot, extrinsicsRoot: blake2AsHex(`${this.seed}/extrinsics/${number}`), digest: { logs: [] } };
    return { number, hash: hashOf(number), header, executedBy, code, timestamp, state, events, storage, keys };
  }
}

/** A deterministic AccountId32 for a name (the test's actors). */
export const account = (name: string): AccountHex => blake2AsHex(stringToHex(`fake-account/${name}`));
