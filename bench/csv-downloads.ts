/**
 * CSV downloads (issue 38, finding 5), measured by bench/snapshots.ts through its `tokenpool api`
 * child on the snapshot store: the current holder list dumped to its file (the time a
 * transaction is held, against the whole download before) and shared; the memory an open download
 * holds (stalled readers, which is what the places' total bounds); and a raw-socket reader at a
 * steady 32 KB/s under the production write deadline (30 s), which was cut before.
 */
import net from "node:net";
import { currentRssMb } from "./load.js";
import { log, rows } from "./settings.js";

/** Bytes of a GET's answer read at `rate` bytes/s for `ms`, then as fast as it comes; whether it ended whole (its last chunk or Content-Length). */
function readAt(port: number, target: string, headers: Record<string, string>, rate: number, ms: number): Promise<{ bytes: number; complete: boolean; seconds: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let bytes = 0;
    let tail = Buffer.alloc(0);
    let head = "";
    const s = net.connect(port, "127.0.0.1", () => s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`));
    s.on("data", (d: Buffer) => {
      bytes += d.length;
      if (head.length < 2048) head += d.toString("latin1", 0, Math.min(d.length, 2048));
      tail = Buffer.concat([tail, d]).subarray(-16);
      const elapsed = performance.now() - started;
      const ahead = bytes - (rate * elapsed) / 1000;
      if (elapsed < ms && ahead > 0) {
        s.pause();
        setTimeout(() => s.resume(), Math.min(250, (ahead / rate) * 1000));
      }
    });
    s.on("error", () => {});
    s.on("close", () => {
      const length = /content-length: (\d+)/i.exec(head.slice(0, head.indexOf("\r\n\r\n")));
      const complete = length ? bytes - (head.indexOf("\r\n\r\n") + 4) === Number(length[1]) : tail.toString("latin1").endsWith("\r\n0\r\n\r\n");
      resolve({ bytes, complete, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** `n` GETs from `n` sockets that never read; returns a function that closes them. */
function stalled(port: number, target: string, headers: (i: number) => Record<string, string>, n: number): () => void {
  const sockets = Array.from({ length: n }, (_, i) => {
    const s = net.connect(port, "127.0.0.1", () => {
      s.pause();
      s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers(i)).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`);
    });
    s.on("error", () => {});
    return s;
  });
  return () => sockets.forEach((s) => s.destroy());
}

export async function csvDownloadBench(o: { port: number; pid: number; snapshotId: number; tokenId: number; holders: number; users: Array<Record<string, string>> }): Promise<Record<string, unknown>> {
  const base = `http://127.0.0.1:${o.port}`;
  const as = (i: number) => ({ ...o.users[i % o.users.length]!, "x-forwarded-for": `10.1.${Math.floor(i / 4)}.${i % 4}` });
  // The current list: the first download dumps it (headers come once the file is whole), the next ones share it.
  const t0 = performance.now();
  const first = await fetch(`${base}/assets/holders/${o.tokenId}`, { headers: { ...as(0), accept: "text/csv" } });
  const dumpMs = performance.now() - t0;
  const text = await first.text();
  const readMs = performance.now() - t0 - dumpMs;
  const lines = text.split("\n").length - 2;
  const t1 = performance.now();
  const shared = await Promise.all([1, 2, 3, 4].map(async (i) => (await (await fetch(`${base}/assets/holders/${o.tokenId}`, { headers: { ...as(i), accept: "text/csv" } })).text()).length));
  const sharedMs = performance.now() - t1;
  rows.push({ what: `current holder list as CSV (${lines.toLocaleString("en")} holders${lines === o.holders ? "" : ": WRONG"}): dumped to its file (the transaction's whole life), then read`, figure: `${Math.round(dumpMs)} ms dump (${Math.round(lines / (dumpMs / 1000)).toLocaleString("en")} rows/s), ${Math.round(readMs)} ms read; 4 more sharing it: ${Math.round(sharedMs)} ms`, target: "the transaction no longer lasts the download", met: lines === o.holders && shared.every((n) => n === text.length) });
  // Memory per open download: 64 stalled readers of each kind (16 addresses × 4, two per user).
  const memory: Record<string, [number, number]> = {};
  for (const [kind, target, accept] of [["snapshot", `/snapshots/${o.snapshotId}/holders.csv`, {}], ["current", `/assets/holders/${o.tokenId}`, { accept: "text/csv" }]] as const) {
    const before = currentRssMb(o.pid);
    const close = stalled(o.port, target, (i) => ({ ...as(i), ...o.users[Math.floor(i / 2)], ...accept }), 64);
    await new Promise((r) => setTimeout(r, 3_000));
    memory[kind] = [before, currentRssMb(o.pid)];
    close();
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const grew = Math.max(...Object.values(memory).map(([a, b]) => b - a));
  rows.push({ what: "API RSS with 64 stalled CSV downloads open (16 addresses × 4), of each kind", figure: `snapshot list ${memory.snapshot!.join(" → ")} MB, current list ${memory.current!.join(" → ")} MB`, target: "256 downloads (the total) ≤ 64 MB", met: grew * 4 <= 64 });
  // A steady 32 KB/s reader for 45 s (the production 30 s write deadline cut such readers at ≈ 34 s), then the rest.
  log("  a 32 KB/s reader for 45 s…");
  const slow = await readAt(o.port, `/snapshots/${o.snapshotId}/holders.csv`, as(60), 32 * 1024, 45_000);
  rows.push({ what: "a raw-socket reader at 32 KB/s for 45 s, then the rest, under the 30 s write deadline", figure: `${slow.complete ? "whole" : "CUT"}: ${(slow.bytes / 2 ** 20).toFixed(1)} MiB in ${slow.seconds.toFixed(1)} s`, target: "never cut above 16 KB/s", met: slow.complete });
  return { currentCsv: { dumpMs: Math.round(dumpMs), readMs: Math.round(readMs), sharedMs: Math.round(sharedMs), lines }, downloadKb: memory, slowReader: slow };
}
