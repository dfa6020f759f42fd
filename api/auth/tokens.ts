import { SignJWT, jwtVerify } from "jose";

export const TOKEN_LIFETIME_SECONDS = 86_400;

export interface TokenIssuer {
  issue(userId: string): Promise<string>;
  /** The userId (sub) of a valid token, or undefined for a bad, expired or foreign token. */
  verify(token: string): Promise<string | undefined>;
}

/** HS256 JWTs with exp − iat = 86400; only HS256 is accepted, so "alg":"none" never passes. */
export function createTokenIssuer(secret: string, now: () => number): TokenIssuer {
  const key = new TextEncoder().encode(secret);
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
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now()), requiredClaims: ["exp", "iat", "sub"] });
        return payload.sub;
      } catch {
        return undefined;
      }
    },
  };
}
