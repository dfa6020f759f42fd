import "@polkadot/api-augment/assetHubKusama";
import { ApiPromise, WsProvider } from "@polkadot/api";

const CONNECT_TIMEOUT_MS = 15_000;

/**
 * One connection, no automatic reconnects: the caller owns reconnection, so that every new
 * connection starts again from committed state (the follower from its checkpoint, a backfill
 * chunk from its first block).
 */
export async function connect(wsUrl: string): Promise<ApiPromise> {
  const provider = new WsProvider(wsUrl, false);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no connection to ${wsUrl} within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      const offError = provider.on("error", (err) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(`cannot connect to ${wsUrl}`));
      });
      provider.isReady.then(() => {
        clearTimeout(timer);
        offError();
        resolve();
      }, reject);
      provider.connect().catch(reject);
    });
    return await ApiPromise.create({ provider, noInitWarn: true });
  } catch (err) {
    await provider.disconnect().catch(() => {});
    throw err;
  }
}
