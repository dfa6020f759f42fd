import { describe, expect, it } from "vitest";
import { formatFixed, mulDiv, normalizeDecimal, parseFixed, pow10, ratio, usdValue, USD_SCALE } from "../../shared/decimal.js";
import { aprPercent, percentChange, poolTvlUsd, spotPrice } from "../../shared/market.js";

const usd = (s: string) => parseFixed(s, USD_SCALE);
const fmt = (v: bigint) => formatFixed(v, USD_SCALE);
const U128_MAX = 2n ** 128n - 1n;

describe("decimal", () => {
  it("parses and formats without floats, trailing zeros or exponents", () => {
    expect(parseFixed("12", 2)).toBe(1200n);
    expect(parseFixed("0.5", 3)).toBe(500n);
    expect(parseFixed("-3.25", 2)).toBe(-325n);
    expect(parseFixed("1.23456", 2)).toBe(123n); // truncates beyond the scale
    expect(formatFixed(1500n, 3)).toBe("1.5");
    expect(formatFixed(1000n, 3)).toBe("1");
    expect(formatFixed(1n, 18)).toBe("0.000000000000000001");
    expect(formatFixed(-1n, 3)).toBe("-0.001");
    expect(formatFixed(0n, 6)).toBe("0");
    expect(formatFixed(U128_MAX, 0)).toBe("340282366920938463463374607431768211455");
    expect(normalizeDecimal("1.500000")).toBe("1.5");
    expect(normalizeDecimal("000120")).toBe("120");
    expect(normalizeDecimal("0.000")).toBe("0");
  });

  it("rejects anything that is not a plain decimal", () => {
    for (const bad of ["", "1e5", "1,5", "0x10", "NaN", "1.", ".5", "--1"]) {
      expect(() => parseFixed(bad, 2), bad).toThrow(RangeError);
    }
  });

  it("keeps u128 amounts exact where a float would not", () => {
    // 2^128 - 1 smallest units of an 18-decimal token at 1.000000000000000001 USD (checked with Python ints)
    const value = usdValue(U128_MAX, 18, usd("1.000000000000000001"));
    expect(fmt(value)).toBe("340282366920938463803.656974352706674918");
    expect(ratio(1n, 3n, 6)).toBe(333333n);
    expect(ratio(5n, 0n, 6)).toBe(0n);
    expect(() => mulDiv(1n, 1n, 0n)).toThrow(RangeError);
  });
});

describe("market math", () => {
  it("spot price accounts for both tokens' decimals", () => {
    // 1000 KSM (12 dec) against 12500 USDt (6 dec)
    expect(fmt(spotPrice(1_000_000_000_000_000n, 12, 12_500_000_000n, 6))).toBe("12.5");
    expect(fmt(spotPrice(12_500_000_000n, 6, 1_000_000_000_000_000n, 12))).toBe("0.08");
    expect(spotPrice(0n, 12, 5n, 6)).toBe(0n);
  });

  it("TVL adds the priced sides, each once: an unpriced side counts 0", () => {
    const a = { reserve: 10n ** 12n, decimals: 12, priceUsd: usd("12.5") };
    const b = { reserve: 4000n, decimals: 0, priceUsd: undefined };
    expect(fmt(poolTvlUsd(a, { reserve: 12_500_000n, decimals: 6, priceUsd: usd("1") }))).toBe("25");
    expect(fmt(poolTvlUsd(a, b))).toBe("12.5");
    expect(fmt(poolTvlUsd(b, a))).toBe("12.5");
    expect(poolTvlUsd(b, b)).toBe(0n);
  });

  it("percent change and APR are in percent, exact", () => {
    expect(fmt(percentChange(usd("12.5"), usd("10")))).toBe("25");
    expect(fmt(percentChange(usd("0.08"), usd("0.1")))).toBe("-20");
    expect(percentChange(usd("5"), 0n)).toBe(0n);
    expect(fmt(aprPercent(usd("0.4515"), usd("25000")))).toBe("0.65919");
    expect(fmt(aprPercent(usd("10"), usd("365")))).toBe("1000");
    expect(aprPercent(usd("1"), 0n)).toBe(0n);
  });

  it("pow10 is 10^n for every n, past the powers kept too, and refuses what is not a whole n ≥ 0", () => {
    for (let n = 0; n <= 100; n++) expect(pow10(n)).toBe(10n ** BigInt(n));
    expect(() => pow10(-1)).toThrow(RangeError);
    expect(() => pow10(1.5)).toThrow(RangeError);
  });
});
