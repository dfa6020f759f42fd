/**
 * Generated from the TokenPool API document (/openapi.json) by openapi-typescript: do not edit.
 * Regenerate with `npm run client:types`; the test suite fails while this file differs from the
 * document the app serves.
 */

export interface paths {
    "/accounts/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Portfolio of one account: token balances, LP positions and their USD value; now, or as of a block (?at=) or a time (?atTime=) */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{address}/balances/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One token balance of an account, now or as of a block (?at=) or a time (?atTime=) */
        get: operations["getAccountBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{address}/lp-balances/{lpTokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One LP token balance (pool position) of an account, now or as of a block or a time */
        get: operations["getAccountLpBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{address}/swaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account's trades, every pool, newest first (keyset cursor)
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["listAccountSwaps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{address}/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account's transfers, in and out, every token, newest first (keyset cursor)
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["listAccountTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All tokens with supply, USD value and holder count (paginated, sortable; public) */
        get: operations["listAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Supply and holder count of a token over time
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["getAssetHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{id}/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A token's transfers, newest first (keyset cursor)
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["listAssetTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/holders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Holders by balance, descending (page/limit, or keyset cursor for deep pages) */
        get: operations["listAssetHolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/lp/{lpTokenId}/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An LP token's transfers (PoolAssets: liquidity added and removed, positions moved), newest first (keyset cursor)
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom. An LP token's mints and burns are its pool's liquidity added and removed; its holders at a block are a snapshot (POST /snapshots with lpTokenId).
         */
        get: operations["listLpTokenTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/metadata/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Token metadata, supply and treasury value; now, or as of a block (?at=) or a time (?atTime=) */
        get: operations["getAssetMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain a token
         * @description Failed attempts (a wrong email or password) are limited to 5 per 15 min per email and client, and 20 per 15 min per client (429 RATE_LIMITED with Retry-After); a successful login does not count, nor one refused for any other reason. Sign-ins of any outcome are limited to 10 a minute per client and 30 per IPv6 /48 (429 RATE_LIMITED with Retry-After). Password hashing is bounded: when too many sign-ins are hashing at once, or this client already has 6 in progress (12 per IPv6 /48), 503 SERVICE_UNAVAILABLE with Retry-After: 1.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a user and receive a token
         * @description Registrations with a valid body (EMAIL_TAKEN included) are limited to 10 an hour per client (an IPv4 address or an IPv6 /64) and 30 an hour per IPv6 /48: 429 RATE_LIMITED with Retry-After, before the password is hashed. Password hashing is bounded: when too many sign-ins are hashing at once, or this client already has 6 in progress (12 per IPv6 /48), 503 SERVICE_UNAVAILABLE with Retry-After: 1, and the registration is not counted.
         */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/asset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A token, as a DEX Screener Asset
         * @description DEX Screener Adapter Specs v1.1 (https://dexscreener.notion.site/DEX-Screener-Adapter-Specs-cc1223cdf6e74a7799599106b65dcd0e)
         */
        get: operations["getDexScreenerAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Swaps, joins and exits of a block range, with the reserves after them
         * @description DEX Screener Adapter Specs v1.1 (https://dexscreener.notion.site/DEX-Screener-Adapter-Specs-cc1223cdf6e74a7799599106b65dcd0e). A block the store lacks is refused (404), never answered empty; so is a range of more than 1000 blocks (400).
         */
        get: operations["getDexScreenerEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/latest-block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The newest block /dexscreener/events answers
         * @description DEX Screener Adapter Specs v1.1 (https://dexscreener.notion.site/DEX-Screener-Adapter-Specs-cc1223cdf6e74a7799599106b65dcd0e)
         */
        get: operations["getDexScreenerLatestBlock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dexscreener/pair": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A pool, as a DEX Screener Pair
         * @description DEX Screener Adapter Specs v1.1 (https://dexscreener.notion.site/DEX-Screener-Adapter-Specs-cc1223cdf6e74a7799599106b65dcd0e)
         */
        get: operations["getDexScreenerPair"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness of the store and progress of the indexer */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oracle/history/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * USD value of one whole token over time, one point per interval
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["getOracleHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oracle/value/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current USD value of one whole token, derived from the chain's pools */
        get: operations["getOracleValue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oracle/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current USD values of up to 30 tokens, each as /oracle/value/{id} answers it */
        get: operations["getOracleValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pool/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Aggregate statistics of all liquidity pools */
        get: operations["getPoolStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pool/stats/{tokenA}/{tokenB}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Statistics of one trading pair (ids or symbols, either order); now, or as of a block (?at=) or a time (?atTime=) */
        get: operations["getPairStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All pools with reserves, TVL and 24 h volume (paginated, sortable) */
        get: operations["listPools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pools/{tokenA}/{tokenB}/ohlcv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Candles of a pool: price of tokenA in tokenB and in USD, volumes (public)
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["getPoolOhlcv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pools/{tokenA}/{tokenB}/swaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A pool's trades, newest first (keyset cursor; public)
         * @description Coverage: the answer says what the store holds (historyFrom, historyGaps, historyComplete). A bound you name (a block, a time, a range) that reaches before historyFrom or into a gap is refused: 404 BLOCK_BEFORE_HISTORY, whose message names the first block held or the missing blocks. What you leave open is answered from what the store holds: without historyComplete, the list or series may go on before historyFrom.
         */
        get: operations["listPoolSwaps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a holder snapshot of a token, or of an LP token (a pool's providers), as of a block (or a time, or now); the same token and block give the same snapshot */
        post: operations["createSnapshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/snapshots/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A holder snapshot's state and progress */
        get: operations["getSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/snapshots/{id}/holders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A finished snapshot's holders by balance, descending (pages; the whole list as CSV with Accept: text/csv) */
        get: operations["listSnapshotHolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/snapshots/{id}/holders.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every holder of a finished snapshot as CSV (rank,address,balance), streamed */
        get: operations["getSnapshotHoldersCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccountToken: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            balance: components["schemas"]["IntegerAmount"] & unknown;
            /** @description Block at which the balance was read */
            blockNumber: number;
            decimals: number;
            /** @description Native token: the free balance (null for assets) */
            free: components["schemas"]["IntegerAmount"] | null;
            /** @description Native token: the frozen amount (freezes and locks; it may be covered by reserved), as the runtime states it (null for assets) */
            frozen: components["schemas"]["IntegerAmount"] | null;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            name: string;
            /** @description Native token: reserved and on hold, still the account's but not movable (null for assets) */
            reserved: components["schemas"]["IntegerAmount"] | null;
            share: components["schemas"]["Decimal"] & unknown;
            /** @description Asset or foreign token: the account's status — liquid, frozen (cannot send) or blocked (cannot send or receive); null for the native token */
            status: ("liquid" | "frozen" | "blocked") | null;
            symbol: string;
            tokenId: number;
            /** @description Native token: what a transfer that may reap the account can move, free − max(0, frozen − reserved), at least 0; keep-alive transfers keep the existential deposit back too (null for assets) */
            transferable: components["schemas"]["IntegerAmount"] | null;
            /** @description balance valued at the token's USD value; null when it has none */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        AccountTrade: {
            amountIn: components["schemas"]["IntegerAmount"];
            amountOut: components["schemas"]["IntegerAmount"];
            blockNumber: number;
            eventIndex: number;
            /** @description Position of the extrinsic in its block; null outside one */
            extrinsicIndex: number | null;
            fee: components["schemas"]["IntegerAmount"] & unknown;
            feeUsd: components["schemas"]["Decimal"] & unknown;
            /** @description Position of this pool in the swap's path, from 0 */
            hop: number;
            /** @description Pools the whole swap crossed */
            hops: number;
            multiHop: boolean;
            /** @description The pool of this hop, as the chain orders its tokens */
            pool: {
                token0Id: number;
                token1Id: number;
            };
            timestamp: number;
            tokenIn: number;
            tokenOut: number;
            volumeUsd: components["schemas"]["Decimal"] & unknown;
        };
        AccountTradePage: {
            accountId: string;
            address: string;
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose history the store holds for this answer: nothing before it is in the store (the list or series may go on before it unless historyComplete). null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            /** @description Pass as ?cursor= for older trades; null on the last page */
            nextCursor: string | null;
            trades: components["schemas"]["AccountTrade"][];
        };
        AccountTransfer: {
            amount: components["schemas"]["IntegerAmount"];
            blockNumber: number;
            /**
             * @description The decimals of tokenId: amount / 10^decimals is whole tokens; null when symbol is
             * @example 6
             */
            decimals: number | null;
            /**
             * @description in: the account received; out: it sent; self: both
             * @enum {string}
             */
            direction: "in" | "out" | "self";
            /**
             * @description The event that reported it
             * @example assets.Transferred
             */
            event: string;
            /** @description Position of the event in the block's events: with blockNumber, the transfer's key */
            eventIndex: number;
            /**
             * @description The extrinsic's hash (blake2_256 of its bytes, as explorers show it); null outside an extrinsic, and unknown (null) for blocks indexed before this version recorded them
             * @example 0x8d1e5a4b0c6f7e2d9a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091
             */
            extrinsicHash: string | null;
            /** @description Position of the extrinsic in its block; null outside one */
            extrinsicIndex: number | null;
            /** @description Sender; null for a mint or a deposit */
            from: string | null;
            /**
             * @description transfer: between two accounts; mint/burn: supply created or destroyed; deposit/withdraw: credited or debited by the runtime (XCM, holds, staking); fee: a transaction fee, the withdrawal that paid it less its refund (no withdraw row of its own); dust: a balance below the existential deposit, lost; slash: taken as a penalty
             * @enum {string}
             */
            kind: "transfer" | "mint" | "burn" | "deposit" | "withdraw" | "fee" | "dust" | "slash";
            /** @description The LP token (PoolAssets) moved; null for any other token */
            lpTokenId: number | null;
            /**
             * @description The symbol of tokenId as the token has it now; null for an LP token (PoolAssets keep no metadata) and for a token destroyed since
             * @example USDt
             */
            symbol: string | null;
            timestamp: number;
            /** @description A fee's tip, part of amount, in smallest units as the fee event states it: of the native token for a fee paid in an asset on runtimes with asset conversion (assetTxPayment.AssetTxFeePaid with a location); null on every kind but fee */
            tip: components["schemas"]["IntegerAmount"] | null;
            /** @description Recipient; null for a burn or a withdrawal */
            to: string | null;
            /** @description The token moved; null for an LP token (see lpTokenId) */
            tokenId: number | null;
            /** @description amount at the token's USD value at that block; null when it had none (and for LP tokens) */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        AccountTransferPage: {
            accountId: string;
            address: string;
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose transfers the store holds (the later of its first indexed block's events and where tokenpool prune-history --transfers gave earlier ones up): the list may go on before it unless historyComplete. null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            /** @description Pass as ?cursor= for older transfers; null on the last page */
            nextCursor: string | null;
            /** @description true when the page stopped after examining 2,000 of the account's transfers without finding "limit" of them that match tokenId, lpTokenId or counterparty: it holds the matches among those (maybe none), and nextCursor continues below the last one examined. Page on until nextCursor is null. Always false without those filters. */
            partial: boolean;
            transfers: components["schemas"]["AccountTransfer"][];
        };
        /** @description With at or atTime only: the block the answer is exact at */
        AsOf: {
            blockNumber: number;
            /** @description The first block this answer can be as of (the store's balance history floor: its first complete snapshot); an earlier at or atTime is refused, 404 BLOCK_BEFORE_HISTORY */
            historyFrom: number;
            /** @description The block's on-chain time (Unix seconds) */
            timestamp: number;
        };
        AssetList: {
            assets: components["schemas"]["AssetRow"][];
            blockNumber: number | null;
            limit: number;
            /** @enum {string} */
            order: "asc" | "desc";
            page: number;
            /** @enum {string} */
            sort: "id" | "symbol" | "holders" | "valueUsd" | "marketCap";
            total: number;
            totalPages: number;
        };
        AssetMetadata: {
            asOf?: components["schemas"]["AsOf"];
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            /** @description The block these values were read at (with at/atTime: the newest at or before asOf) */
            blockNumber: number;
            decimals: number;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            name: string;
            /** @description SS58 address of the owner account; null for the native token */
            owner: string | null;
            /** @enum {string} */
            status: "live" | "frozen" | "destroying";
            symbol: string;
            tokenId: number;
            totalSupply: components["schemas"]["IntegerAmount"];
            treasuryValue: components["schemas"]["Decimal"] & unknown;
            /** @description USD per whole token, the price treasuryValue is at (with at/atTime: the price then); null when the token has no current USD price, and then treasuryValue is "0" */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        AssetRow: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            decimals: number;
            holders: number;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            /** @description totalSupply valued at valueUsd */
            marketCapUsd: (components["schemas"]["Decimal"] & unknown) | null;
            name: string;
            /** @enum {string} */
            status: "live" | "frozen" | "destroying";
            symbol: string;
            tokenId: number;
            totalSupply: components["schemas"]["IntegerAmount"];
            /** @description USD per whole token; null without a current pool route to a USD stablecoin above the liquidity floor */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        BalanceAsOf: {
            accountId: string;
            address: string;
            asOf: components["schemas"]["AsOf"] & unknown;
            balance: components["schemas"]["IntegerAmount"];
            decimals: number | null;
            /** @description The newest block at or before asOf where the indexer read this balance (a change, or a snapshot); null when it read none since the history floor (the balance is 0) */
            recordedAt: number | null;
            /** @description null for a token destroyed since */
            symbol: string | null;
            tokenId: number;
        };
        Candle: {
            close: components["schemas"]["Decimal"] & unknown;
            /** @description No block moved the reserves: the prices are the previous close */
            empty: boolean;
            high: components["schemas"]["Decimal"] & unknown;
            low: components["schemas"]["Decimal"] & unknown;
            open: components["schemas"]["Decimal"] & unknown;
            swaps: number;
            /** @description Start of the interval (Unix seconds) */
            timestamp: number;
            /** @description tokenA's USD value over the interval; null before it had one */
            usd: components["schemas"]["Ohlc"] | null;
            volumeA: components["schemas"]["IntegerAmount"] & unknown;
            volumeB: components["schemas"]["IntegerAmount"];
            volumeUsd: components["schemas"]["Decimal"] & unknown;
        };
        Candles: {
            blockNumber: number | null;
            candles: components["schemas"]["Candle"][];
            from: number;
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose history the store holds for this answer: nothing before it is in the store (the list or series may go on before it unless historyComplete). null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            /** @enum {string} */
            interval: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
            to: number;
            tokenA: components["schemas"]["PairToken"];
            tokenB: components["schemas"]["PairToken"];
        };
        /**
         * @description USD per whole token, by the deepest pool route to a USD stablecoin (at most 3 pools) above the liquidity floor
         * @example 1.2345
         */
        Decimal: string;
        DexScreenerAsset: {
            /**
             * @description The token id (0: the native token)
             * @example 1984
             */
            id: string;
            /** @description kind (native, asset, foreign) and decimals */
            metadata: {
                [key: string]: string;
            };
            /** @description The chain's name; its symbol, or its id, when the chain gives none */
            name: string;
            symbol: string;
            totalSupply: components["schemas"]["Decimal"] & unknown;
        };
        DexScreenerAssetResponse: {
            asset: components["schemas"]["DexScreenerAsset"];
        };
        DexScreenerBlock: {
            blockNumber: number;
            /** @description The block's on-chain time, Unix seconds */
            blockTimestamp: number;
        };
        DexScreenerEvents: {
            events: (components["schemas"]["DexScreenerSwapEvent"] | components["schemas"]["DexScreenerJoinExitEvent"])[];
        };
        DexScreenerJoinExitEvent: {
            amount0: components["schemas"]["Decimal"] & unknown;
            amount1: components["schemas"]["Decimal"] & unknown;
            block: components["schemas"]["DexScreenerBlock"];
            /** @description The event's position among the adapter's events of its block (a multi-hop swap is one per pool crossed): with txnIndex unique in the block */
            eventIndex: number;
            /** @enum {string} */
            eventType: "join" | "exit";
            /** @description The account that swapped or provided liquidity */
            maker: string;
            /** @description event: the chain event's id ("{block}-{eventIndex}"); hop: "n of m" for a hop of a multi-hop swap */
            metadata: {
                [key: string]: string;
            };
            pairId: string;
            reserves?: components["schemas"]["DexScreenerReserves"];
            /** @description "{block}-{extrinsicIndex}", the extrinsic's id; "{block}-event-{eventIndex}" for an event outside any extrinsic (or indexed before extrinsic indexes were kept) */
            txnId: string;
            /** @description The extrinsic's index in its block (the event's index when it has none) */
            txnIndex: number;
        };
        DexScreenerLatestBlock: {
            block: components["schemas"]["DexScreenerBlock"];
        };
        DexScreenerPair: {
            asset0Id: string;
            asset1Id: string;
            /** @description The pool's creation block; absent when the store did not follow that block (the pool predates its history) */
            createdAtBlockNumber?: number;
            createdAtBlockTimestamp?: number;
            /** @enum {string} */
            dexKey: "asset-conversion";
            /** @description The LP fee in basis points (30 = 0.3 %) */
            feeBps: number;
            /**
             * @description "{token0Id}-{token1Id}": the pool's tokens in the chain's order, which never changes
             * @example 0-1984
             */
            id: string;
            /** @description lpTokenId and poolAccount */
            metadata: {
                [key: string]: string;
            };
        };
        DexScreenerPairResponse: {
            pair: components["schemas"]["DexScreenerPair"];
        };
        /** @description The pool's reserves after the event: on every event of a block when they are known exactly after each, otherwise on the pool's last event of the block only */
        DexScreenerReserves: {
            asset0: components["schemas"]["Decimal"] & unknown;
            asset1: components["schemas"]["Decimal"] & unknown;
        };
        /** @description asset0In and asset1Out, or asset1In and asset0Out */
        DexScreenerSwapEvent: {
            asset0In?: components["schemas"]["Decimal"] & unknown;
            asset0Out?: components["schemas"]["Decimal"] & unknown;
            asset1In?: components["schemas"]["Decimal"] & unknown;
            asset1Out?: components["schemas"]["Decimal"] & unknown;
            block: components["schemas"]["DexScreenerBlock"];
            /** @description The event's position among the adapter's events of its block (a multi-hop swap is one per pool crossed): with txnIndex unique in the block */
            eventIndex: number;
            /** @enum {string} */
            eventType: "swap";
            /** @description The account that swapped or provided liquidity */
            maker: string;
            /** @description event: the chain event's id ("{block}-{eventIndex}"); hop: "n of m" for a hop of a multi-hop swap */
            metadata: {
                [key: string]: string;
            };
            pairId: string;
            priceNative: components["schemas"]["Decimal"] & unknown;
            reserves?: components["schemas"]["DexScreenerReserves"];
            /** @description "{block}-{extrinsicIndex}", the extrinsic's id; "{block}-event-{eventIndex}" for an event outside any extrinsic (or indexed before extrinsic indexes were kept) */
            txnId: string;
            /** @description The extrinsic's index in its block (the event's index when it has none) */
            txnIndex: number;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "VALIDATION_ERROR" | "AMBIGUOUS_TOKEN" | "UNAUTHORIZED" | "INVALID_CREDENTIALS" | "NOT_FOUND" | "TOKEN_NOT_FOUND" | "POOL_NOT_FOUND" | "PRICE_UNAVAILABLE" | "BLOCK_NOT_INDEXED" | "BLOCK_BEFORE_HISTORY" | "SNAPSHOT_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "EMAIL_TAKEN" | "SNAPSHOT_NOT_READY" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "SNAPSHOT_TOO_LARGE" | "RATE_LIMITED" | "TOO_MANY_SNAPSHOTS" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                message: string;
            };
            /** @enum {boolean} */
            success: false;
        };
        Health: {
            chain: {
                /** @description Chain's finalized head, as last seen by the indexer (with its last heartbeat) */
                finalized: number | null;
            };
            /** @enum {string} */
            db: "ok";
            indexer: {
                /** @description The latest `tokenpool backfill` run (docs/operators.md, Backfilling the whole chain) and the store's history coverage; null when none ran */
                backfill: {
                    /** @description Blocks of the range indexed, including those earlier runs or the follower had */
                    blocksDone: number;
                    /** @description Blocks per second of the run */
                    blocksPerSecond: number;
                    blocksTotal: number;
                    /** @description Partitions of transfers a backfill is loading in bulk: their blocks count as held (historyFrom, gaps) once the partition is attached, when its last chunk completes */
                    bulkLoading: {
                        fromBlock: number;
                        partitionStart: number;
                        toBlock: number;
                    }[];
                    chunksDone: number;
                    chunksTotal: number;
                    /** @description Why it failed */
                    error: string | null;
                    /** @description Seconds left at that rate (null unless running) */
                    etaSeconds: number | null;
                    from: number;
                    /** @description Blocks in those gaps */
                    gapBlocks: number;
                    /** @description Runs of blocks after historyFrom whose events the store lacks (the chunks in flight, a re-bootstrap's skipped blocks), now */
                    gaps: number;
                    /** @description The store's first block with events (history starts there), now */
                    historyFrom: number | null;
                    /** @description More gaps than counted (only the newest 100 are) */
                    moreGaps: boolean;
                    /** @description Runtimes the range spans: chunks are cut at each upgrade */
                    runtimes: number;
                    startedAt: string;
                    /**
                     * @description stalled: running on record but silent for over 60 s (the process died; the same command resumes it); interrupted: stopped by SIGTERM/SIGINT
                     * @enum {string}
                     */
                    state: "running" | "stalled" | "done" | "interrupted" | "failed";
                    to: number;
                    /** @description Last written (every few seconds while it runs) */
                    updatedAt: string;
                } | null;
                block: number | null;
                /** @description The store's bootstrap snapshot (null before the first) */
                bootstrap: {
                    /** @description Storage entries read (all balance maps) */
                    accounts: number;
                    /** @description The block the snapshot is pinned to */
                    block: number;
                    /** @description Seconds left for the balance map being read, at that rate */
                    etaSeconds: number | null;
                    finished: boolean;
                    /** @description Non-zero balances written */
                    holders: number;
                    /** @description Why it was started anew or resumed, when it was */
                    note: string | null;
                    /** @description Entries read per second by the running process */
                    perSecond: number | null;
                    /** @description Times a restarted process continued it */
                    resumed: number;
                } | null;
                /** @description Seconds since the indexer last reported progress or stood at the chain's head (written every few seconds while it does); absent until an indexer has run on this store */
                heartbeatAge?: number;
                /** @description The first start's history backfill (INDEXER_HISTORY_HOURS); null when none was started */
                history: {
                    /** @description Blocks backfilled */
                    done: number;
                    /** @description Why it could not run (a pruned node) */
                    error: string | null;
                    finished: boolean;
                    from: number;
                    hours: number;
                    to: number;
                } | null;
                lag: number | null;
                /** @description State being read again because it changed without an event naming it; null when none is under way */
                reread: {
                    /** @description The block the state is read at (the checkpoint stays there until it is done) */
                    block: number;
                    /** @description The last five of what called for it: AccountsDestroyed, a supply or account count that moved without an event, a runtime upgrade */
                    reasons: string[];
                    /** @description Holder rows read again so far (tokens) */
                    rows: number;
                    /**
                     * @description all: a new snapshot after a runtime upgrade; tokens: the holders of `tokens`
                     * @enum {string}
                     */
                    scope: "all" | "tokens";
                    /** @description How many tokens in all (0 for a new snapshot) */
                    tokenCount: number;
                    /** @description The tokens whose holders are read again (the first 20) */
                    tokens: number[];
                } | null;
                /** @description Events the indexer handles but could not decode or attribute, counted up to 10000 */
                skippedEvents: number;
                /** @description The continuous verification of the store against chain storage (docs/chains.md, What the chain does not announce); null before its first page */
                verification: {
                    /** @description The block the last page was compared at (the checkpoint then) */
                    block: number;
                    /** @description Entries compared in this pass */
                    checked: number;
                    /** @description Differences found in this pass (each repaired before the sweep moved on) */
                    found: number;
                    lastPass: {
                        checked: number;
                        endBlock: number;
                        /** @description When the last full pass ended: everything served as current was compared with chain storage between startBlock and endBlock */
                        endedAt: string;
                        found: number;
                        pass: number;
                        seconds: number;
                        startBlock: number;
                        startedAt: string;
                        /** @description The runtime upgrade's first block, when the pass was started by one */
                        upgrade: number | null;
                    } | null;
                    /** @description The pass in progress (passes started since the store began) */
                    pass: number;
                    /** @description When the pass in progress began (ISO 8601) */
                    passStartedAt: string;
                    /**
                     * @description tokens, pools, LP positions, every balance of the chain, then every holder row of the store
                     * @enum {string}
                     */
                    phase: "tokens" | "pools" | "lp" | "chain" | "store";
                    /** @description Differences repaired since the store began, by "table.kind" (holders.ghost, holders.wrong, holders.missing, pools.wrong, tokens.wrong, lp_holders.…; holders.undecodable: chain entries no known layout decodes, logged at error level and not compared) */
                    repaired: {
                        [key: string]: number;
                    };
                    /** @description A runtime upgrade whose verification pass is under way: answers as of its block or later are refused (BLOCK_NOT_INDEXED) until it ends */
                    upgrade: {
                        block: number;
                        specName: string;
                        specVersion: number;
                    } | null;
                } | null;
            };
            /**
             * @description ok; degraded while the indexer has events it could not decode or attribute on record (indexer.skippedEvents, `tokenpool status`); stale when the indexer's heartbeat is older than a threshold (default 60 s; indexer.heartbeatAge): no indexer is running, or it cannot reach the chain or get past a block, so the data is not kept current (the API still serves it)
             * @enum {string}
             */
            status: "ok" | "degraded" | "stale";
        };
        HealthUnavailable: components["schemas"]["Error"] & {
            chain: {
                finalized: null;
            };
            /** @enum {string} */
            db: "down";
            indexer: {
                backfill: null;
                block: null;
                bootstrap: null;
                history: null;
                lag: null;
                reread: null;
                skippedEvents: null;
                verification: null;
            };
            /** @enum {string} */
            status: "down";
        };
        /** @description Blocks fromBlock..toBlock (both included) whose history the store lacks */
        HistoryGap: {
            fromBlock: number;
            toBlock: number;
        };
        Holder: {
            address: string;
            balance: components["schemas"]["IntegerAmount"] & unknown;
            /** @description Native token: the free balance (null for assets) */
            free: components["schemas"]["IntegerAmount"] | null;
            /** @description Native token: the frozen amount (freezes and locks; it may be covered by reserved), as the runtime states it (null for assets) */
            frozen: components["schemas"]["IntegerAmount"] | null;
            rank: number;
            /** @description Native token: reserved and on hold, still the account's but not movable (null for assets) */
            reserved: components["schemas"]["IntegerAmount"] | null;
            share: components["schemas"]["Decimal"] & unknown;
            /** @description Asset or foreign token: the account's status — liquid, frozen (cannot send) or blocked (cannot send or receive); null for the native token */
            status: ("liquid" | "frozen" | "blocked") | null;
            /** @description Native token: what a transfer that may reap the account can move, free − max(0, frozen − reserved), at least 0; keep-alive transfers keep the existential deposit back too (null for assets) */
            transferable: components["schemas"]["IntegerAmount"] | null;
        };
        HolderPage: {
            holders: components["schemas"]["Holder"][];
            limit: number;
            /** @description Pass as ?cursor= for the next page; null on the last page */
            nextCursor: string | null;
            page: number;
            tokenId: number;
            totalHolders: number;
            totalPages: number;
        };
        HolderSnapshot: {
            blockNumber: number;
            /** @description ISO 8601 */
            createdAt: string;
            error: string | null;
            finishedAt: string | null;
            /** @description Accounts with a non-zero balance at the block (when done) */
            holders: number | null;
            id: number;
            links: {
                csv: string;
                holders: string;
            };
            /** @description The LP token (PoolAssets id: its holders are the pool's providers); null for a token's snapshot */
            lpTokenId: number | null;
            progress: {
                /** @description Accounts of the token's balance history read so far */
                accountsRead: number;
                /** @description Accounts the job reads in all (null until it starts) */
                accountsTotal: number | null;
                fraction: components["schemas"]["Decimal"] & unknown;
            };
            /** @enum {string} */
            state: "queued" | "running" | "done" | "failed";
            /** @description The block's on-chain time (Unix seconds) */
            timestamp: number | null;
            /** @description The token; null for an LP token's snapshot */
            tokenId: number | null;
            /** @description The sum of their balances (when done) */
            totalBalance: components["schemas"]["IntegerAmount"] | null;
        };
        /**
         * @description Non-negative integer amount in the token's smallest units, as a string (u128).
         * @example 1000000000000
         */
        IntegerAmount: string;
        /**
         * @description XCM location in its canonical (v5) form: parents and interior junctions, camelCase names; integers of more than 52 bits as decimal strings, bytes as hex
         * @example {
         *       "parents": 2,
         *       "interior": {
         *         "x2": [
         *           {
         *             "globalConsensus": {
         *               "ethereum": {
         *                 "chainId": 1
         *               }
         *             }
         *           },
         *           {
         *             "accountKey20": {
         *               "network": null,
         *               "key": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
         *             }
         *           }
         *         ]
         *       }
         *     }
         */
        Location: {
            [key: string]: unknown;
        };
        LoginRequest: {
            /**
             * @description Trimmed and lower-cased before use
             * @example ada@example.com
             */
            email: string;
            password: string;
        };
        LoginResponse: {
            data: {
                expiresIn: number;
                token: string;
            };
            /** @enum {boolean} */
            success: true;
        };
        LpBalanceAsOf: {
            accountId: string;
            address: string;
            asOf: components["schemas"]["AsOf"] & unknown;
            balance: components["schemas"]["IntegerAmount"];
            lpTokenId: number;
            /** @description The pool this LP token is a share of; null when it is gone */
            pool: {
                token0Id: number;
                token1Id: number;
            } | null;
            /** @description The newest block at or before asOf where the indexer read this balance (a change, or a snapshot); null when it read none since the history floor (the balance is 0) */
            recordedAt: number | null;
        };
        LpPosition: {
            balance: components["schemas"]["IntegerAmount"] & unknown;
            blockNumber: number;
            lpSupply: components["schemas"]["IntegerAmount"];
            lpTokenId: number;
            /** @example KSM/USDT */
            pool: string;
            share: components["schemas"]["Decimal"] & unknown;
            tokenA: components["schemas"]["LpUnderlying"];
            tokenB: components["schemas"]["LpUnderlying"];
            valueUsd: components["schemas"]["Decimal"] & unknown;
        };
        LpTokenTransferPage: {
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose transfers the store holds (the later of its first indexed block's events and where tokenpool prune-history --transfers gave earlier ones up): the list may go on before it unless historyComplete. null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            lpTokenId: number;
            /** @description Pass as ?cursor= for older transfers; null on the last page */
            nextCursor: string | null;
            /** @description The pool this LP token is a share of; null when it is gone */
            pool: {
                token0Id: number;
                token1Id: number;
            } | null;
            transfers: components["schemas"]["Transfer"][];
        };
        LpUnderlying: {
            amount: components["schemas"]["IntegerAmount"];
            decimals: number;
            symbol: string;
            tokenId: number;
            /** @description USD value of amount */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        Ohlc: {
            close: components["schemas"]["Decimal"] & unknown;
            high: components["schemas"]["Decimal"] & unknown;
            low: components["schemas"]["Decimal"] & unknown;
            open: components["schemas"]["Decimal"] & unknown;
        };
        OracleValue: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            blockNumber: number;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            symbol: string;
            /** @description Unix seconds of the newest indexed block */
            timestamp: number;
            tokenId: number;
            valueUsd: components["schemas"]["Decimal"];
        };
        OracleValues: {
            blockNumber: number;
            /** @description Unix seconds of the newest indexed block */
            timestamp: number;
            /** @description One entry per id, in the order asked */
            values: components["schemas"]["OracleValuesEntry"][];
        };
        OracleValuesEntry: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            /** @description The error GET /oracle/value/{id} answers for this token (its code and message); null with a value */
            error: {
                /** @enum {string} */
                code: "TOKEN_NOT_FOUND" | "PRICE_UNAVAILABLE";
                message: string;
            } | null;
            kind: ("native" | "asset" | "foreign") | null;
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            /** @description null when the token is not found */
            symbol: string | null;
            tokenId: number;
            /** @description As GET /oracle/value/{id} answers it; null with `error` when that route answers an error */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        PairSide: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            decimals: number;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            /** @description USD per whole token; null when no current route to a USD stablecoin above the liquidity floor exists */
            priceUsd: (components["schemas"]["Decimal"] & unknown) | null;
            reserve: components["schemas"]["IntegerAmount"];
            symbol: string;
            tokenId: number;
        };
        PairStats: {
            apr: components["schemas"]["Decimal"] & unknown;
            asOf?: components["schemas"]["AsOf"] & unknown;
            /** @description The newest indexed block (with at/atTime: the block answered) */
            blockNumber: number;
            feeRate: components["schemas"]["Decimal"] & unknown;
            fees24h: components["schemas"]["Decimal"] & unknown;
            lpSupply: components["schemas"]["IntegerAmount"];
            lpTokenId: number;
            price: components["schemas"]["Decimal"] & unknown;
            priceChange24h: components["schemas"]["Decimal"] & unknown;
            swaps24h: number;
            timestamp: number | null;
            tokenA: components["schemas"]["PairSide"];
            tokenB: components["schemas"]["PairSide"];
            totalValueLocked: components["schemas"]["Decimal"] & unknown;
            volume24h: components["schemas"]["Decimal"] & unknown;
        };
        PairToken: {
            decimals: number;
            symbol: string;
            tokenId: number;
        };
        PoolList: {
            blockNumber: number | null;
            limit: number;
            /** @enum {string} */
            order: "asc" | "desc";
            page: number;
            pools: components["schemas"]["PoolRow"][];
            /** @enum {string} */
            sort: "tvl" | "volume24h" | "swaps24h" | "id";
            total: number;
            totalPages: number;
        };
        PoolRow: {
            fees24h: components["schemas"]["Decimal"] & unknown;
            lpTokenId: number;
            swaps24h: number;
            tokenA: components["schemas"]["PoolSide"];
            tokenB: components["schemas"]["PoolSide"];
            totalValueLocked: components["schemas"]["Decimal"] & unknown;
            volume24h: components["schemas"]["Decimal"] & unknown;
        };
        PoolSide: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            decimals: number;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            /** @description USD per whole token */
            priceUsd: (components["schemas"]["Decimal"] & unknown) | null;
            reserve: components["schemas"]["IntegerAmount"];
            symbol: string;
            tokenId: number;
        };
        PoolStats: {
            blockNumber: number | null;
            fees24h: components["schemas"]["Decimal"] & unknown;
            swaps24h: number;
            timestamp: number | null;
            totalPools: number;
            totalValueLocked: components["schemas"]["Decimal"] & unknown;
            volume24h: components["schemas"]["Decimal"] & unknown;
        };
        Portfolio: {
            /** @description The 32-byte account id, hex */
            accountId: string;
            /** @description The address in the chain's SS58 prefix */
            address: string;
            asOf?: components["schemas"]["AsOf"] & unknown;
            /** @description The newest indexed block (with at/atTime: the block answered) */
            blockNumber: number | null;
            lpPositions: components["schemas"]["LpPosition"][];
            timestamp: number | null;
            /** @description Non-zero balances, highest USD value first (unpriced last) */
            tokens: components["schemas"]["AccountToken"][];
            totalValueUsd: components["schemas"]["Decimal"] & unknown;
            /** @description true when the account holds more than 1,000 tokens or positions (the first 1,000 by id are shown) */
            truncated: boolean;
        };
        PriceHistory: {
            /** @description The asset's id in pallet-assets (differs from tokenId for the one aliased to 2^32); null for native and foreign tokens */
            assetId: number | null;
            from: number;
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose history the store holds for this answer: nothing before it is in the store (the list or series may go on before it unless historyComplete). null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            interval: number;
            /**
             * @description native (KSM/DOT), asset (pallet-assets) or foreign (ForeignAssets, keyed by XCM location)
             * @enum {string}
             */
            kind: "native" | "asset" | "foreign";
            /** @description A foreign token's XCM location; null otherwise */
            location: components["schemas"]["Location"] | null;
            points: components["schemas"]["PricePoint"][];
            symbol: string;
            to: number;
            tokenId: number;
        };
        PricePoint: {
            /** @description Block of that value, or of the expiry when valueUsd is null after one; null before the first price */
            blockNumber: number | null;
            /** @description End of the interval (Unix seconds) */
            timestamp: number;
            /** @description Last USD value at or before timestamp; null before the token had one, and while it had none (its routes fell below the liquidity floor) */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
        RegisterRequest: {
            /**
             * @description Trimmed and lower-cased before use
             * @example ada@example.com
             */
            email: string;
            name?: string;
            password: string;
        };
        RegisterResponse: {
            data: {
                expiresIn: number;
                token: string;
                userId: string;
            };
            message: string;
            /** @enum {boolean} */
            success: true;
        };
        SnapshotHolder: {
            address: string;
            balance: components["schemas"]["IntegerAmount"];
            rank: number;
            share: components["schemas"]["Decimal"] & unknown;
        };
        SnapshotHolderPage: {
            blockNumber: number;
            holders: components["schemas"]["SnapshotHolder"][];
            limit: number;
            /** @description The LP token (PoolAssets id: its holders are the pool's providers); null for a token's snapshot */
            lpTokenId: number | null;
            /** @description Pass as ?cursor= for the next page; null on the last page */
            nextCursor: string | null;
            page: number;
            snapshotId: number;
            /** @description The token; null for an LP token's snapshot */
            tokenId: number | null;
            totalHolders: number;
            totalPages: number;
        };
        SupplyHistory: {
            decimals: number;
            from: number;
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose history the store holds for this answer: nothing before it is in the store (the list or series may go on before it unless historyComplete). null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            /** @enum {string} */
            interval: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
            points: components["schemas"]["SupplyPoint"][];
            symbol: string;
            to: number;
            tokenId: number;
        };
        SupplyPoint: {
            blockNumber: number | null;
            holders: number | null;
            /** @description Total supply at that time; null before the indexer recorded one */
            supply: components["schemas"]["IntegerAmount"] | null;
            /** @description End of the interval (Unix seconds) */
            timestamp: number;
        };
        TokenTransferPage: {
            decimals: number;
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose transfers the store holds (the later of its first indexed block's events and where tokenpool prune-history --transfers gave earlier ones up): the list may go on before it unless historyComplete. null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            /** @description Pass as ?cursor= for older transfers; null on the last page */
            nextCursor: string | null;
            symbol: string;
            tokenId: number;
            transfers: components["schemas"]["Transfer"][];
        };
        Trade: {
            /** @description The trader; null for a swap of credit (a fee paid in an asset, XCM) */
            account: string | null;
            amountIn: components["schemas"]["IntegerAmount"];
            amountOut: components["schemas"]["IntegerAmount"];
            blockNumber: number;
            eventIndex: number;
            /** @description Position of the extrinsic in its block; null outside one */
            extrinsicIndex: number | null;
            fee: components["schemas"]["IntegerAmount"] & unknown;
            feeUsd: components["schemas"]["Decimal"] & unknown;
            /** @description Position of this pool in the swap's path, from 0 */
            hop: number;
            /** @description Pools the whole swap crossed */
            hops: number;
            /** @description true when this row is one hop of a longer path */
            multiHop: boolean;
            /**
             * @description buy: tokenA came out of the pool; sell: tokenA went in
             * @enum {string}
             */
            side: "buy" | "sell";
            timestamp: number;
            tokenIn: number;
            tokenOut: number;
            volumeUsd: components["schemas"]["Decimal"] & unknown;
        };
        TradePage: {
            /** @description true when the store holds every block from the chain's first (historyFrom ≤ 1, no gaps): nothing is missing; false: the answer may go on before historyFrom or in historyGaps */
            historyComplete: boolean;
            /** @description The first block whose history the store holds for this answer: nothing before it is in the store (the list or series may go on before it unless historyComplete). null only while the store holds none */
            historyFrom: number | null;
            /** @description historyFrom's on-chain time (Unix seconds); null when the store keeps no time for that block */
            historyFromTime: number | null;
            /** @description Block ranges after historyFrom the store lacks (blocks a re-bootstrap skipped, history a backfill has not reached yet), newest first, 100 at most */
            historyGaps: components["schemas"]["HistoryGap"][];
            /** @description Pass as ?cursor= for older trades; null on the last page */
            nextCursor: string | null;
            tokenA: components["schemas"]["PairToken"];
            tokenB: components["schemas"]["PairToken"];
            trades: components["schemas"]["Trade"][];
        };
        Transfer: {
            amount: components["schemas"]["IntegerAmount"];
            blockNumber: number;
            /**
             * @description The event that reported it
             * @example assets.Transferred
             */
            event: string;
            /** @description Position of the event in the block's events: with blockNumber, the transfer's key */
            eventIndex: number;
            /**
             * @description The extrinsic's hash (blake2_256 of its bytes, as explorers show it); null outside an extrinsic, and unknown (null) for blocks indexed before this version recorded them
             * @example 0x8d1e5a4b0c6f7e2d9a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091
             */
            extrinsicHash: string | null;
            /** @description Position of the extrinsic in its block; null outside one */
            extrinsicIndex: number | null;
            /** @description Sender; null for a mint or a deposit */
            from: string | null;
            /**
             * @description transfer: between two accounts; mint/burn: supply created or destroyed; deposit/withdraw: credited or debited by the runtime (XCM, holds, staking); fee: a transaction fee, the withdrawal that paid it less its refund (no withdraw row of its own); dust: a balance below the existential deposit, lost; slash: taken as a penalty
             * @enum {string}
             */
            kind: "transfer" | "mint" | "burn" | "deposit" | "withdraw" | "fee" | "dust" | "slash";
            /** @description The LP token (PoolAssets) moved; null for any other token */
            lpTokenId: number | null;
            timestamp: number;
            /** @description A fee's tip, part of amount, in smallest units as the fee event states it: of the native token for a fee paid in an asset on runtimes with asset conversion (assetTxPayment.AssetTxFeePaid with a location); null on every kind but fee */
            tip: components["schemas"]["IntegerAmount"] | null;
            /** @description Recipient; null for a burn or a withdrawal */
            to: string | null;
            /** @description The token moved; null for an LP token (see lpTokenId) */
            tokenId: number | null;
            /** @description amount at the token's USD value at that block; null when it had none (and for LP tokens) */
            valueUsd: (components["schemas"]["Decimal"] & unknown) | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAccount: {
        parameters: {
            query?: {
                /** @description Answer as of this block (from the store's history floor to its newest block) */
                at?: string;
                /** @description Answer as of the last block at or before this time (Unix seconds); not with at */
                atTime?: string;
            };
            header?: never;
            path: {
                /** @description Account: must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the account holds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *       "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
                     *       "tokens": [
                     *         {
                     *           "tokenId": 18,
                     *           "symbol": "WETH",
                     *           "name": "Wrapped Ether",
                     *           "decimals": 18,
                     *           "kind": "asset",
                     *           "assetId": 18,
                     *           "location": null,
                     *           "balance": "1500000000000000000",
                     *           "valueUsd": "4500.185185183518518517",
                     *           "share": "0.003",
                     *           "free": null,
                     *           "reserved": null,
                     *           "frozen": null,
                     *           "transferable": null,
                     *           "status": "liquid",
                     *           "blockNumber": 2000
                     *         },
                     *         {
                     *           "tokenId": 10,
                     *           "symbol": "TEN",
                     *           "name": "Ten",
                     *           "decimals": 10,
                     *           "kind": "asset",
                     *           "assetId": 10,
                     *           "location": null,
                     *           "balance": "300000000000",
                     *           "valueUsd": "7.5",
                     *           "share": "0.3",
                     *           "free": null,
                     *           "reserved": null,
                     *           "frozen": null,
                     *           "transferable": null,
                     *           "status": "liquid",
                     *           "blockNumber": 2000
                     *         },
                     *         {
                     *           "tokenId": 4294967296,
                     *           "symbol": "DOG",
                     *           "name": "Dog",
                     *           "decimals": 10,
                     *           "kind": "asset",
                     *           "assetId": 0,
                     *           "location": null,
                     *           "balance": "70000000000",
                     *           "valueUsd": null,
                     *           "share": "1",
                     *           "free": null,
                     *           "reserved": null,
                     *           "frozen": null,
                     *           "transferable": null,
                     *           "status": "liquid",
                     *           "blockNumber": 2000
                     *         }
                     *       ],
                     *       "lpPositions": [
                     *         {
                     *           "lpTokenId": 1,
                     *           "pool": "KSM/USDt",
                     *           "balance": "707106781186",
                     *           "lpSupply": "3535533905932",
                     *           "share": "0.199999999999886862",
                     *           "tokenA": {
                     *             "tokenId": 0,
                     *             "symbol": "KSM",
                     *             "decimals": 12,
                     *             "amount": "199999999999886",
                     *             "valueUsd": "2499.999999998575"
                     *           },
                     *           "tokenB": {
                     *             "tokenId": 1984,
                     *             "symbol": "USDt",
                     *             "decimals": 6,
                     *             "amount": "2499999999",
                     *             "valueUsd": "2499.999999"
                     *           },
                     *           "valueUsd": "4999.999998998575",
                     *           "blockNumber": 2000
                     *         }
                     *       ],
                     *       "totalValueUsd": "9507.685184182093518517",
                     *       "truncated": false,
                     *       "blockNumber": 2000,
                     *       "timestamp": 1795000000
                     *     }
                     */
                    "application/json": components["schemas"]["Portfolio"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountBalance: {
        parameters: {
            query?: {
                /** @description Answer as of this block (from the store's history floor to its newest block) */
                at?: string;
                /** @description Answer as of the last block at or before this time (Unix seconds); not with at */
                atTime?: string;
            };
            header?: never;
            path: {
                /** @description Account: must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id */
                address: string;
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance (free + reserved for the native token) exact at asOf */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *       "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
                     *       "tokenId": 1984,
                     *       "symbol": "USDt",
                     *       "decimals": 6,
                     *       "balance": "0",
                     *       "asOf": {
                     *         "blockNumber": 2000,
                     *         "timestamp": 1795000000,
                     *         "historyFrom": 2000
                     *       },
                     *       "recordedAt": null
                     *     }
                     */
                    "application/json": components["schemas"]["BalanceAsOf"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountLpBalance: {
        parameters: {
            query?: {
                /** @description Answer as of this block (from the store's history floor to its newest block) */
                at?: string;
                /** @description Answer as of the last block at or before this time (Unix seconds); not with at */
                atTime?: string;
            };
            header?: never;
            path: {
                /** @description Account: must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id */
                address: string;
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                lpTokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The LP balance exact at asOf */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *       "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
                     *       "lpTokenId": 1,
                     *       "pool": {
                     *         "token0Id": 0,
                     *         "token1Id": 1984
                     *       },
                     *       "balance": "707106781186",
                     *       "asOf": {
                     *         "blockNumber": 2000,
                     *         "timestamp": 1795000000,
                     *         "historyFrom": 2000
                     *       },
                     *       "recordedAt": 2000
                     *     }
                     */
                    "application/json": components["schemas"]["LpBalanceAsOf"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAccountSwaps: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page */
                cursor?: string;
                /** @description Only transfers at or after this block */
                fromBlock?: string;
                /** @description Transfers per page, 1-500 (default 50) */
                limit?: string;
                /** @description Only transfers at or before this block */
                toBlock?: string;
            };
            header?: never;
            path: {
                /** @description Account: must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the account's trades */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *       "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "trades": [
                     *         {
                     *           "blockNumber": 2000,
                     *           "timestamp": 1795000000,
                     *           "extrinsicIndex": null,
                     *           "eventIndex": 6,
                     *           "hop": 0,
                     *           "hops": 1,
                     *           "multiHop": false,
                     *           "pool": {
                     *             "token0Id": 0,
                     *             "token1Id": 18
                     *           },
                     *           "tokenIn": 0,
                     *           "tokenOut": 18,
                     *           "amountIn": "1000",
                     *           "amountOut": "990",
                     *           "volumeUsd": "10",
                     *           "fee": "3",
                     *           "feeUsd": "0.03"
                     *         }
                     *       ],
                     *       "nextCursor": "WzIwMDAsNiwwXQ"
                     *     }
                     */
                    "application/json": components["schemas"]["AccountTradePage"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAccountTransfers: {
        parameters: {
            query?: {
                /** @description Only transfers between the account and this one, either way (with direction: one way). must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id. Looked for among at most 2,000 of the account's transfers a page (see partial) */
                counterparty?: string;
                /** @description nextCursor of the previous page */
                cursor?: string;
                /** @description in: received only; out: sent only (default both) */
                direction?: "in" | "out";
                /**
                 * @deprecated
                 * @description Deprecated: use fromTime. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with fromTime
                 */
                from?: string;
                /** @description Only transfers at or after this block */
                fromBlock?: string;
                /** @description Only transfers at or after this time (Unix seconds) */
                fromTime?: string;
                /** @description Only transfers of this kind (fee: transaction fees) */
                kind?: "transfer" | "mint" | "burn" | "deposit" | "withdraw" | "fee" | "dust" | "slash";
                /** @description Transfers per page, 1-500 (default 50) */
                limit?: string;
                /** @description Only this LP token's transfers: looked for among at most 2,000 of the account's transfers a page (see partial) */
                lpTokenId?: string;
                /**
                 * @deprecated
                 * @description Deprecated: use toTime. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with toTime
                 */
                to?: string;
                /** @description Only transfers at or before this block */
                toBlock?: string;
                /** @description Only this token's transfers: looked for among at most 2,000 of the account's transfers a page (see partial) */
                tokenId?: string;
                /** @description Only transfers at or before this time (Unix seconds) */
                toTime?: string;
            };
            header?: never;
            path: {
                /** @description Account: must be an SS58 address (any network prefix) or a 0x-prefixed 32-byte account id */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the account's transfers */
            200: {
                headers: {
                    /** @description Only when the request used the deprecated from/to: when they were deprecated (RFC 9745: @ and Unix seconds) */
                    Deprecation?: string;
                    /** @description Only when the request used the deprecated from/to: where the change is described (rel="deprecation", RFC 9745) */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *       "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "transfers": [
                     *         {
                     *           "blockNumber": 6,
                     *           "timestamp": 1700000000,
                     *           "extrinsicIndex": null,
                     *           "extrinsicHash": null,
                     *           "eventIndex": 2,
                     *           "tokenId": null,
                     *           "lpTokenId": 1,
                     *           "from": null,
                     *           "to": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "amount": "1000000",
                     *           "kind": "mint",
                     *           "event": "poolAssets.Issued",
                     *           "valueUsd": null,
                     *           "tip": null,
                     *           "symbol": null,
                     *           "decimals": null,
                     *           "direction": "in"
                     *         }
                     *       ],
                     *       "nextCursor": "WzYsMl0",
                     *       "partial": false
                     *     }
                     */
                    "application/json": components["schemas"]["AccountTransferPage"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAssets: {
        parameters: {
            query?: {
                /** @description Rows per page, 1-500 (default 50) */
                limit?: string;
                /** @description asc or desc (default desc; id defaults to asc) */
                order?: "asc" | "desc";
                /** @description Page number, from 1 (default 1) */
                page?: string;
                /** @description Sort key: id, symbol, holders, valueUsd, marketCap (default id) */
                sort?: "id" | "symbol" | "holders" | "valueUsd" | "marketCap";
                /** @description Only this token: its row (total 1), or none (total 0) when it is not indexed */
                tokenId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of tokens */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "page": 1,
                     *       "limit": 50,
                     *       "total": 10,
                     *       "totalPages": 1,
                     *       "sort": "id",
                     *       "order": "asc",
                     *       "blockNumber": 2000,
                     *       "assets": [
                     *         {
                     *           "tokenId": 0,
                     *           "name": "Kusama",
                     *           "symbol": "KSM",
                     *           "kind": "native",
                     *           "assetId": null,
                     *           "location": null,
                     *           "decimals": 12,
                     *           "totalSupply": "15000000000000000000",
                     *           "valueUsd": "12.5",
                     *           "marketCapUsd": "187500000",
                     *           "holders": 2,
                     *           "status": "live"
                     *         },
                     *         {
                     *           "tokenId": 7,
                     *           "name": "Whole",
                     *           "symbol": "ZERO",
                     *           "kind": "asset",
                     *           "assetId": 7,
                     *           "location": null,
                     *           "decimals": 0,
                     *           "totalSupply": "1000",
                     *           "valueUsd": null,
                     *           "marketCapUsd": null,
                     *           "holders": 0,
                     *           "status": "frozen"
                     *         },
                     *         {
                     *           "tokenId": 10,
                     *           "name": "Ten",
                     *           "symbol": "TEN",
                     *           "kind": "asset",
                     *           "assetId": 10,
                     *           "location": null,
                     *           "decimals": 10,
                     *           "totalSupply": "1000000000000",
                     *           "valueUsd": "0.25",
                     *           "marketCapUsd": "25",
                     *           "holders": 5,
                     *           "status": "live"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AssetList"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssetHistory: {
        parameters: {
            query?: {
                /** @description Start, Unix seconds (default: 200 intervals before "to"); at most 1000 intervals */
                from?: string;
                /** @description 1m, 5m, 15m, 1h, 4h, 1d (default 1h); intervals are aligned to UTC */
                interval?: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
                /** @description End, Unix seconds (default, and at most: the newest indexed block's time) */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One point per interval, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenId": 10,
                     *       "symbol": "TEN",
                     *       "decimals": 10,
                     *       "interval": "4h",
                     *       "from": 1792123200,
                     *       "to": 1795000000,
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "points": [
                     *         {
                     *           "timestamp": 1792137600,
                     *           "supply": null,
                     *           "holders": null,
                     *           "blockNumber": null
                     *         },
                     *         {
                     *           "timestamp": 1792152000,
                     *           "supply": null,
                     *           "holders": null,
                     *           "blockNumber": null
                     *         },
                     *         {
                     *           "timestamp": 1792166400,
                     *           "supply": null,
                     *           "holders": null,
                     *           "blockNumber": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SupplyHistory"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAssetTransfers: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page */
                cursor?: string;
                /**
                 * @deprecated
                 * @description Deprecated: use fromTime. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with fromTime
                 */
                from?: string;
                /** @description Only transfers at or after this block */
                fromBlock?: string;
                /** @description Only transfers at or after this time (Unix seconds) */
                fromTime?: string;
                /** @description Only transfers of this kind (fee: transaction fees) */
                kind?: "transfer" | "mint" | "burn" | "deposit" | "withdraw" | "fee" | "dust" | "slash";
                /** @description Transfers per page, 1-500 (default 50) */
                limit?: string;
                /**
                 * @deprecated
                 * @description Deprecated: use toTime. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with toTime
                 */
                to?: string;
                /** @description Only transfers at or before this block */
                toBlock?: string;
                /** @description Only transfers at or before this time (Unix seconds) */
                toTime?: string;
            };
            header?: never;
            path: {
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the token's transfers */
            200: {
                headers: {
                    /** @description Only when the request used the deprecated from/to: when they were deprecated (RFC 9745: @ and Unix seconds) */
                    Deprecation?: string;
                    /** @description Only when the request used the deprecated from/to: where the change is described (rel="deprecation", RFC 9745) */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenId": 1984,
                     *       "symbol": "USDt",
                     *       "decimals": 6,
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "transfers": [
                     *         {
                     *           "blockNumber": 5,
                     *           "timestamp": 1700000000,
                     *           "extrinsicIndex": 1,
                     *           "extrinsicHash": null,
                     *           "eventIndex": 1,
                     *           "tokenId": 1984,
                     *           "lpTokenId": null,
                     *           "from": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "to": "EaG2CRhJWPb7qmdcJvy3LiWdh26Jreu9Dx6R1rXxPmYXoDk",
                     *           "amount": "1000000",
                     *           "kind": "transfer",
                     *           "event": "assets.Transferred",
                     *           "valueUsd": "1",
                     *           "tip": null
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["TokenTransferPage"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAssetHolders: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page; replaces page */
                cursor?: string;
                /** @description Holders per page, 1-1000 (default 50) */
                limit?: string;
                /** @description Page number, from 1 (default 1) */
                page?: string;
            };
            header?: never;
            path: {
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of holders (JSON); with Accept: text/csv every holder at the newest block (rank,address,balance; streamed; X-Block-Number names the block; X-Row-Count and Content-Length say how much: a download that ends short of them was cut) */
            200: {
                headers: {
                    /** @description CSV only: the file's name, its token and block (holders-{tokenId}-at-{block}.csv; an LP token's snapshot: lp-holders-{lpTokenId}-at-{block}.csv) */
                    "Content-Disposition"?: string;
                    /** @description CSV only: the file's exact size in bytes. A download that ends short of it was cut (the connection is closed before, never ended cleanly). */
                    "Content-Length"?: string;
                    /** @description CSV only: the block the list is exact at. */
                    "X-Block-Number"?: string;
                    /** @description CSV only: the data rows the file holds (holders; the header line not counted). A file with fewer lines after its header is incomplete. */
                    "X-Row-Count"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenId": 10,
                     *       "page": 1,
                     *       "limit": 2,
                     *       "totalHolders": 5,
                     *       "totalPages": 3,
                     *       "holders": [
                     *         {
                     *           "rank": 1,
                     *           "address": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
                     *           "balance": "400000000000",
                     *           "share": "0.4",
                     *           "free": null,
                     *           "reserved": null,
                     *           "frozen": null,
                     *           "transferable": null,
                     *           "status": "liquid"
                     *         },
                     *         {
                     *           "rank": 2,
                     *           "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "balance": "300000000000",
                     *           "share": "0.3",
                     *           "free": null,
                     *           "reserved": null,
                     *           "frozen": null,
                     *           "transferable": null,
                     *           "status": "liquid"
                     *         }
                     *       ],
                     *       "nextCursor": "WyIzMDAwMDAwMDAwMDAiLCJGcjRON0t2eHhXRWFCNnZkZGVyVkNXM25kNG1Oa0J6VzVvZjFoYkh1WGkxUFYxVCIsMl0"
                     *     }
                     */
                    "application/json": components["schemas"]["HolderPage"];
                    "text/csv": string;
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLpTokenTransfers: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page */
                cursor?: string;
                /**
                 * @deprecated
                 * @description Deprecated: use fromTime. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with fromTime
                 */
                from?: string;
                /** @description Only transfers at or after this block */
                fromBlock?: string;
                /** @description Only transfers at or after this time (Unix seconds) */
                fromTime?: string;
                /** @description Only transfers of this kind (fee: transaction fees) */
                kind?: "transfer" | "mint" | "burn" | "deposit" | "withdraw" | "fee" | "dust" | "slash";
                /** @description Transfers per page, 1-500 (default 50) */
                limit?: string;
                /**
                 * @deprecated
                 * @description Deprecated: use toTime. Accepted until 0.2.0 (the answer carries a Deprecation header); never together with toTime
                 */
                to?: string;
                /** @description Only transfers at or before this block */
                toBlock?: string;
                /** @description Only transfers at or before this time (Unix seconds) */
                toTime?: string;
            };
            header?: never;
            path: {
                /** @description LP token id (PoolAssets; /pools lists each pool's) */
                lpTokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the LP token's transfers */
            200: {
                headers: {
                    /** @description Only when the request used the deprecated from/to: when they were deprecated (RFC 9745: @ and Unix seconds) */
                    Deprecation?: string;
                    /** @description Only when the request used the deprecated from/to: where the change is described (rel="deprecation", RFC 9745) */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "lpTokenId": 1,
                     *       "pool": {
                     *         "token0Id": 0,
                     *         "token1Id": 1984
                     *       },
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "transfers": [
                     *         {
                     *           "blockNumber": 6,
                     *           "timestamp": 1700000000,
                     *           "extrinsicIndex": null,
                     *           "extrinsicHash": null,
                     *           "eventIndex": 2,
                     *           "tokenId": null,
                     *           "lpTokenId": 1,
                     *           "from": null,
                     *           "to": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "amount": "1000000",
                     *           "kind": "mint",
                     *           "event": "poolAssets.Issued",
                     *           "valueUsd": null,
                     *           "tip": null
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["LpTokenTransferPage"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAssetMetadata: {
        parameters: {
            query?: {
                /** @description Answer as of this block (from the store's history floor to its newest block) */
                at?: string;
                /** @description Answer as of the last block at or before this time (Unix seconds); not with at */
                atTime?: string;
            };
            header?: never;
            path: {
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Token metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenId": 1984,
                     *       "name": "Tether USD",
                     *       "symbol": "USDt",
                     *       "kind": "asset",
                     *       "assetId": 1984,
                     *       "location": null,
                     *       "totalSupply": "1000000000000",
                     *       "treasuryValue": "250000",
                     *       "valueUsd": "1",
                     *       "decimals": 6,
                     *       "owner": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
                     *       "status": "live",
                     *       "blockNumber": 2000
                     *     }
                     */
                    "application/json": components["schemas"]["AssetMetadata"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Credentials */
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description A token valid for expiresIn seconds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "data": {
                     *         "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdjNWE1Mi0zZjBlLTRjMWEtOWQ1NS0yZjZhOGUxYzdiMTAiLCJpYXQiOjE3OTUzNDg4MDAsImV4cCI6MTc5NTQzNTIwMH0.signature",
                     *         "expiresIn": 86400
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_CREDENTIALS, UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description New account */
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterRequest"];
            };
        };
        responses: {
            /** @description Registered; the token is valid for 24 h */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "success": true,
                     *       "message": "User registered.",
                     *       "data": {
                     *         "userId": "0b7c5a52-3f0e-4c1a-9d55-2f6a8e1c7b10",
                     *         "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdjNWE1Mi0zZjBlLTRjMWEtOWQ1NS0yZjZhOGUxYzdiMTAiLCJpYXQiOjE3OTUzNDg4MDAsImV4cCI6MTc5NTQzNTIwMH0.signature",
                     *         "expiresIn": 86400
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["RegisterResponse"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EMAIL_TAKEN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDexScreenerAsset: {
        parameters: {
            query: {
                /** @description Token id */
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset": {
                     *         "id": "1984",
                     *         "name": "Tether USD",
                     *         "symbol": "USDt",
                     *         "totalSupply": "1000000",
                     *         "metadata": {
                     *           "kind": "asset",
                     *           "decimals": "6"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DexScreenerAssetResponse"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDexScreenerEvents: {
        parameters: {
            query: {
                /** @description Block number (both bounds included; at most 1000 blocks a request) */
                fromBlock: string;
                /** @description Block number (both bounds included; at most 1000 blocks a request) */
                toBlock: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events in chain order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "events": [
                     *         {
                     *           "block": {
                     *             "blockNumber": 1500,
                     *             "blockTimestamp": 1794917200
                     *           },
                     *           "txnId": "1500-event-2",
                     *           "txnIndex": 2,
                     *           "eventIndex": 0,
                     *           "maker": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "pairId": "0-1984",
                     *           "eventType": "swap",
                     *           "asset0In": "0.000000001",
                     *           "asset1Out": "0.00099",
                     *           "priceNative": "990000",
                     *           "reserves": {
                     *             "asset0": "1000",
                     *             "asset1": "11000"
                     *           },
                     *           "metadata": {
                     *             "event": "1500-2"
                     *           }
                     *         },
                     *         {
                     *           "block": {
                     *             "blockNumber": 2000,
                     *             "blockTimestamp": 1795000000
                     *           },
                     *           "txnId": "2000-event-5",
                     *           "txnIndex": 5,
                     *           "eventIndex": 0,
                     *           "maker": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "pairId": "0-1984",
                     *           "eventType": "swap",
                     *           "asset0In": "0.000000001",
                     *           "asset1Out": "0.00099",
                     *           "priceNative": "990000",
                     *           "reserves": {
                     *             "asset0": "1000",
                     *             "asset1": "12500"
                     *           },
                     *           "metadata": {
                     *             "event": "2000-5"
                     *           }
                     *         },
                     *         {
                     *           "block": {
                     *             "blockNumber": 2000,
                     *             "blockTimestamp": 1795000000
                     *           },
                     *           "txnId": "2000-event-6",
                     *           "txnIndex": 6,
                     *           "eventIndex": 1,
                     *           "maker": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "pairId": "0-18",
                     *           "eventType": "swap",
                     *           "asset0In": "0.000000001",
                     *           "asset1Out": "0.00000000000000099",
                     *           "priceNative": "0.00000099",
                     *           "metadata": {
                     *             "event": "2000-6"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["DexScreenerEvents"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDexScreenerLatestBlock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The newest block whose events the store holds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "block": {
                     *         "blockNumber": 2000,
                     *         "blockTimestamp": 1795000000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DexScreenerLatestBlock"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BLOCK_NOT_INDEXED */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDexScreenerPair: {
        parameters: {
            query: {
                /** @description "{token0Id}-{token1Id}", as /dexscreener/events names it */
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pool */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pair": {
                     *         "id": "0-1984",
                     *         "dexKey": "asset-conversion",
                     *         "asset0Id": "0",
                     *         "asset1Id": "1984",
                     *         "feeBps": 30,
                     *         "metadata": {
                     *           "lpTokenId": "1",
                     *           "poolAccount": "pool-ksm-usdt"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["DexScreenerPairResponse"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description POOL_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The store answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "chain": {
                     *         "finalized": 2003
                     *       },
                     *       "indexer": {
                     *         "block": 2000,
                     *         "lag": 3,
                     *         "skippedEvents": 0,
                     *         "bootstrap": null,
                     *         "history": null,
                     *         "reread": null,
                     *         "verification": null,
                     *         "backfill": null
                     *       },
                     *       "db": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the store does not answer (error body plus the health fields) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthUnavailable"];
                };
            };
        };
    };
    getOracleHistory: {
        parameters: {
            query?: {
                /** @description Start, Unix seconds (default: to - 24 h) */
                from?: string;
                /** @description Seconds per point, 12 s to 1 year (default 3600); at most 1000 points */
                interval?: string;
                /** @description End, Unix seconds (default: the newest indexed block's time) */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Price points, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenId": 0,
                     *       "symbol": "KSM",
                     *       "kind": "native",
                     *       "assetId": null,
                     *       "location": null,
                     *       "from": 1794913600,
                     *       "to": 1795000000,
                     *       "interval": 3600,
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "points": [
                     *         {
                     *           "timestamp": 1794917200,
                     *           "valueUsd": "10",
                     *           "blockNumber": 1000
                     *         },
                     *         {
                     *           "timestamp": 1794920800,
                     *           "valueUsd": "10",
                     *           "blockNumber": 1000
                     *         },
                     *         {
                     *           "timestamp": 1794924400,
                     *           "valueUsd": "10",
                     *           "blockNumber": 1000
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PriceHistory"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOracleValue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Token id: 0 the native token, an asset's id (2^32 for the asset whose id is the native id), or a foreign asset's derived id (above 2^32) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description USD value of one whole token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenId": 0,
                     *       "symbol": "KSM",
                     *       "kind": "native",
                     *       "assetId": null,
                     *       "location": null,
                     *       "valueUsd": "12.5",
                     *       "timestamp": 1795000000,
                     *       "blockNumber": 2000
                     *     }
                     */
                    "application/json": components["schemas"]["OracleValue"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, PRICE_UNAVAILABLE */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOracleValues: {
        parameters: {
            query: {
                /** @description Token ids, comma-separated: 1 to 30, each once */
                ids: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each token's value, or why it has none */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "values": [
                     *         {
                     *           "tokenId": 0,
                     *           "symbol": "KSM",
                     *           "kind": "native",
                     *           "assetId": null,
                     *           "location": null,
                     *           "valueUsd": "12.5",
                     *           "error": null
                     *         },
                     *         {
                     *           "tokenId": 1984,
                     *           "symbol": "USDt",
                     *           "kind": "asset",
                     *           "assetId": 1984,
                     *           "location": null,
                     *           "valueUsd": "1",
                     *           "error": null
                     *         },
                     *         {
                     *           "tokenId": 7,
                     *           "symbol": "ZERO",
                     *           "kind": "asset",
                     *           "assetId": 7,
                     *           "location": null,
                     *           "valueUsd": null,
                     *           "error": {
                     *             "code": "PRICE_UNAVAILABLE",
                     *             "message": "Token 7 (ZERO) has no current USD price since block 1500: every pool route to a USD stablecoin fell below the liquidity floor (ORACLE_MIN_LIQUIDITY_USD) or is gone. Its earlier values are in /oracle/history/7."
                     *           }
                     *         }
                     *       ],
                     *       "timestamp": 1795000000,
                     *       "blockNumber": 2000
                     *     }
                     */
                    "application/json": components["schemas"]["OracleValues"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPoolStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Totals over all pools; 24 h windows end at the newest indexed block */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "totalPools": 3,
                     *       "totalValueLocked": "26650.061728394506172839",
                     *       "volume24h": "160.5",
                     *       "fees24h": "0.4815",
                     *       "swaps24h": 3,
                     *       "blockNumber": 2000,
                     *       "timestamp": 1795000000
                     *     }
                     */
                    "application/json": components["schemas"]["PoolStats"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPairStats: {
        parameters: {
            query?: {
                /** @description Answer as of this block (from the store's history floor to its newest block) */
                at?: string;
                /** @description Answer as of the last block at or before this time (Unix seconds); not with at */
                atTime?: string;
            };
            header?: never;
            path: {
                /** @description Token id or symbol (case-insensitive) */
                tokenA: string;
                /** @description Token id or symbol (case-insensitive) */
                tokenB: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pair, oriented as asked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenA": {
                     *         "tokenId": 0,
                     *         "symbol": "KSM",
                     *         "decimals": 12,
                     *         "kind": "native",
                     *         "assetId": null,
                     *         "location": null,
                     *         "reserve": "1000000000000000",
                     *         "priceUsd": "12.5"
                     *       },
                     *       "tokenB": {
                     *         "tokenId": 1984,
                     *         "symbol": "USDt",
                     *         "decimals": 6,
                     *         "kind": "asset",
                     *         "assetId": 1984,
                     *         "location": null,
                     *         "reserve": "12500000000",
                     *         "priceUsd": "1"
                     *       },
                     *       "price": "12.5",
                     *       "totalValueLocked": "25000",
                     *       "volume24h": "150.5",
                     *       "fees24h": "0.4515",
                     *       "swaps24h": 2,
                     *       "priceChange24h": "25",
                     *       "apr": "0.65919",
                     *       "lpTokenId": 1,
                     *       "lpSupply": "3535533905932",
                     *       "feeRate": "0.003",
                     *       "blockNumber": 2000,
                     *       "timestamp": 1795000000
                     *     }
                     */
                    "application/json": components["schemas"]["PairStats"];
                };
            };
            /** @description VALIDATION_ERROR, AMBIGUOUS_TOKEN */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, POOL_NOT_FOUND, BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPools: {
        parameters: {
            query?: {
                /** @description Rows per page, 1-500 (default 50) */
                limit?: string;
                /** @description asc or desc (default desc; id defaults to asc) */
                order?: "asc" | "desc";
                /** @description Page number, from 1 (default 1) */
                page?: string;
                /** @description Sort key: tvl, volume24h, swaps24h, id (default tvl) */
                sort?: "tvl" | "volume24h" | "swaps24h" | "id";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of pools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "page": 1,
                     *       "limit": 50,
                     *       "total": 3,
                     *       "totalPages": 1,
                     *       "sort": "volume24h",
                     *       "order": "asc",
                     *       "blockNumber": 2000,
                     *       "pools": [
                     *         {
                     *           "tokenA": {
                     *             "tokenId": 0,
                     *             "symbol": "KSM",
                     *             "decimals": 12,
                     *             "kind": "native",
                     *             "assetId": null,
                     *             "location": null,
                     *             "reserve": "10000000000000",
                     *             "priceUsd": "12.5"
                     *           },
                     *           "tokenB": {
                     *             "tokenId": 7,
                     *             "symbol": "ZERO",
                     *             "decimals": 0,
                     *             "kind": "asset",
                     *             "assetId": 7,
                     *             "location": null,
                     *             "reserve": "4000",
                     *             "priceUsd": null
                     *           },
                     *           "lpTokenId": 2,
                     *           "totalValueLocked": "125",
                     *           "volume24h": "0",
                     *           "fees24h": "0",
                     *           "swaps24h": 0
                     *         },
                     *         {
                     *           "tokenA": {
                     *             "tokenId": 0,
                     *             "symbol": "KSM",
                     *             "decimals": 12,
                     *             "kind": "native",
                     *             "assetId": null,
                     *             "location": null,
                     *             "reserve": "2000000000000",
                     *             "priceUsd": "12.5"
                     *           },
                     *           "tokenB": {
                     *             "tokenId": 18,
                     *             "symbol": "WETH",
                     *             "decimals": 18,
                     *             "kind": "asset",
                     *             "assetId": 18,
                     *             "location": null,
                     *             "reserve": "500000000000000000",
                     *             "priceUsd": "3000.123456789012345678"
                     *           },
                     *           "lpTokenId": 3,
                     *           "totalValueLocked": "1525.061728394506172839",
                     *           "volume24h": "10",
                     *           "fees24h": "0.03",
                     *           "swaps24h": 1
                     *         },
                     *         {
                     *           "tokenA": {
                     *             "tokenId": 0,
                     *             "symbol": "KSM",
                     *             "decimals": 12,
                     *             "kind": "native",
                     *             "assetId": null,
                     *             "location": null,
                     *             "reserve": "1000000000000000",
                     *             "priceUsd": "12.5"
                     *           },
                     *           "tokenB": {
                     *             "tokenId": 1984,
                     *             "symbol": "USDt",
                     *             "decimals": 6,
                     *             "kind": "asset",
                     *             "assetId": 1984,
                     *             "location": null,
                     *             "reserve": "12500000000",
                     *             "priceUsd": "1"
                     *           },
                     *           "lpTokenId": 1,
                     *           "totalValueLocked": "25000",
                     *           "volume24h": "150.5",
                     *           "fees24h": "0.4515",
                     *           "swaps24h": 2
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PoolList"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPoolOhlcv: {
        parameters: {
            query?: {
                /** @description Start, Unix seconds (default: 200 intervals before "to"); at most 1000 intervals */
                from?: string;
                /** @description 1m, 5m, 15m, 1h, 4h, 1d (default 1h); intervals are aligned to UTC */
                interval?: "1m" | "5m" | "15m" | "1h" | "4h" | "1d";
                /** @description End, Unix seconds (default, and at most: the newest indexed block's time) */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Token id or symbol (case-insensitive) */
                tokenA: string;
                /** @description Token id or symbol (case-insensitive) */
                tokenB: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Candles, oldest first; intervals before the pool's first price are left out. Every candle covers its whole interval: the last one, the interval holding "to", may include blocks after "to" (as a chart's current candle does) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenA": {
                     *         "tokenId": 0,
                     *         "symbol": "KSM",
                     *         "decimals": 12
                     *       },
                     *       "tokenB": {
                     *         "tokenId": 1984,
                     *         "symbol": "USDt",
                     *         "decimals": 6
                     *       },
                     *       "interval": "1h",
                     *       "from": 1794283200,
                     *       "to": 1795000000,
                     *       "blockNumber": 2000,
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "candles": [
                     *         {
                     *           "timestamp": 1794909600,
                     *           "open": "10",
                     *           "high": "10",
                     *           "low": "10",
                     *           "close": "10",
                     *           "usd": {
                     *             "open": "10",
                     *             "high": "10",
                     *             "low": "10",
                     *             "close": "10"
                     *           },
                     *           "volumeA": "1000",
                     *           "volumeB": "990",
                     *           "volumeUsd": "999",
                     *           "swaps": 1,
                     *           "empty": false
                     *         },
                     *         {
                     *           "timestamp": 1794913200,
                     *           "open": "10",
                     *           "high": "10",
                     *           "low": "10",
                     *           "close": "10",
                     *           "usd": {
                     *             "open": "10",
                     *             "high": "10",
                     *             "low": "10",
                     *             "close": "10"
                     *           },
                     *           "volumeA": "0",
                     *           "volumeB": "0",
                     *           "volumeUsd": "0",
                     *           "swaps": 0,
                     *           "empty": true
                     *         },
                     *         {
                     *           "timestamp": 1794916800,
                     *           "open": "11",
                     *           "high": "11",
                     *           "low": "11",
                     *           "close": "11",
                     *           "usd": {
                     *             "open": "10",
                     *             "high": "10",
                     *             "low": "10",
                     *             "close": "10"
                     *           },
                     *           "volumeA": "1000",
                     *           "volumeB": "990",
                     *           "volumeUsd": "100",
                     *           "swaps": 1,
                     *           "empty": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Candles"];
                };
            };
            /** @description VALIDATION_ERROR, AMBIGUOUS_TOKEN */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, POOL_NOT_FOUND, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPoolSwaps: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page */
                cursor?: string;
                /** @description Trades per page, 1-500 (default 50) */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description Token id or symbol (case-insensitive) */
                tokenA: string;
                /** @description Token id or symbol (case-insensitive) */
                tokenB: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of trades */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tokenA": {
                     *         "tokenId": 0,
                     *         "symbol": "KSM",
                     *         "decimals": 12
                     *       },
                     *       "tokenB": {
                     *         "tokenId": 1984,
                     *         "symbol": "USDt",
                     *         "decimals": 6
                     *       },
                     *       "historyFrom": 0,
                     *       "historyFromTime": null,
                     *       "historyGaps": [],
                     *       "historyComplete": true,
                     *       "trades": [
                     *         {
                     *           "blockNumber": 2000,
                     *           "timestamp": 1795000000,
                     *           "extrinsicIndex": null,
                     *           "eventIndex": 5,
                     *           "hop": 0,
                     *           "hops": 1,
                     *           "multiHop": false,
                     *           "account": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "side": "sell",
                     *           "tokenIn": 0,
                     *           "tokenOut": 1984,
                     *           "amountIn": "1000",
                     *           "amountOut": "990",
                     *           "volumeUsd": "50.5",
                     *           "fee": "3",
                     *           "feeUsd": "0.1515"
                     *         },
                     *         {
                     *           "blockNumber": 1500,
                     *           "timestamp": 1794917200,
                     *           "extrinsicIndex": null,
                     *           "eventIndex": 2,
                     *           "hop": 0,
                     *           "hops": 1,
                     *           "multiHop": false,
                     *           "account": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
                     *           "side": "sell",
                     *           "tokenIn": 0,
                     *           "tokenOut": 1984,
                     *           "amountIn": "1000",
                     *           "amountOut": "990",
                     *           "volumeUsd": "100",
                     *           "fee": "3",
                     *           "feeUsd": "0.3"
                     *         }
                     *       ],
                     *       "nextCursor": "WzE1MDAsMiwwXQ"
                     *     }
                     */
                    "application/json": components["schemas"]["TradePage"];
                };
            };
            /** @description VALIDATION_ERROR, AMBIGUOUS_TOKEN */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, POOL_NOT_FOUND, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Or: the last block at or before this time (Unix seconds) */
                    atTime?: number;
                    /** @description The block (default: the newest indexed) */
                    block?: number;
                    /** @description Or: an LP token (PoolAssets id, as /pools lists it): its holders at the block are the pool's providers */
                    lpTokenId?: number;
                    /** @description The token: must be an integer from 0 to 9007199254740991 (asset ids, and foreign assets' derived ids). Give this or lpTokenId */
                    tokenId?: number;
                };
            };
        };
        responses: {
            /** @description The snapshot of this token and block exists and is done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "tokenId": 1984,
                     *       "lpTokenId": null,
                     *       "blockNumber": 2000,
                     *       "timestamp": 1795000000,
                     *       "state": "done",
                     *       "progress": {
                     *         "accountsRead": 1,
                     *         "accountsTotal": 1,
                     *         "fraction": "1"
                     *       },
                     *       "holders": 1,
                     *       "totalBalance": "250000000000",
                     *       "error": null,
                     *       "createdAt": "2026-11-22T12:00:00.000Z",
                     *       "finishedAt": "2026-11-22T12:00:01.000Z",
                     *       "links": {
                     *         "holders": "/snapshots/1/holders",
                     *         "csv": "/snapshots/1/holders.csv"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["HolderSnapshot"];
                };
            };
            /** @description Queued or being computed: poll GET /snapshots/{id} */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 4,
                     *       "tokenId": 0,
                     *       "lpTokenId": null,
                     *       "blockNumber": 2000,
                     *       "timestamp": 1795000000,
                     *       "state": "queued",
                     *       "progress": {
                     *         "accountsRead": 0,
                     *         "accountsTotal": null,
                     *         "fraction": "0"
                     *       },
                     *       "holders": null,
                     *       "totalBalance": null,
                     *       "error": null,
                     *       "createdAt": "2026-11-22T12:00:00.000Z",
                     *       "finishedAt": null,
                     *       "links": {
                     *         "holders": "/snapshots/4/holders",
                     *         "csv": "/snapshots/4/holders.csv"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["HolderSnapshot"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_NOT_FOUND, BLOCK_NOT_INDEXED, BLOCK_BEFORE_HISTORY */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SNAPSHOT_TOO_LARGE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_SNAPSHOTS, RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Snapshot id (POST /snapshots answered it) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The snapshot */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "tokenId": 1984,
                     *       "lpTokenId": null,
                     *       "blockNumber": 2000,
                     *       "timestamp": 1795000000,
                     *       "state": "done",
                     *       "progress": {
                     *         "accountsRead": 1,
                     *         "accountsTotal": 1,
                     *         "fraction": "1"
                     *       },
                     *       "holders": 1,
                     *       "totalBalance": "250000000000",
                     *       "error": null,
                     *       "createdAt": "2026-11-22T12:00:00.000Z",
                     *       "finishedAt": "2026-11-22T12:00:01.000Z",
                     *       "links": {
                     *         "holders": "/snapshots/1/holders",
                     *         "csv": "/snapshots/1/holders.csv"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["HolderSnapshot"];
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SNAPSHOT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSnapshotHolders: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page; replaces page */
                cursor?: string;
                /** @description Holders per page, 1-1000 (default 50) */
                limit?: string;
                /** @description Page number, from 1 (default 1) */
                page?: string;
            };
            header?: never;
            path: {
                /** @description Snapshot id (POST /snapshots answered it) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of holders (JSON), or every holder (CSV: rank,address,balance; streamed; X-Row-Count and Content-Length say how much) */
            200: {
                headers: {
                    /** @description CSV only: the file's name, its token and block (holders-{tokenId}-at-{block}.csv; an LP token's snapshot: lp-holders-{lpTokenId}-at-{block}.csv) */
                    "Content-Disposition"?: string;
                    /** @description CSV only: the file's exact size in bytes. A download that ends short of it was cut (the connection is closed before, never ended cleanly). */
                    "Content-Length"?: string;
                    /** @description CSV only: the block the list is exact at. */
                    "X-Block-Number"?: string;
                    /** @description CSV only: the data rows the file holds (holders; the header line not counted). A file with fewer lines after its header is incomplete. */
                    "X-Row-Count"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "snapshotId": 1,
                     *       "tokenId": 1984,
                     *       "lpTokenId": null,
                     *       "blockNumber": 2000,
                     *       "page": 1,
                     *       "limit": 2,
                     *       "totalHolders": 1,
                     *       "totalPages": 1,
                     *       "holders": [
                     *         {
                     *           "rank": 1,
                     *           "address": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
                     *           "balance": "250000000000",
                     *           "share": "1"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["SnapshotHolderPage"];
                    "text/csv": string;
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SNAPSHOT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SNAPSHOT_NOT_READY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSnapshotHoldersCsv: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Snapshot id (POST /snapshots answered it) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description rank,address,balance; exact integers in smallest units; X-Row-Count and Content-Length say how much (a download that ends short of them was cut: use curl --fail and check its exit code) */
            200: {
                headers: {
                    /** @description CSV only: the file's name, its token and block (holders-{tokenId}-at-{block}.csv; an LP token's snapshot: lp-holders-{lpTokenId}-at-{block}.csv) */
                    "Content-Disposition"?: string;
                    /** @description CSV only: the file's exact size in bytes. A download that ends short of it was cut (the connection is closed before, never ended cleanly). */
                    "Content-Length"?: string;
                    /** @description CSV only: the block the list is exact at. */
                    "X-Block-Number"?: string;
                    /** @description CSV only: the data rows the file holds (holders; the header line not counted). A file with fewer lines after its header is incomplete. */
                    "X-Row-Count"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description VALIDATION_ERROR */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SNAPSHOT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SNAPSHOT_NOT_READY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}

/** Operations that take no bearer token (their `security` is empty), as "METHOD /path/{param}". */
export const PUBLIC_OPERATIONS: readonly string[] = [
    "GET /assets",
    "GET /dexscreener/asset",
    "GET /dexscreener/events",
    "GET /dexscreener/latest-block",
    "GET /dexscreener/pair",
    "GET /health",
    "GET /oracle/history/{id}",
    "GET /oracle/value/{id}",
    "GET /oracle/values",
    "GET /pool/stats",
    "GET /pool/stats/{tokenA}/{tokenB}",
    "GET /pools",
    "GET /pools/{tokenA}/{tokenB}/ohlcv",
    "GET /pools/{tokenA}/{tokenB}/swaps",
    "POST /auth/login",
    "POST /auth/register"
];
