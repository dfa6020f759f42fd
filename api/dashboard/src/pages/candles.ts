/** What the token and pool pages share about candles: the interval picker and the API's candles as chart items. */
import type { Body } from "../api.js";
import type { Candle, CandleChart, CandleStyle } from "../charts.js";
import { num, time } from "../format.js";

export const INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d"] as const;
export type Interval = (typeof INTERVALS)[number];

/** Seconds in each interval. */
export const INTERVAL_SECONDS: Record<Interval, number> = { "1m": 60, "5m": 300, "15m": 900, "1h": 3_600, "4h": 14_400, "1d": 86_400 };

/** The buttons in a chart's title: an interval (one lit) and, for candles, candles or a line of closes. */
export function chartTools(current: Interval, chart: CandleChart | undefined, onPick: (i: Interval) => void): HTMLElement {
  const span = document.createElement("span");
  span.className = "tools";
  const button = (attr: string, value: string, on: boolean) => `<button type="button" data-${attr}="${value}" class="${on ? "on" : ""}">${value}</button>`;
  const styles = chart ? `<span class="gap"></span>${button("style", "candles", true)}${button("style", "line", false)}` : "";
  span.innerHTML = `${INTERVALS.map((i) => button("interval", i, i === current)).join("")}${styles}`;
  span.addEventListener("click", (e) => {
    const { interval, style } = (e.target as HTMLElement).dataset;
    const light = (attr: "interval" | "style", value: string) => {
      for (const b of span.querySelectorAll<HTMLElement>(`[data-${attr}]`)) b.classList.toggle("on", b.dataset[attr] === value);
    };
    if (interval) {
      light("interval", interval);
      onPick(interval as Interval);
    } else if (style) {
      light("style", style);
      chart?.style(style as CandleStyle);
    }
  });
  return span;
}

/** The API's candles (GET /pools/{a}/{b}/ohlcv) as chart items: in USD, or in the pool's quote token. */
export function candleItems(candles: Body[], usd: boolean): Candle[] {
  const items: Candle[] = [];
  for (const c of candles) {
    const o = usd ? c.usd : c;
    if (!o) continue;
    const tip = `${time(c.timestamp)}<br>O ${num(o.open, 6)} H ${num(o.high, 6)}<br>L ${num(o.low, 6)} C ${num(o.close, 6)}<br>volume $${num(c.volumeUsd)} · ${c.swaps} swaps${c.empty ? "<br>(no trade: previous close)" : ""}`;
    items.push({ time: c.timestamp, open: Number(o.open), high: Number(o.high), low: Number(o.low), close: Number(o.close), volume: Number(c.volumeUsd), empty: c.empty, tip });
  }
  return items;
}
