import { SignJWT, jwtVerify } from "jose";
import { LRUCache } from "lru-cache";

export const TOKEN_LIFETIME_SECONDS = 86_400;

export interface TokenIssuer {
  issue(userId: string): Promise<string>;
  /** The userId (sub) of a valid token, or undefined for a bad, expired or foreign token. */
  verify(token: string): Promise<string | undefined>;
  /**
   * Without a promise, for a token verified before: its userId while unexpired, `false` once
   * expired, `undefined` when it was never verified here (then call verify()).
   */
  known(token: string): string | false | undefined;
}

/** HS256 JWTs with exp − iat = 86400; only HS256 is accepted, so "alg":"none" never passes. */
export function createTokenIssuer(secret: string, now: () => number): TokenIssuer {
  const key = new TextEncoder().encode(secret);
  const verified = new LRUCache<string, { sub: string; exp: number }>({ max: 10_000 });
  return {
    async issue(userId) {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
        .sign(key);
    },
    known(token) {
      const known = verified.get(token);
      if (!known) return undefined;
      return Math.floor(now() / 1000) < known.exp ? known.sub : false;
    },
    async verify(token) {
      // A token string whose signature checked out once stays authentic; only its expiry moves.
      // Remembering it spares the HMAC and JSON work on every request (the hot /assets/* path).
      const known = verified.get(token);
      if (known) {
        if (Math.floor(now() / 1000) < known.exp) return known.sub;
        verified.delete(token);
        return undefined;
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now()), requiredClaims: ["exp", "iat", "sub"] });
        // Only tokens shaped as this issuer makes them: a lifetime of exactly 24 h.
        if (!payload.sub || !payload.exp || payload.exp - (payload.iat ?? 0) !== TOKEN_LIFETIME_SECONDS) return undefined;
        verified.set(token, { sub: payload.sub, exp: payload.exp });
        return payload.sub;
      } catch {
        return undefined;
      }
    },
  };
}
