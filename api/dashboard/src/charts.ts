/**
 * Charts: TradingView's lightweight-charts (canvas), bundled into the page's script — nothing
 * loaded from another host. One chart per container, a series per kind of data (candles, or a line
 * of their closes; volume as a histogram on its own scale under them), time in UTC seconds shown in
 * the reader's time zone, colours read from the style sheet's variables. Data arriving with a block
 * goes in with update() (the last candle changes, new ones are appended), so a reader's zoom and
 * pan stay where they are; only a new interval or series sets the data again.
 *
 * The library's attribution logo is off: it inserts a <style> element, which the page's policy
 * (style-src 'self') refuses. The page's footer carries the attribution and link instead.
 */
import {
  CandlestickSeries,
  ColorType,
  createChart,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  TickMarkType,
  type AutoscaleInfo,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { onLeave } from "./dom.js";
import { time } from "./format.js";
import { extent, nonNegative, rangeFormatter } from "./scale.js";

export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** No trade in the interval: the previous close carried on (drawn dim). */
  empty: boolean;
  tip: string;
}
export interface Point {
  time: number;
  value: number;
  tip: string;
}

const css = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const local = (t: Time): Date => new Date((t as number) * 1000);
function tick(t: Time, type: TickMarkType): string {
  const d = local(t);
  switch (type) {
    case TickMarkType.Year:
      return String(d.getFullYear());
    case TickMarkType.Month:
      return d.toLocaleDateString([], { month: "short" });
    case TickMarkType.DayOfMonth:
      return d.toLocaleDateString([], { month: "short", day: "numeric" });
    case TickMarkType.TimeWithSeconds:
      return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    default:
      return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
}

function newChart(box: HTMLElement): IChartApi {
  const line = css("--line");
  return createChart(box, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: css("--panel") }, textColor: css("--dim"), fontFamily: getComputedStyle(document.body).fontFamily, attributionLogo: false },
    grid: { vertLines: { color: line }, horzLines: { color: line } },
    crosshair: { mode: CrosshairMode.Normal },
    rightPriceScale: { borderColor: line, scaleMargins: { top: 0.1, bottom: 0.25 } },
    // A few candles are not drawn a hundred pixels wide; a long series opens on its newest (see newest()).
    timeScale: { borderColor: line, timeVisible: true, secondsVisible: false, tickMarkFormatter: tick, barSpacing: 10, maxBarSpacing: 40, rightOffsetPixels: 24 },
    localization: { timeFormatter: (t: Time) => time(t as number) },
  });
}

/** The tooltip beside the crosshair: the tip of the point under the pointer, if any. */
function tooltip(chart: IChartApi, box: HTMLElement, tips: Map<number, string>): void {
  const tip = document.createElement("div");
  tip.className = "tip";
  box.append(tip);
  chart.subscribeCrosshairMove((p: MouseEventParams) => {
    const text = p.time === undefined || !p.point ? undefined : tips.get(p.time as number);
    if (text === undefined || !p.point) {
      tip.style.display = "none";
      return;
    }
    tip.innerHTML = text;
    tip.style.display = "block";
    tip.style.left = `${Math.max(0, Math.min(p.point.x + 16, box.clientWidth - tip.offsetWidth - 64))}px`;
    tip.style.top = "8px";
  });
}

/**
 * A chart drawn into `box` once there is data: with none, the box says so instead (and holds no
 * chart). `build` adds the series to a new chart; the chart goes when the page is left.
 */
function lazyChart<S>(box: HTMLElement, build: (chart: IChartApi) => S) {
  let drawn: { chart: IChartApi; series: S; tips: Map<number, string> } | undefined;
  const clear = () => {
    drawn?.chart.remove();
    drawn = undefined;
    box.classList.remove("drawn");
  };
  onLeave(clear);
  return {
    empty() {
      clear();
      box.innerHTML = '<p class="empty">no data in this range yet</p>';
    },
    /** The chart and its series, made now if there were none; `fresh` says which. */
    draw() {
      if (drawn) return { ...drawn, fresh: false };
      box.replaceChildren();
      box.classList.add("drawn");
      const chart = newChart(box);
      const tips = new Map<number, string>();
      tooltip(chart, box, tips);
      drawn = { chart, series: build(chart), tips };
      return { ...drawn, fresh: true };
    },
  };
}

/** All of a short series; the newest candles of a long one (a day of minutes in one view is a blur): zoom and pan reach the rest. */
function newest(chart: IChartApi, count: number): void {
  if (count <= 120) chart.timeScale().fitContent();
  else chart.timeScale().resetTimeScale();
}
/** New data into a series: all of it when `reset`, else only what is at or after its last point (update()). */
function put<T extends SeriesType>(series: ISeriesApi<T>, rows: Parameters<ISeriesApi<T>["update"]>[0][], reset: boolean): void {
  if (reset) return series.setData(rows as never);
  const last = series.data().at(-1)?.time as number | undefined;
  for (const row of rows) if (last === undefined || (row.time as number) >= last) series.update(row);
}

export type CandleStyle = "candles" | "line";
export interface CandleChart {
  /** Draws `candles`; `reset` (a new interval) sets them anew, otherwise the tail is updated in place. */
  set(candles: Candle[], reset: boolean): void;
  style(style: CandleStyle): void;
}

export function candleChart(box: HTMLElement): CandleChart {
  let shown: CandleStyle = "candles";
  // Labels with the decimals the prices' range needs (scale.ts), set again with each new range.
  const priceFormat = (lo: number, hi: number) => ({ type: "custom" as const, formatter: rangeFormatter(lo, hi, 2), minMove: 1e-12 });
  const lazy = lazyChart(box, (chart) => {
    const [up, down, dim, accent] = [css("--up"), css("--down"), css("--dim"), css("--accent")];
    const candles = chart.addSeries(CandlestickSeries, { upColor: up, downColor: down, borderUpColor: up, borderDownColor: down, wickUpColor: up, wickDownColor: down, priceFormat: priceFormat(0, 1), visible: shown === "candles" });
    const closes = chart.addSeries(LineSeries, { color: accent, lineWidth: 2, priceFormat: priceFormat(0, 1), visible: shown === "line" });
    const volume = chart.addSeries(HistogramSeries, { priceScaleId: "volume", priceFormat: { type: "volume" }, lastValueVisible: false, priceLineVisible: false });
    chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    return { candles, closes, volume, colors: { up, down, dim, volume: css("--vol") } };
  });
  let current: ReturnType<typeof lazy.draw> | undefined;
  return {
    set(items, reset) {
      if (items.length === 0) {
        current = undefined;
        return lazy.empty();
      }
      current = lazy.draw();
      const { chart, series: s, tips, fresh } = current;
      const t = (c: Candle) => c.time as UTCTimestamp;
      const color = (c: Candle) => (c.empty ? s.colors.dim : undefined);
      put(s.candles, items.map((c) => ({ time: t(c), open: c.open, high: c.high, low: c.low, close: c.close, color: color(c), borderColor: color(c), wickColor: color(c) })), reset || fresh);
      put(s.closes, items.map((c) => ({ time: t(c), value: c.close })), reset || fresh);
      put(s.volume, items.map((c) => ({ time: t(c), value: c.volume, color: s.colors.volume })), reset || fresh);
      const [lo, hi] = extent(s.candles.data().flatMap((c) => ("low" in c ? [c.low, c.high] : [])));
      s.candles.applyOptions({ priceFormat: priceFormat(lo, hi) });
      s.closes.applyOptions({ priceFormat: priceFormat(lo, hi) });
      if (reset || fresh) tips.clear();
      for (const c of items) tips.set(c.time, c.tip);
      if (reset || fresh) newest(chart, items.length);
    },
    style(style) {
      shown = style;
      current?.series.candles.applyOptions({ visible: style === "candles" });
      current?.series.closes.applyOptions({ visible: style === "line" });
    },
  };
}

/** What a chart whose values are never negative passes as its autoscale: kept at or above zero. */
const aboveZero = { autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => {
  const info = base();
  return info?.priceRange ? { ...info, priceRange: nonNegative(info.priceRange) } : info;
} };
/**
 * A scale of values never negative labelled for the range it shows (scale.ts): the values' range,
 * as nonNegative() widens it; counts (`integer`) in whole numbers, ticks included.
 */
const rangeFormat = (values: number[], integer = false) => {
  if (integer) return { type: "price" as const, precision: 0, minMove: 1 };
  const [lo, hi] = extent(values);
  const shown = nonNegative({ minValue: lo, maxValue: hi });
  return { type: "custom" as const, formatter: rangeFormatter(shown.minValue, shown.maxValue), minMove: 1e-12 };
};

export interface TwoLines {
  /** Both series, one point per time; each drawn whole (they are read again, not pushed). */
  set(points: { time: number; left: number; right: number; tip: string }[]): void;
}

/**
 * Two series over time on scales of their own, each titled on its scale (supply on the right,
 * holders on the left): neither is negative, so neither scale goes below zero.
 */
export function twoLineChart(box: HTMLElement, names: { left: string; right: string }, integer: { left?: boolean; right?: boolean } = {}): TwoLines {
  const lazy = lazyChart(box, (chart) => {
    chart.applyOptions({ leftPriceScale: { visible: true, borderColor: css("--line") } });
    for (const id of ["left", "right"]) chart.priceScale(id).applyOptions({ scaleMargins: { top: 0.12, bottom: 0 } });
    const line = (priceScaleId: string, color: string, title: string) => chart.addSeries(LineSeries, { priceScaleId, color, lineWidth: 2, title, ...aboveZero });
    return { left: line("left", css("--up"), names.left), right: line("right", css("--accent"), names.right) };
  });
  return {
    set(points) {
      if (points.length === 0) return lazy.empty();
      const { chart, series, tips } = lazy.draw();
      for (const side of ["left", "right"] as const) {
        series[side].applyOptions({ priceFormat: rangeFormat(points.map((p) => p[side]), integer[side]) });
        series[side].setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p[side] })));
      }
      tips.clear();
      for (const p of points) tips.set(p.time, p.tip);
      chart.timeScale().fitContent();
    },
  };
}

export interface VolumeChart {
  /** Volume per interval of `step` seconds (histogram), set whole: `reset` also fits the view to it. */
  volume(bars: Point[], step: number, reset: boolean): void;
  /** A TVL reading at a block's time (a line on the left scale): the last in each interval is drawn. */
  tvl(reading: Point): void;
}

/**
 * The market's chart: volume per interval as a histogram, TVL as a line on the left scale, its
 * points at the volume's intervals (a point per block would each take a bar's width). The line
 * holds the readings seen since the page opened: the API serves no TVL history.
 */
export function volumeChart(box: HTMLElement): VolumeChart {
  const lazy = lazyChart(box, (chart) => {
    chart.applyOptions({ leftPriceScale: { visible: true, borderColor: css("--line") } });
    for (const id of ["left", "right"]) chart.priceScale(id).applyOptions({ scaleMargins: { top: 0.12, bottom: 0 } });
    const volume = chart.addSeries(HistogramSeries, { color: css("--vol"), title: "volume", lastValueVisible: false, priceLineVisible: false, ...aboveZero });
    const tvl = chart.addSeries(LineSeries, { priceScaleId: "left", color: css("--accent"), lineWidth: 2, title: "TVL", pointMarkersVisible: true, ...aboveZero });
    return { volume, tvl };
  });
  const readings: Point[] = [];
  let bars: Point[] = [];
  let step = 3_600;
  const draw = (reset: boolean) => {
    const tvls = new Map<number, Point>();
    for (const r of readings) tvls.set(Math.floor(r.time / step) * step, r); // the last reading of each interval
    if (bars.length === 0 && tvls.size === 0) return lazy.empty();
    const { chart, series, tips, fresh } = lazy.draw();
    const line = [...tvls.entries()].map(([time, r]) => ({ time: time as UTCTimestamp, value: r.value }));
    series.volume.applyOptions({ priceFormat: rangeFormat(bars.map((b) => b.value)) });
    series.tvl.applyOptions({ priceFormat: rangeFormat(line.map((b) => b.value)) });
    series.volume.setData(bars.map((b) => ({ time: b.time as UTCTimestamp, value: b.value })));
    series.tvl.setData(line);
    tips.clear();
    for (const b of bars) tips.set(b.time, b.tip);
    for (const [time, r] of tvls) tips.set(time, [tips.get(time), r.tip].filter(Boolean).join("<br>"));
    if (reset || fresh) chart.timeScale().fitContent();
  };
  return {
    volume(next, seconds, reset) {
      bars = next;
      step = seconds;
      draw(reset);
    },
    tvl(reading) {
      const last = readings.at(-1);
      if (last && reading.time < last.time) return;
      readings.push(reading);
      if (readings.length > 10_000) readings.shift();
      draw(false);
    },
  };
}
