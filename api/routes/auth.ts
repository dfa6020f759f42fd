import { createHash, randomUUID } from "node:crypto";
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { findUserByEmail, insertUser, type Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import { decoyHash, hashPassword, verifyPassword } from "../auth/password.js";
import { TOKEN_LIFETIME_SECONDS, type TokenIssuer } from "../auth/tokens.js";
import type { AppEnv } from "../env.js";
import { clientIp } from "../middleware/client-ip.js";
import type { RateLimitHit, RateLimitStore } from "../rate-limit/store.js";
import { COMMON_ERRORS, errors, json } from "../schemas.js";

const Email = z
  .string()
  .max(254, "must be at most 254 characters")
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.email("must be an email address"))
  .openapi({ example: "ada@example.com", description: "Trimmed and lower-cased before use" });

const RegisterBody = z
  .object({
    email: Email,
    password: z.string().min(8, "must be at least 8 characters").max(128, "must be at most 128 characters"),
    name: z.string().trim().min(1, "must be 1 to 64 characters").max(64, "must be 1 to 64 characters").optional(),
  })
  .openapi("RegisterRequest");

const LoginBody = z
  .object({ email: Email, password: z.string().min(1, "is required").max(128, "must be at most 128 characters") })
  .openapi("LoginRequest");

const RegisterResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    data: z.object({ userId: z.string(), token: z.string(), expiresIn: z.number().int() }),
  })
  .openapi("RegisterResponse");

const LoginResponse = z
  .object({ success: z.literal(true), data: z.object({ token: z.string(), expiresIn: z.number().int() }) })
  .openapi("LoginResponse");

const BODY_ERRORS = ["VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", ...COMMON_ERRORS] as const;

const register = createRoute({
  method: "post",
  path: "/auth/register",
  operationId: "register",
  security: [],
  tags: ["auth"],
  summary: "Create a user and receive a token",
  request: { body: { ...json(RegisterBody, "New account"), required: true } },
  responses: { 200: json(RegisterResponse, "Registered; the token is valid for 24 h"), ...errors("EMAIL_TAKEN", ...BODY_ERRORS) },
});

const login = createRoute({
  method: "post",
  path: "/auth/login",
  operationId: "login",
  security: [],
  tags: ["auth"],
  summary: "Obtain a token",
  description: "Failed attempts are limited to 5 per 15 min per email and client, and 20 per 15 min per client (429 with Retry-After); a successful login does not count.",
  request: { body: { ...json(LoginBody, "Credentials"), required: true } },
  responses: {
    200: json(LoginResponse, "A token valid for expiresIn seconds"),
    ...errors("INVALID_CREDENTIALS", "SERVICE_UNAVAILABLE", ...BODY_ERRORS),
  },
});

/** Failed logins allowed per window: per email from one client, and per client over all emails. */
export const LOGIN_LIMITS = { windowMs: 15 * 60_000, perEmailAndClient: 5, perClient: 20 } as const;

export interface LoginGuard {
  store: RateLimitStore;
  trustProxy: number;
  now: () => number;
}

/**
 * Counts a login attempt as failed before it is checked (so a burst in one tick cannot get more
 * tries than the limit), and uncounts it when it succeeds. Keys hold a hash of the email, never
 * the email. A counter store outage lets logins through, like the request limit.
 */
async function reserveAttempt(guard: LoginGuard, ip: string, email: string): Promise<() => Promise<void>> {
  const who = createHash("sha256").update(email).digest("base64url").slice(0, 22);
  // `ip` is a client key (an IPv4 address, an IPv6 /64 or "unknown", never client-chosen text), so
  // request-limit keys (bare client keys) never start with "login:", and these two never collide.
  const keys = [`login:email:${who}:${ip}`, `login:client:${ip}`];
  const maxes = [LOGIN_LIMITS.perEmailAndClient, LOGIN_LIMITS.perClient];
  const counted: [string, string][] = [];
  const undo = async () => {
    await Promise.all(counted.map(([key, entry]) => guard.store.undo(key, entry).catch(() => {})));
  };
  for (let i = 0; i < keys.length; i++) {
    let hit: RateLimitHit;
    try {
      hit = await guard.store.hit(keys[i]!, guard.now(), LOGIN_LIMITS.windowMs, maxes[i]!);
    } catch {
      break;
    }
    if (!hit.allowed) {
      await undo();
      const retry = String(Math.max(1, Math.ceil(hit.resetMs / 1000)));
      throw new AppError("RATE_LIMITED", `Too many failed sign-ins ${i === 0 ? "for this email from this client" : "from this client"}; retry after ${retry} s.`, { "Retry-After": retry });
    }
    if (hit.entry) counted.push([keys[i]!, hit.entry]);
  }
  return undo;
}

export function authRoutes(deps: { db: Database; tokens: TokenIssuer; guard: LoginGuard }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(register, async (c) => {
      const { email, password, name } = c.req.valid("json");
      const userId = randomUUID();
      const created = await insertUser(deps.db, { id: userId, email, passwordHash: await hashPassword(password), name: name ?? null });
      if (!created) throw new AppError("EMAIL_TAKEN", "An account with this email already exists.");
      const token = await deps.tokens.issue(userId);
      return c.json({ success: true as const, message: "User registered.", data: { userId, token, expiresIn: TOKEN_LIFETIME_SECONDS } }, 200);
    })
    .openapi(login, async (c) => {
      const { email, password } = c.req.valid("json");
      const succeeded = await reserveAttempt(deps.guard, clientIp(c, deps.guard.trustProxy), email);
      const user = await findUserByEmail(deps.db, email);
      // Verify against a decoy when the email is unknown: same work, same answer, same timing.
      const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
      if (!user || !ok) throw new AppError("INVALID_CREDENTIALS", "The email or password is incorrect.");
      await succeeded();
      return c.json({ success: true as const, data: { token: await deps.tokens.issue(user.id), expiresIn: TOKEN_LIFETIME_SECONDS } }, 200);
    });
}
