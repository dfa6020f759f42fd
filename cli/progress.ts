/**
 * Progress of a block range: a bar (blocks done / total, blocks/s, ETA) on a terminal, one plain
 * line every few seconds otherwise (logs, CI, pipes). Blocks/s counts only the blocks of this
 * run, not the chunks a previous run had already finished.
 */
import { SingleBar } from "cli-progress";

export interface ProgressReporter {
  /** Sets the blocks done so far (including those done before this run). */
  update(done: number): void;
  stop(): void;
  /** Blocks per second over this run. */
  readonly rate: number;
}

const LINE_EVERY_MS = 2_000;

function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}

/** `extra`: text shown after the figures, read at each update (a backfill's coverage of history). */
export function progressReporter(
  label: string,
  total: number,
  initial: number,
  stream: NodeJS.WriteStream = process.stderr,
  unit = "blocks",
  extra: () => string = () => "",
): ProgressReporter {
  const started = performance.now();
  let done = initial;
  const rate = () => {
    const seconds = (performance.now() - started) / 1_000;
    return seconds > 0 ? (done - initial) / seconds : 0;
  };
  const eta = () => (rate() > 0 ? formatEta((total - done) / rate()) : "?");

  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: `${label} [{bar}] {value}/{total} ${unit} | {rate} ${unit}/s | ETA {etaText}{extra}`,
      hideCursor: true,
      barsize: 30,
    });
    const more = () => (extra() ? ` | ${extra()}` : "");
    bar.start(total, initial, { rate: "0.0", etaText: "?", extra: more() });
    return {
      update(n) {
        done = n;
        bar.update(n, { rate: rate().toFixed(1), etaText: eta(), extra: more() });
      },
      stop() {
        bar.update(done, { rate: rate().toFixed(1), etaText: "0 s", extra: more() });
        bar.stop();
      },
      get rate() {
        return rate();
      },
    };
  }

  let lastLine = 0;
  const line = () => {
    lastLine = performance.now();
    const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
    stream.write(`${label}: ${done}/${total} ${unit} (${pct}%), ${rate().toFixed(1)} ${unit}/s, ETA ${eta()}${extra() ? `, ${extra()}` : ""}\n`);
  };
  return {
    update(n) {
      done = n;
      if (performance.now() - lastLine >= LINE_EVERY_MS) line();
    },
    stop() {
      line();
    },
    get rate() {
      return rate();
    },
  };
}
