/**
 * The dashboard's number formatting apart from a browser: a chart scale's labels from the range its
 * values span, scales of non-negative series kept at or above zero, and amounts in whole units
 * by string arithmetic (exact for any u128).
 */
import { describe, expect, it } from "vitest";
import { axisDecimals, nonNegative, rangeFormatter } from "../../../api/dashboard/src/scale.js";
import { lpDecimals, percent, sumDec, times100, units, wholeUnits } from "../../../api/dashboard/src/format.js";

/** The labels a scale from lo to hi shows, about eight of them at an even step. */
const labels = (lo: number, hi: number, minDecimals = 0) => {
  const f = rangeFormatter(lo, hi, minDecimals);
  return Array.from({ length: 9 }, (_, i) => f(lo + ((hi - lo) * i) / 8));
};

describe("chart scales", () => {
  it("a stablecoin's price scale tells its labels apart (not 1.00 on every one)", () => {
    const shown = labels(0.9998, 1.0003, 2);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown[0]).toBe("0.99980");
  });

  it("a price's decimals follow its range: a few for a token near 12, none for one near 25,000", () => {
    expect(labels(12.3, 12.9, 2)).toContain("12.60");
    expect(axisDecimals(24_000, 26_000)).toBe(0);
    expect(labels(24_000, 26_000)[0]).toBe("24,000");
    expect(new Set(labels(0.00001234, 0.00001334)).size).toBe(9);
  });

  it("a large range reads in M, B or T with the decimals its step needs", () => {
    expect(labels(1.2e9, 1.28e9)).toEqual(["1.20B", "1.21B", "1.22B", "1.23B", "1.24B", "1.25B", "1.26B", "1.27B", "1.28B"]);
    expect(rangeFormatter(0, 5e6)(2.5e6)).toBe("2.5M");
    expect(rangeFormatter(0, 18.75e6)(15e6)).toBe("15M");
    expect(rangeFormatter(0, 18.75e6)(17.5e6)).toBe("17.5M"); // a tick 2.5M from the next: not "18M"
  });

  it("a scale of values never negative does not go below zero, flat or near zero", () => {
    expect(nonNegative({ minValue: -0.5, maxValue: 6 })).toEqual({ minValue: 0, maxValue: 6 });
    expect(nonNegative({ minValue: 5, maxValue: 5 })).toEqual({ minValue: 0, maxValue: 6.25 });
    expect(nonNegative({ minValue: 0, maxValue: 0 })).toEqual({ minValue: 0, maxValue: 1 });
    expect(nonNegative({ minValue: 1_000, maxValue: 1_010 })).toEqual({ minValue: 1_000, maxValue: 1_010 });
  });
});

describe("amounts", () => {
  it("whole units keep every digit of a u128", () => {
    const max = (2n ** 128n - 1n).toString();
    expect(wholeUnits(max, 18)).toBe("340282366920938463463.374607431768211455");
    expect(wholeUnits("1234500", 6)).toBe("1.2345");
    expect(wholeUnits("5", 12)).toBe("0.000000000005");
    expect(units("3535533905932", lpDecimals({ decimals: 12 }, { decimals: 6 }))).toBe("3,535.5339");
  });

  it("sums decimal strings exactly", () => {
    expect(sumDec(["0.1", "0.2"])).toBe("0.3");
    expect(sumDec(["123456789012345678901234567890.000000000000000001", "1"])).toBe("123456789012345678901234567891.000000000000000001");
    expect(sumDec([])).toBe("0");
  });
});

describe("percentages", () => {
  it("a share × 100 moves the point, exactly: 0.29 is 29 %, not 28.99 % (Number(\"0.29\") * 100 is 28.999999999999996)", () => {
    expect(times100("0.29")).toBe("29");
    expect(times100("0.57")).toBe("57");
    expect(times100("0.003")).toBe("0.3");
    expect(times100("0.0000001")).toBe("0.00001");
    expect(times100("1")).toBe("100");
    expect(times100("12.3456789")).toBe("1234.56789");
    expect(times100("-0.015")).toBe("-1.5");
    expect(times100(1e-7)).toBe("0.00001");
    expect(percent("0.29")).toBe("29 %");
    expect(percent("0.57", 4)).toBe("57 %");
    expect(percent("0.199999999", 4)).toBe("19.9999 %");
    expect(percent("0.000001234", 2)).toBe("0.0001234 %");
    expect(percent(null)).toBe("–");
  });
});
