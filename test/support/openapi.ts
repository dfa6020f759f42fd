/**
 * Reading the API's own OpenAPI document in tests: which error codes a route documents for a
 * status. Each error response's description lists its codes ("TOKEN_NOT_FOUND, PRICE_UNAVAILABLE",
 * or "SERVICE_UNAVAILABLE: why"), as api/schemas.ts errors() writes it; the shared Error schema
 * allows every code, so a route answering a code it does not document passes a schema check.
 */
export function documentedCodes(response: { description?: string } | undefined): string[] {
  return (response?.description ?? "").split(":")[0]!.split(",").map((c) => c.trim()).filter(Boolean);
}
