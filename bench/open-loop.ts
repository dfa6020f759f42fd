/**
 * A constant-rate (open-loop) HTTP load for the bench's fixed-rate measures (reads under ingest,
 * bench/under-ingest.ts; bench/pinned-controls.ts). Request i is due at start + i / rate and is
 * sent then on an idle keep-alive connection, or as soon as one of `connections` is free; its
 * latency is counted from when it was due. A stall of the server, or of this process, counts in
 * full for every request it held back, and no answer is counted twice.
 *
 * Not autocannon's `overallRate`, which is not a constant rate: autocannon 8.0.0 gives each
 * connection a budget per second (lib/httpClient.js), so every connection sends its share back to
 * back at the start of each second and then waits — a saturating burst once a second, whose
 * queueing is what a "fixed rate" p99 measured. And with a rate it corrects for coordinated
 * omission with an expected interval of `Math.ceil(1 / rate)` (lib/run.js), 1 ms whatever the
 * rate: an answer of L ms adds about L phantom answers, where at 5,000 req/s over 64 connections a
 * connection's interval is 12.8 ms.
 *
 * Hand-written on node:net rather than on an HTTP client library: the generator shares a core with
 * the server it measures, and its own pauses count as the server's latency. On undici it
 * garbage-collected 110 times in 9 s at 1,000 answers of 165 KB a second, 5–19 ms each, and fell
 * up to 58 ms behind its schedule. Here each connection reads into one reused buffer (`onread`),
 * an answer's body is counted, not kept, and only its head (status, Content-Length) is parsed.
 * Enough HTTP/1.1 for the bench's own server: keep-alive (and Connection: close), Content-Length
 * bodies, no pipelining.
 */
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { createInterface } from "node:readline";

export interface OpenLoopResult {
  /** Each 2xx answer's latency in ms, from when its request was due. */
  latencies: number[];
  /** Requests sent. */
  sent: number;
  /** Answers other than 2xx, answers without a Content-Length, and requests cut or unanswered. */
  errors: number;
  /** How far behind its schedule the sending fell at worst (ms): this process's own stalls. */
  lateMax: number;
}

const HEAD_END = "\r\n\r\n";
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CLOSE = /\r\nconnection:[ \t]*close/i;
/** How long the run waits for answers still owed once the last request is sent. */
const DRAIN_MS = 30_000;

/** Requests to `url` at `rate` a second for `seconds`, over at most `connections` connections. */
export async function openLoop(url: string, seconds: number, rate: number, headers: Record<string, string> = {}, connections = 64): Promise<OpenLoopResult> {
  const target = new URL(url);
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  const request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n${extra}\r\n`, "latin1");
  const total = Math.round(seconds * rate);
  const latencies: number[] = [];
  const waiting: number[] = []; // due times of requests no connection was free for, oldest first
  let waitingAt = 0;
  const idle: Conn[] = [];
  const all = new Set<Conn>();
  let errors = 0;
  let sent = 0;
  let owed = 0; // requests sent and not yet answered or failed
  let finished = false;
  let drained: (() => void) | undefined;

  class Conn {
    readonly socket: Socket;
    due = -1; // the request on this connection, -1 when none
    head = "";
    remaining = -1; // body bytes still to come; -1 while the head is read
    ok = false;
    /** The answer under way said Connection: close: the connection is retired after it. */
    closing = false;
    connected = false;
    constructor() {
      this.socket = connect({ host: target.hostname, port: Number(target.port || 80), noDelay: true, onread: { buffer: Buffer.allocUnsafe(64 * 1024), callback: (n, buf) => (this.read(buf as Buffer, n), true) } });
      this.socket.once("connect", () => ((this.connected = true), this.free()));
      this.socket.on("error", () => {});
      this.socket.once("close", () => this.closed());
      all.add(this);
    }
    send(due: number) {
      this.due = due;
      this.head = "";
      this.remaining = -1;
      this.socket.write(request);
    }
    read(buf: Buffer, n: number) {
      if (this.due < 0) return; // nothing asked: bytes the server should not have sent
      let at = 0; // where this read's body bytes start
      if (this.remaining < 0) {
        let head: string;
        if (this.head === "") {
          // The usual case: the whole head in one read, parsed without copying the body's bytes.
          const end = buf.subarray(0, n).indexOf(HEAD_END);
          if (end < 0) {
            this.head = buf.toString("latin1", 0, n);
            return;
          }
          head = buf.toString("latin1", 0, end + 2);
          at = end + HEAD_END.length;
        } else {
          const before = this.head.length;
          this.head += buf.toString("latin1", 0, n);
          const end = this.head.indexOf(HEAD_END);
          if (end < 0) return;
          head = this.head.slice(0, end + 2);
          at = end + HEAD_END.length - before;
        }
        const length = CONTENT_LENGTH.exec(head);
        if (!length) {
          this.fail();
          return;
        }
        this.ok = head.startsWith("HTTP/1.1 2");
        this.closing = CLOSE.test(head);
        this.remaining = Number(length[1]);
      }
      this.remaining -= n - at;
      if (this.remaining <= 0) this.answered();
    }
    answered() {
      const latency = performance.now() - this.due;
      if (this.ok) latencies.push(latency);
      else errors++;
      this.due = -1;
      owed--;
      if (this.closing) this.socket.destroy(); // the server closes it: closed() puts another in its place
      else this.free();
    }
    fail() {
      errors++;
      owed--;
      this.due = -1;
      this.socket.destroy();
    }
    free() {
      if (waitingAt < waiting.length) this.send(waiting[waitingAt++]!);
      else idle.push(this);
      if (finished && owed === 0) drained?.();
    }
    closed() {
      all.delete(this);
      const i = idle.indexOf(this);
      if (i >= 0) idle.splice(i, 1);
      if (this.due >= 0) {
        errors++;
        owed--;
        this.due = -1;
      }
      // The server closed a keep-alive connection: another takes its place while requests remain
      // to send, also after the last fell due (not one that never connected: no server there).
      if (this.connected && (!finished || waitingAt < waiting.length)) new Conn();
      // Done, or no connection left to answer what is owed (the server went away): nothing more will come.
      else if (owed === 0 || all.size === 0) drained?.();
    }
  }

  for (let i = 0; i < connections; i++) new Conn();
  try {
    await new Promise<void>((resolve, reject) => {
      const first = [...all][0]!.socket;
      first.once("connect", () => resolve());
      first.once("error", reject);
    });
  } catch (err) {
    finished = true;
    for (const c of all) c.socket.destroy();
    throw err;
  }
  const start = performance.now();
  let lateMax = 0;
  while (sent < total) {
    const now = performance.now();
    // Every request due by now, each with its own due time (several a millisecond at 5,000 req/s).
    for (; sent < total && start + (sent * 1000) / rate <= now; sent++) {
      const due = start + (sent * 1000) / rate;
      lateMax = Math.max(lateMax, now - due);
      owed++;
      // The longest idle first: every connection stays in use, none idles into the server's keep-alive timeout.
      const conn = idle.shift();
      if (conn) conn.send(due);
      else waiting.push(due);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  finished = true;
  if (owed > 0) {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      drained = resolve;
      timer = setTimeout(resolve, DRAIN_MS);
    });
    clearTimeout(timer);
  }
  errors += owed; // never answered within DRAIN_MS
  for (const c of all) c.socket.destroy();
  return { latencies, sent, errors, lateMax };
}

/** The generator in a process of its own (bench/open-loop-child.ts): runs one at a time, each as openLoop() would. */
export interface LoadProcess {
  readonly pid: number;
  run(url: string, seconds: number, rate: number, headers?: Record<string, string>): Promise<OpenLoopResult>;
  close(): Promise<void>;
}

export async function loadProcess(): Promise<LoadProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/open-loop-child.ts"], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<{ resolve: (line: string) => void; reject: (e: Error) => void }> = [];
  let exited: Error | undefined;
  lines.on("line", (line) => waiting.shift()?.resolve(line));
  child.once("exit", (code, signal) => {
    exited = new Error(`the load process exited (${signal ?? code})`);
    for (const w of waiting.splice(0)) w.reject(exited);
  });
  const next = () => new Promise<string>((resolve, reject) => (exited ? reject(exited) : waiting.push({ resolve, reject })));
  if ((await next()) !== "ready") throw new Error("the load process did not start");
  return {
    pid: child.pid!,
    async run(url, seconds, rate, headers = {}) {
      if (exited) throw exited; // and no write to the stdin of a process that is gone
      const answer = next();
      child.stdin!.write(`${JSON.stringify({ url, seconds, rate, headers })}\n`);
      const r = JSON.parse(await answer) as OpenLoopResult | { error: string };
      if ("error" in r) throw new Error(`the load process: ${r.error}`);
      return r;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      child.stdin!.end(); // its stdin ends: nothing keeps it alive
      await gone;
    },
  };
}
