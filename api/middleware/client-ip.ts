import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

function normalize(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}

/**
 * The client's IP: the socket's peer, or, behind `trustProxy` proxies, the address the
 * outermost trusted proxy saw (that many entries from the right of X-Forwarded-For).
 */
export function clientIp(c: Context, trustProxy: number): string {
  if (trustProxy > 0) {
    const chain = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const ip = chain[Math.max(0, chain.length - trustProxy)];
    if (ip) return normalize(ip);
  }
  try {
    const address = getConnInfo(c).remote.address;
    if (address) return normalize(address);
  } catch {
    // No socket (e.g. app.request() in tests): fall through.
  }
  return "unknown";
}
