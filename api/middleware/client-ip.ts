import type { Context } from "hono";
import ipaddr from "ipaddr.js";

/**
 * The key of a parsed address: an IPv4 address as is (IPv4-mapped IPv6 too), an IPv6 address by
 * its /64 — one subscriber's whole prefix, since a single host usually owns a /64 and could
 * otherwise rotate through 2^64 addresses to reset every limit.
 */
function keyOf(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    const parts = v6.parts.slice(0, 4).map((p) => p.toString(16));
    return `${parts.join(":")}::/64`;
  }
  return ip.toString();
}

/**
 * The wider prefix a client key is counted under as well, where one holder can rotate through
 * many keys: an IPv6 /64's /48. A /48 is what registries and ISPs assign to one site (RFC 6177,
 * RIPE-690), and costs no more to hold than one IPv4 address while it holds 65,536 /64s. An IPv4
 * key has none: addresses are scarce and rented one by one, and the /24 around one is routinely
 * shared by unrelated customers (residential pools, carrier-grade NAT, cloud tenants), so a /24
 * budget would charge strangers for each other and cost an attacker with scattered addresses
 * nothing. Keys are clientAddress's: `a:b:c:d::/64` gives `a:b:c::/48`.
 */
export function widerPrefix(key: string): string | undefined {
  if (!key.endsWith("::/64")) return undefined;
  return `${key.slice(0, -"::/64".length).split(":").slice(0, 3).join(":")}::/48`;
}

/** An IPv4 or IPv6 address (an IPv6 zone, `%eth0`, dropped), or undefined. */
function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.includes("%") ? text.slice(0, text.indexOf("%")) : text;
  try {
    return ipaddr.parse(bare);
  } catch {
    return undefined;
  }
}

/** A dotted-quad IPv4 address or an IPv6 address (zone dropped): no `127.1`, no `3232235777`. */
function parseStrict(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  const bare = text.includes("%") ? text.slice(0, text.indexOf("%")) : text;
  return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : undefined;
}

/**
 * One X-Forwarded-For entry as an address: `IPv4`, `IPv6`, `IPv4:port`, `[IPv6]` or
 * `[IPv6]:port` (what proxies that append the peer's port write). Anything else is undefined: it
 * is never a key.
 */
export function parseForwarded(entry: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) {
    const ip = parseStrict(bracketed[1]!);
    return ip?.kind() === "ipv6" ? ip : undefined;
  }
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(entry);
  if (withPort) return ipaddr.IPv4.isValidFourPartDecimal(withPort[1]!) ? ipaddr.IPv4.parse(withPort[1]!) : undefined;
  return parseStrict(entry);
}

/**
 * The key an address is counted under (see keyOf). Anything unparsable is counted under itself,
 * truncated — only a socket's address comes here, and the kernel writes that; client-supplied
 * text goes through clientAddress, which never uses an unparsable entry.
 */
export function clientKey(address: string): string {
  const ip = parseIp(address);
  return ip ? keyOf(ip) : address.slice(0, 64);
}

/**
 * The client's key: the socket's peer, or, behind `trustProxy` proxies, the address the outermost
 * trusted proxy saw (that many entries from the right of X-Forwarded-For). An entry that is not
 * an address (IPv4, IPv6, `IPv4:port`, `[IPv6]:port`) is never used: the nearest trusted hop to
 * its right that is one is, else the socket's peer. So a key is always an IPv4 address, an IPv6
 * /64 (`2001:db8:0:1::/64`) or "unknown", never text a client chose — rate-limit keys cannot
 * name another counter (`login:…`).
 */
export function clientAddress(remote: string | undefined, forwardedFor: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const chain = (forwardedFor ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    // Entries right of the chosen one were written by trusted proxies: moving right only ever
    // trusts more, never less.
    for (let i = Math.max(0, chain.length - trustProxy); i < chain.length; i++) {
      const ip = parseForwarded(chain[i]!);
      if (ip) return keyOf(ip);
    }
  }
  const ip = remote === undefined ? undefined : parseIp(remote);
  return ip ? keyOf(ip) : "unknown";
}

/** Socket peer addresses' keys, remembered: parsing an address was a third of the rate limit's cost. */
const peers = new Map<string, string>();

/** clientAddress of a socket's peer alone (no proxy trusted), remembered (at most 10,000 addresses at a time). */
export function peerKey(remote: string | undefined): string {
  if (remote === undefined) return clientAddress(undefined, undefined, 0);
  let key = peers.get(remote);
  if (key === undefined) {
    if (peers.size >= 10_000) peers.clear();
    peers.set(remote, (key = clientAddress(remote, undefined, 0)));
  }
  return key;
}

/** The client key of an HTTP request (see clientAddress). */
export function clientIp(c: Context, trustProxy: number): string {
  // The Node request @hono/node-server passes as c.env.incoming (getConnInfo reads the same, and
  // the port and family besides); none under app.request() in tests.
  const remote = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return trustProxy > 0 ? clientAddress(remote, c.req.header("x-forwarded-for"), trustProxy) : peerKey(remote);
}

/**
 * TRUST_PROXY_FROM: whether a socket's peer is one of the proxies whose X-Forwarded-For is read.
 * Without the setting every peer is (the replicas must then be reachable only through the proxy).
 */
export function trustedPeers(ranges: string[] | undefined): ((remote: string | undefined) => boolean) | undefined {
  if (!ranges) return undefined;
  const cidrs = ranges.map((r) => (r.includes("/") ? ipaddr.parseCIDR(r) : ([ipaddr.parse(r), ipaddr.parse(r).kind() === "ipv4" ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number])));
  return (remote) => {
    let ip = remote === undefined ? undefined : parseIp(remote);
    if (!ip) return false;
    if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    return cidrs.some(([range, bits]) => range.kind() === ip!.kind() && ip!.match(range as never, bits));
  };
}

/**
 * Drops X-Forwarded-For from a request whose peer is not a trusted proxy, before anything reads
 * it: Node's parsed headers and the raw list @hono/node-server builds its Request from.
 */
export function dropUntrustedForwarding(req: { headers: Record<string, unknown>; rawHeaders: string[]; socket: { remoteAddress?: string | undefined } }, trusted: (remote: string | undefined) => boolean): void {
  if (req.headers["x-forwarded-for"] === undefined || trusted(req.socket.remoteAddress)) return;
  delete req.headers["x-forwarded-for"];
  const raw = req.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== "x-forwarded-for") kept.push(raw[i]!, raw[i + 1]!);
  req.rawHeaders = kept;
}
