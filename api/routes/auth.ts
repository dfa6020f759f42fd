import { createHash, randomUUID } from "node:crypto";
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { findUserByEmail, insertUser, type Database } from "../../db/index.js";
import { AppError } from "../../shared/errors.js";
import { decoyHash, hashPassword, verifyPassword } from "../auth/password.js";
import { TOKEN_LIFETIME_SECONDS, type TokenIssuer } from "../auth/tokens.js";
import type { AppEnv } from "../env.js";
import { clientIp, widerPrefix } from "../middleware/client-ip.js";
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
  description:
    "Registrations with a valid body (EMAIL_TAKEN included) are limited to 10 an hour per client (an IPv4 address or an IPv6 /64) and 30 an hour per IPv6 /48: 429 RATE_LIMITED with Retry-After, before the password is hashed. " +
    "Password hashing is bounded: when too many sign-ins are hashing at once, or this client already has 6 in progress (12 per IPv6 /48), 503 SERVICE_UNAVAILABLE with Retry-After: 1, and the registration is not counted.",
  request: { body: { ...json(RegisterBody, "New account"), required: true } },
  responses: { 200: json(RegisterResponse, "Registered; the token is valid for 24 h"), ...errors("EMAIL_TAKEN", "RATE_LIMITED", "SERVICE_UNAVAILABLE", ...BODY_ERRORS) },
});

const login = createRoute({
  method: "post",
  path: "/auth/login",
  operationId: "login",
  security: [],
  tags: ["auth"],
  summary: "Obtain a token",
  description:
    "Failed attempts (a wrong email or password) are limited to 5 per 15 min per email and client, and 20 per 15 min per client (429 RATE_LIMITED with Retry-After); a successful login does not count, nor one refused for any other reason. " +
    "Sign-ins of any outcome are limited to 10 a minute per client and 30 per IPv6 /48 (429 RATE_LIMITED with Retry-After). " +
    "Password hashing is bounded: when too many sign-ins are hashing at once, or this client already has 6 in progress (12 per IPv6 /48), 503 SERVICE_UNAVAILABLE with Retry-After: 1.",
  request: { body: { ...json(LoginBody, "Credentials"), required: true } },
  responses: {
    200: json(LoginResponse, "A token valid for expiresIn seconds"),
    ...errors("INVALID_CREDENTIALS", "RATE_LIMITED", "SERVICE_UNAVAILABLE", ...BODY_ERRORS),
  },
});

/** Failed logins allowed per window: per email from one client, and per client over all emails. */
export const LOGIN_LIMITS = { windowMs: 15 * 60_000, perEmailAndClient: 5, perClient: 20 } as const;

export interface LoginGuard {
  store: RateLimitStore;
  /**
   * Counts kept in this process while `store` (Redis) fails: the sign-in budgets fall back to
   * per-replica counters instead of letting every attempt through (issue 38, round-3 review: with
   * Redis down, 60 guesses at an email already locked all got 401 in 5 s). A budget is then per
   * replica: N replicas allow N times it, still a bound.
   */
  fallback: RateLimitStore;
  trustProxy: number;
  now: () => number;
}

/** One sliding-window counter a request is charged to: its key, window and limit, and who the 429 names. */
interface Budget {
  key: string;
  windowMs: number;
  max: number;
  who: string;
  what: string;
}

/** A charge made, to take back: the store it went to (the shared one, or the fallback). */
interface Charge {
  store: RateLimitStore;
  key: string;
  entry: string;
}

async function uncharge(charges: Charge[]): Promise<void> {
  await Promise.all(charges.map(({ store, key, entry }) => store.undo(key, entry).catch(() => {})));
}

/**
 * Charges a request to every budget before the work it pays for (so a burst in one tick cannot get
 * more than the limit), or refuses it with 429 and Retry-After, charging none. Returns the charges,
 * in the budgets' order. A shared store that fails is replaced by this process's counters for
 * that budget (guard.fallback), never skipped.
 */
async function reserve(guard: LoginGuard, budgets: Budget[]): Promise<Charge[]> {
  const charges: Charge[] = [];
  for (const { key, windowMs, max, who, what } of budgets) {
    let store = guard.store;
    let hit: RateLimitHit;
    try {
      hit = await store.hit(key, guard.now(), windowMs, max);
    } catch {
      store = guard.fallback;
      hit = await store.hit(key, guard.now(), windowMs, max);
    }
    if (!hit.allowed) {
      await uncharge(charges);
      const retry = String(Math.max(1, Math.ceil(hit.resetMs / 1000)));
      throw new AppError("RATE_LIMITED", `Too many ${what} ${who}; retry after ${retry} s.`, { "Retry-After": retry });
    }
    if (hit.entry) charges.push({ store, key, entry: hit.entry });
  }
  return charges;
}

/**
 * Sign-ins per minute that get as far as hashing, whatever their outcome, per client key and per
 * IPv6 /48. Only failed ones were counted: a client signing in correctly in a loop, from a fresh
 * /64 each time, held its share of the hash queue for free — 8 /48s left a bystander 7 of 27
 * sign-ins, 3 without the edge none of 56 (issue 38, round-3 review). Hashing takes 60–100 ms on
 * 2 places, ≈ 1,200–2,000 a minute: at 10 a client and 30 a /48, starving it takes 40–70 /48s or
 * 120–200 IPv4 addresses. 10 a minute is more than the people behind one address sign in.
 */
export const SIGNIN_LIMITS = { windowMs: 60_000, perClient: 10, perPrefix: 30 } as const;

/**
 * A login's charges: the hash budgets (kept, whatever the outcome but a busy refusal), then the
 * failed-attempt budgets (given back unless the password is wrong). Keys hold a hash of the email,
 * never the email.
 */
async function reserveLogin(guard: LoginGuard, ip: string, email: string): Promise<{ hashes: Charge[]; attempt: Charge[] }> {
  const who = createHash("sha256").update(email).digest("base64url").slice(0, 22);
  const prefix = widerPrefix(ip);
  // `ip` is a client key (an IPv4 address, an IPv6 /64 or "unknown", never client-chosen text), so
  // request-limit keys (bare client keys) never start with "login:", and these never collide.
  const hashing: Budget[] = [{ key: `login:hash:${ip}`, windowMs: SIGNIN_LIMITS.windowMs, max: SIGNIN_LIMITS.perClient, who: "from this client", what: "sign-ins" }];
  if (prefix) hashing.push({ key: `login:hash-net:${prefix}`, windowMs: SIGNIN_LIMITS.windowMs, max: SIGNIN_LIMITS.perPrefix, who: "from this client's network (IPv6 /48)", what: "sign-ins" });
  const failed: Budget[] = [
    { key: `login:email:${who}:${ip}`, windowMs: LOGIN_LIMITS.windowMs, max: LOGIN_LIMITS.perEmailAndClient, who: "for this email from this client", what: "failed sign-ins" },
    { key: `login:client:${ip}`, windowMs: LOGIN_LIMITS.windowMs, max: LOGIN_LIMITS.perClient, who: "from this client", what: "failed sign-ins" },
  ];
  const charges = await reserve(guard, [...hashing, ...failed]);
  // Budgets without an entry (a store that counts without one) are not in `charges`: split by key.
  const hashKeys = new Set(hashing.map((b) => b.key));
  return { hashes: charges.filter((c) => hashKeys.has(c.key)), attempt: charges.filter((c) => !hashKeys.has(c.key)) };
}

/**
 * Registrations per hour that get as far as hashing the password, per client key and per IPv6
 * /48 (api/middleware/client-ip.ts widerPrefix). Before, only the 100 requests a minute bounded
 * them: 6,000 free accounts an hour from one address, each one a hash (issue 38, finding 3).
 * 10 an hour is more than a household or office behind one address signs up; 30 a /48 is three
 * addresses' worth for a site that holds 65,536 /64s. Each registration with a valid body counts,
 * EMAIL_TAKEN included (it cost a hash, and it tells whether an email has an account); a body
 * refused by validation never reaches here (no hash), and one whose hash was refused as busy
 * (503) is uncounted.
 */
export const REGISTER_LIMITS = { windowMs: 60 * 60_000, perClient: 10, perPrefix: 30 } as const;

function reserveRegistration(guard: LoginGuard, ip: string): Promise<Charge[]> {
  const prefix = widerPrefix(ip);
  const budgets: Budget[] = [{ key: `register:client:${ip}`, windowMs: REGISTER_LIMITS.windowMs, max: REGISTER_LIMITS.perClient, who: "from this client", what: "registrations" }];
  if (prefix) budgets.push({ key: `register:net:${prefix}`, windowMs: REGISTER_LIMITS.windowMs, max: REGISTER_LIMITS.perPrefix, who: "from this client's network (IPv6 /48)", what: "registrations" });
  return reserve(guard, budgets);
}

export function authRoutes(deps: { db: Database; tokens: TokenIssuer; guard: LoginGuard }) {
  return new OpenAPIHono<AppEnv>()
    .openapi(register, async (c) => {
      const { email, password, name } = c.req.valid("json");
      const ip = clientIp(c, deps.guard.trustProxy);
      const charges = await reserveRegistration(deps.guard, ip);
      let passwordHash: string;
      try {
        passwordHash = await hashPassword(password, ip);
      } catch (err) {
        await uncharge(charges); // refused as busy: no hash was spent, no account made
        throw err;
      }
      const userId = randomUUID();
      const created = await insertUser(deps.db, { id: userId, email, passwordHash, name: name ?? null });
      if (!created) throw new AppError("EMAIL_TAKEN", "An account with this email already exists.");
      const token = await deps.tokens.issue(userId);
      return c.json({ success: true as const, message: "User registered.", data: { userId, token, expiresIn: TOKEN_LIFETIME_SECONDS } }, 200);
    })
    .openapi(login, async (c) => {
      const { email, password } = c.req.valid("json");
      const ip = clientIp(c, deps.guard.trustProxy);
      const { hashes, attempt } = await reserveLogin(deps.guard, ip, email);
      let user: Awaited<ReturnType<typeof findUserByEmail>>;
      let ok: boolean;
      try {
        user = await findUserByEmail(deps.db, email);
        // Verify against a decoy when the email is unknown: same work, same answer, same timing.
        ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash(ip)), ip);
      } catch (err) {
        // Only a wrong password is a failed attempt: a hash refused as busy (someone else's storm),
        // a store error, anything thrown, is uncounted — else a flood of other clients' sign-ins
        // locked a user out who never typed a wrong password (issue 38, finding 3). A hash that
        // was refused was not spent either.
        await uncharge([...attempt, ...hashes]);
        throw err;
      }
      if (!user || !ok) throw new AppError("INVALID_CREDENTIALS", "The email or password is incorrect.");
      await uncharge(attempt);
      return c.json({ success: true as const, data: { token: await deps.tokens.issue(user.id), expiresIn: TOKEN_LIFETIME_SECONDS } }, 200);
    });
}
