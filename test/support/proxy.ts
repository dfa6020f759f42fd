/** A TCP relay whose connections a test can cut, to drop a WebSocket mid-stream. */
import net from "node:net";

export interface Relay {
  url: string;
  /** Destroys every open connection (new ones are still accepted). */
  cut(): void;
  /** An outage: cuts every connection and refuses new ones until resume(). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startRelay(target: { host: string; port: number }, scheme = "ws"): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  let paused = false;
  const server = net.createServer((client) => {
    if (paused) return void client.resetAndDestroy();
    const upstream = net.connect(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    pause: () => {
      paused = true;
      for (const s of sockets) s.destroy();
    },
    resume: () => {
      paused = false;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
