import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import ipaddr from "ipaddr.js";

/**
 * The address a client is counted under: an IPv4 address as is (IPv4-mapped IPv6 too), an IPv6
 * address by its /64 — one subscriber's whole prefix, since a single host usually owns a /64
 * and could otherwise rotate through 2^64 addresses to reset every limit. Anything unparsable
 * (a proxy's garbage X-Forwarded-For entry) is counted under itself, truncated.
 */
export function clientKey(address: string): string {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.includes("%") ? address.slice(0, address.indexOf("%")) : address);
  } catch {
    return address.slice(0, 64);
  }
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    const parts = v6.parts.slice(0, 4).map((p) => p.toString(16));
    return `${parts.join(":")}::/64`;
  }
  return ip.toString();
}

/**
 * The client's address: the socket's peer, or, behind `trustProxy` proxies, the address the
 * outermost trusted proxy saw (that many entries from the right of X-Forwarded-For).
 */
export function clientAddress(remote: string | undefined, forwardedFor: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const chain = (forwardedFor ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const ip = chain[Math.max(0, chain.length - trustProxy)];
    if (ip) return clientKey(ip);
  }
  return remote ? clientKey(remote) : "unknown";
}

/** The rate-limit key of an HTTP request (see clientAddress). */
export function clientIp(c: Context, trustProxy: number): string {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // No socket (e.g. app.request() in tests): fall through.
  }
  return clientAddress(remote, trustProxy > 0 ? c.req.header("x-forwarded-for") : undefined, trustProxy);
}
