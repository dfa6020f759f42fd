/**
 * A CSV download as both CSV routes serve it (docs/api.md, "CSV downloads"): a place for the
 * user and client key (waiting in the fair queue if need be), then a stream sent at the client's
 * pace — its connection left to the download's own minimum-rate rule, not the write deadline
 * (api/connection-budget.ts pacedByItself) — and the place given back when it ends, however.
 */
import type { Context } from "hono";
import type { Logger } from "../../shared/logger.js";
import { pacedByItself } from "../connection-budget.js";
import { rawResponse, type AppEnv } from "../env.js";
import { clientIp } from "../middleware/client-ip.js";
import { deadlineOf } from "../middleware/deadline.js";
import type { DownloadHooks } from "../services/csv-pace.js";
import type { DownloadSlots } from "../services/download-slots.js";

export interface DownloadDeps {
  slots: DownloadSlots;
  trustProxy: number;
  logger: Logger;
}

/**
 * Serves the stream `open` makes (given the client key, and the hooks to pass on to it) under a
 * place of `deps.slots`; `what` names the download in the log when it is cut.
 */
export async function csvDownload(
  c: Context<AppEnv>,
  deps: DownloadDeps,
  what: Record<string, unknown>,
  open: (key: string, hooks: DownloadHooks) => Promise<{ body: ReadableStream<Uint8Array>; headers: Record<string, string> }>,
): Promise<Response> {
  const key = clientIp(c, deps.trustProxy);
  // Counted here, before the first await.
  const slot = deps.slots.enter(key, c.get("userId")!, deadlineOf(c));
  let unpace = (): void => {};
  try {
    await slot.ready;
    const res = rawResponse(c);
    const { body, headers } = await open(key, {
      end: (how, err) => {
        unpace();
        slot.release();
        if (how === "too_slow" || how === "failed") deps.logger.warn({ err, ...what, how }, "CSV download cut");
      },
      // With a socket (always, but under app.request() in tests), a cut ends the connection.
      cut: res ? () => void res.destroy() : undefined,
    });
    unpace = pacedByItself(res);
    return c.body(body, 200, headers);
  } catch (err) {
    slot.release();
    throw err;
  }
}
