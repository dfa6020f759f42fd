-- The extrinsic of a LiquidityAdded/LiquidityRemoved event (the DEX Screener adapter names its
-- transaction "block-extrinsic"); rows indexed before this migration have none (null).
ALTER TABLE "liquidity_events" ADD COLUMN "extrinsic_index" integer;