import type { Token } from "../../db/index.js";

/** What kind of token a row is, as every token answer says it: kind, chain asset id, location. */
export function tokenIdentity(t: Pick<Token, "kind" | "assetId" | "location">) {
  return { kind: t.kind, assetId: t.assetId ?? null, location: (t.location ?? null) as Record<string, unknown> | null };
}
