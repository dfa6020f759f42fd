/**
 * `npx tsx bench/tcp-wakeups.ts`: what a sender sees of a slow reader (issue 38, finding 5). A TCP
 * server writes pieces of PIECE bytes (with backpressure, as an HTTP response does) to a client on
 * loopback that reads at RATE bytes/s; every 20 ms it samples the connection budget's measure of
 * progress (`bytesWritten − writableLength`: what the kernel took) and reports the longest time it
 * stood still. Linux lets a sender write again only once a third of its (autotuned, ≤ 4 MB) send
 * buffer has drained, so the gaps follow buffer / 3 / rate, not the size of the pieces.
 */
import net from "node:net";

const RATES = (process.env.RATES ?? "32768,131072").split(",").map(Number);
const PIECES = (process.env.PIECES ?? "16384,1048576").split(",").map(Number);
const MS = Number(process.env.MS ?? 30_000);

function measure(rate: number, piece: number): Promise<{ rate: number; piece: number; taken: number; stillMs: number[] }> {
  return new Promise((resolve) => {
    const server = net.createServer((s) => {
      const chunk = Buffer.alloc(piece, 97);
      const pump = () => {
        while (s.write(chunk));
      };
      s.on("drain", pump);
      s.on("error", () => {});
      pump();
      let last = -1;
      let since = performance.now();
      const still: number[] = [];
      const sample = setInterval(() => {
        const moved = s.bytesWritten - s.writableLength;
        if (moved === last) return;
        if (last >= 0) still.push(Math.round(performance.now() - since));
        last = moved;
        since = performance.now();
      }, 20);
      setTimeout(() => {
        clearInterval(sample);
        // The spell still running at the end counts too.
        still.push(Math.round(performance.now() - since));
        client.destroy();
        s.destroy();
        server.close();
        resolve({ rate, piece, taken: last, stillMs: still });
      }, MS);
    });
    let client: net.Socket;
    server.listen(0, "127.0.0.1", () => {
      client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
      let bytes = 0;
      const started = performance.now();
      client.on("data", (d: Buffer) => {
        bytes += d.length;
        const ahead = bytes - (rate * (performance.now() - started)) / 1000;
        if (ahead > 0) {
          client.pause();
          setTimeout(() => client.resume(), (ahead / rate) * 1000);
        }
      });
      client.on("error", () => {});
    });
  });
}

for (const rate of RATES) {
  const runs = await Promise.all(PIECES.map((piece) => measure(rate, piece)));
  for (const r of runs) {
    console.log(`${(r.rate / 1024).toFixed(0)} KB/s, pieces of ${(r.piece / 1024).toFixed(0)} KB: the kernel took ${(r.taken / 2 ** 20).toFixed(1)} MiB in ${MS / 1000} s; longest spell without progress ${Math.max(...r.stillMs)} ms (spells: ${r.stillMs.slice(-6).join(", ")} ms)`);
  }
}
