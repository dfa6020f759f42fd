/**
 * How a chart's price scale labels its values, chosen from the range the data spans: a stablecoin
 * between 0.9998 and 1.0003 needs five decimals to tell its labels apart, a token at 25,000 none.
 * Pure functions (no DOM, no chart library), so the suite can check them apart from a browser.
 */

/** Labels a price scale shows at once, about: the step between two is the span over this. */
const LABELS = 8;
const MAX_DECIMALS = 12;

/** Decimals that tell apart the labels of a scale spanning lo..hi (a flat series: ±0.1 % of it). */
export function axisDecimals(lo: number, hi: number): number {
  const span = Math.abs(hi - lo);
  const step = span > 0 ? span / LABELS : Math.abs(hi) / 1_000 || 1;
  return Math.min(MAX_DECIMALS, Math.max(0, Math.ceil(-Math.log10(step))));
}

/**
 * `decimals` digits, and one more when the value has it: the library's ticks may step by 2.5 (17.5M
 * between 15M and 20M), which the range's decimals alone would round to a neighbour's label.
 */
const fixed = (v: number, decimals: number): string => v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals + 1 });
const SUFFIXES: [number, string][] = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
];

/**
 * A formatter for values between lo and hi: grouped by thousands, with the decimals the range
 * needs (at least `minDecimals` below 1,000); from a million on, in M, B or T when the range needs
 * no decimals of the unit (a supply of 1.2 B tokens moving by 10 M reads "1.21B", not 13 digits).
 */
export function rangeFormatter(lo: number, hi: number, minDecimals = 0): (v: number) => string {
  const big = Math.max(Math.abs(lo), Math.abs(hi));
  const decimals = axisDecimals(lo, hi);
  const suffix = decimals === 0 ? SUFFIXES.find(([unit]) => big >= unit) : undefined;
  if (suffix) {
    const [unit, name] = suffix;
    const d = axisDecimals(lo / unit, hi / unit);
    return (v) => `${fixed(v / unit, d)}${name}`;
  }
  const d = big < 1_000 ? Math.max(decimals, minDecimals) : decimals;
  return (v) => fixed(v, d);
}

/** The smallest and largest of `values` (0, 0 when there are none). */
export function extent(values: Iterable<number>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return lo <= hi ? [lo, hi] : [0, 0];
}

export interface PriceRange {
  minValue: number;
  maxValue: number;
}

/**
 * The autoscaled range of a series that is never negative (a supply, a count, a volume), kept at
 * or above zero: a flat series is shown from zero (the library would centre it, half below zero).
 * Its scale has no bottom margin: a margin is drawn with labels, below the range's minimum.
 */
export function nonNegative(range: PriceRange): PriceRange {
  if (range.maxValue <= range.minValue) return { minValue: 0, maxValue: range.maxValue > 0 ? range.maxValue * 1.25 : 1 };
  // Near zero already (within a quarter of the span): from zero, which reads better than 0.3.
  const near = range.minValue <= (range.maxValue - range.minValue) / 4;
  return { minValue: near ? 0 : range.minValue, maxValue: range.maxValue };
}
