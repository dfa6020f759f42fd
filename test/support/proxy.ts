/** A TCP relay whose connections a test can cut, refuse or freeze: a WebSocket dropped mid-stream, a database outage, a database that hangs. */
import net from "node:net";

export interface Relay {
  url: string;
  /** Destroys every open connection (new ones are still accepted). */
  cut(): void;
  /** An outage: cuts every connection and refuses new ones until resume(). */
  pause(): void;
  resume(): void;
  /**
   * A hang, not an outage: nothing is forwarded in either direction and nothing is closed or
   * reset. The relay stops reading, so the kernel's buffers fill and the peers' writes stall as
   * they would behind a frozen host or a dropped route. New connections are accepted and held the
   * same way (a TCP connect succeeds, the handshake never answers). `existingOnly`: only the
   * connections open now freeze, for good (until unfreeze()); new ones are forwarded — a peer
   * that vanished without a RST while the server itself is fine (a NAT entry dropped, a failover).
   */
  freeze(opts?: { existingOnly?: boolean }): void;
  /** Forwards again everything frozen, from where it stopped (nothing is lost). */
  unfreeze(): void;
  /** Open connections (client side): the ones a peer closed are gone from it. */
  connections(): number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  frozen: boolean;
}

export async function startRelay(target: { host: string; port: number }, scheme = "ws"): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<Pair>();
  let paused = false;
  let freezeNew = false;

  const hold = (p: Pair) => {
    p.frozen = true;
    p.client.unpipe(p.upstream);
    p.upstream.unpipe(p.client);
    p.client.pause();
    p.upstream.pause();
  };
  const forward = (p: Pair) => {
    p.frozen = false;
    p.client.pipe(p.upstream);
    p.upstream.pipe(p.client);
  };

  const server = net.createServer((client) => {
    if (paused) return void client.resetAndDestroy();
    const upstream = net.connect(target);
    const pair: Pair = { client, upstream, frozen: false };
    pairs.add(pair);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.on("close", () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    if (freezeNew) hold(pair);
    else forward(pair);
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
    freeze: (opts = {}) => {
      freezeNew = !opts.existingOnly;
      for (const p of pairs) if (!p.frozen) hold(p);
    },
    unfreeze: () => {
      freezeNew = false;
      for (const p of pairs) if (p.frozen) forward(p);
    },
    connections: () => pairs.size,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
