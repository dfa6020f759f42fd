/**
 * Values on screen are the API's exact decimal strings, grouped and cut by string arithmetic; only
 * charts turn them into numbers, to place points. Every value put into markup goes through esc().
 */
export type Dec = string | null | undefined;
export interface TokenRef {
  tokenId: number;
  symbol: string;
  kind?: string;
  assetId?: number | null;
}

export function num(s: Dec, digits = 2): string {
  if (s === null || s === undefined) return "–";
  const neg = s.startsWith("-");
  const [int = "", frac = ""] = (neg ? s.slice(1) : s).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const keep = int === "0" ? Math.max(digits, frac.search(/[1-9]/) + 4) : digits;
  const shown = frac.slice(0, keep).replace(/0+$/, "");
  return (neg ? "-" : "") + (shown ? `${grouped}.${shown}` : grouped);
}
/** An amount in smallest units as a decimal string of whole tokens, every digit kept ("1234500", 6 → "1.2345"). */
export function wholeUnits(amount: string | number, decimals: number): string {
  const s = String(amount).padStart(decimals + 1, "0");
  return decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, "") : s;
}
/** An amount in smallest units as whole tokens, grouped and cut (string arithmetic: exact at any size). */
export function units(amount: Dec | number, decimals: number, digits = 4): string {
  if (amount === null || amount === undefined) return "–";
  return num(wholeUnits(amount, decimals), digits);
}
/** The sum of decimal strings, exact (bigint at the most fractional digits among them). */
export function sumDec(values: string[]): string {
  const scale = Math.max(0, ...values.map((v) => v.split(".")[1]?.length ?? 0));
  const scaled = (v: string) => {
    const [int = "0", frac = ""] = v.replace("-", "").split(".");
    const n = BigInt(int + frac.padEnd(scale, "0"));
    return v.startsWith("-") ? -n : n;
  };
  const total = values.reduce((t, v) => t + scaled(v), 0n);
  const digits = (total < 0n ? -total : total).toString().padStart(scale + 1, "0");
  const out = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, "") : digits;
  return (total < 0n ? "-" : "") + out;
}
/**
 * Decimals of a pool's LP token. PoolAssets LP tokens carry no metadata (0 decimals), and an
 * amount of them is √(amountA × amountB) in smallest units (the pallet mints the geometric mean),
 * so its whole unit is √(one A × one B): (decA + decB) / 2 decimals (the floor when the sum is
 * odd: √10 of that unit).
 */
export const lpDecimals = (a: { decimals: number }, b: { decimals: number }): number => Math.floor((a.decimals + b.decimals) / 2);
/** A change in percent ("-1.5"), signed and coloured (none when 0): `<span class="up">+1.5 %</span>`. */
export function change(pct: Dec): string {
  if (pct === null || pct === undefined) return "–";
  const sign = Number(pct) === 0 ? 0 : pct.startsWith("-") ? -1 : 1;
  return `<span class="${sign > 0 ? "up" : sign < 0 ? "down" : ""}">${sign > 0 ? "+" : ""}${num(pct)} %</span>`;
}
/**
 * What a ledger row is, in words (docs/api.md, "Transfers"): a transfer seen from its account
 * (sent, received, to self), a transaction fee as "fee", and the runtime's own kinds.
 */
const KINDS: Record<string, string> = { mint: "minted", burn: "burned", deposit: "deposit", withdraw: "withdrawal", fee: "fee", dust: "dust lost", slash: "slashed" };
export function kindText(x: { kind: string; direction?: string }): string {
  if (x.kind === "transfer") return x.direction === "self" ? "to self" : x.direction === "in" ? "received" : x.direction === "out" ? "sent" : "transfer";
  return esc(KINDS[x.kind] ?? x.kind);
}
/**
 * A decimal string × 100, by moving its point ("0.29" → "29", "0.0001" → "0.01"): exact, where
 * Number("0.29") * 100 is 28.999999999999996. A JSON number (a progress fraction) is written out first.
 */
export function times100(value: string | number): string {
  let s = String(value);
  if (/e/i.test(s)) s = Number(value).toFixed(20);
  const neg = s.startsWith("-");
  const [int = "0", frac = ""] = (neg ? s.slice(1) : s).split(".");
  const padded = frac.padEnd(2, "0");
  const whole = `${int}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const rest = padded.slice(2).replace(/0+$/, "");
  return (neg ? "-" : "") + (rest ? `${whole}.${rest}` : whole);
}
/** A share (a fraction such as "0.25") as a percentage. */
export const percent = (share: Dec | number, digits = 2): string => (share === null || share === undefined ? "–" : `${num(times100(share), digits)} %`);
export const short = (a: string | null | undefined): string => (a && a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-6)}` : (a ?? "–"));
export const time = (ts: number): string => new Date(ts * 1000).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/**
 * What a history list covers (docs/api.md, "Coverage"): "activity since block N (date)", with the
 * blocks missing in between; empty when the store holds every block from the chain's first.
 */
export function since(b: { historyFrom?: number | null; historyFromTime?: number | null; historyGaps?: Array<{ fromBlock: number; toBlock: number }>; historyComplete?: boolean }, what = "activity"): string {
  if (b.historyComplete || b.historyFrom == null) return "";
  const when = b.historyFromTime == null ? "" : ` (${time(b.historyFromTime)})`;
  const gaps = (b.historyGaps ?? []).map((g) => (g.fromBlock === g.toBlock ? `${g.fromBlock}` : `${g.fromBlock}–${g.toBlock}`));
  return `${what} since block ${b.historyFrom}${when}${gaps.length ? `; blocks ${gaps.join(", ")} missing` : ""}`;
}
export const sym = (t: TokenRef): string => esc(t.symbol || `#${t.tokenId}`);
export const tokenLink = (t: TokenRef): string => `<a href="#/token/${t.tokenId}">${sym(t)}</a>`;
export const poolLink = (a: TokenRef, b: TokenRef): string => `<a href="#/pool/${a.tokenId}/${b.tokenId}">${sym(a)}/${sym(b)}</a>`;
export const accountLink = (addr: string | null): string => (addr ? `<a class="mono" href="#/account/${esc(addr)}" title="${esc(addr)}">${esc(short(addr))}</a>` : "–");
export function badge(t: TokenRef): string {
  if (t.kind === "foreign") return '<span class="kind">foreign</span>';
  return t.kind === "asset" && t.assetId !== null && t.assetId !== undefined && t.assetId !== t.tokenId ? `<span class="kind">asset ${t.assetId}</span>` : "";
}
/** What of a balance can move: the native token's transferable part when it is not all of it, an asset account's status when not liquid. */
export function held(t: { balance: string; decimals: number; transferable?: string | null; free?: string; reserved?: string; frozen?: string; status?: string | null }): string {
  if (t.transferable !== null && t.transferable !== undefined && t.transferable !== t.balance) {
    return `<span class="kind" title="free ${units(t.free, t.decimals)}, reserved ${units(t.reserved, t.decimals)}, frozen ${units(t.frozen, t.decimals)}">${units(t.transferable, t.decimals)} transferable</span>`;
  }
  return t.status && t.status !== "liquid" ? `<span class="kind">${esc(t.status)}</span>` : "";
}
/** A definition list of figures; a third element gives the value an id (tests and live updates find it). */
export const facts = (pairs: [label: string, value: string | number, id?: string][]): string =>
  `<dl class="facts">${pairs.map(([k, v, id]) => `<div><dt>${k}</dt><dd${id ? ` id="${id}"` : ""}>${v}</dd></div>`).join("")}</dl>`;
export const loginNote = (what: string): string => `<p class="note">Log in (top right) to see ${what}: this part of the API needs a bearer token.</p>`;
export const note = (message: string, id?: string): string => `<p class="note"${id ? ` id="${id}"` : ""}>${esc(message)}</p>`;
