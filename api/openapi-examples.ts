// The OpenAPI document's example answers (api/app.ts attaches them): the test fixture's real answers,
// written by test/api/openapi.test.ts (`npx vitest run test/api/openapi.test.ts -u`). Do not edit by hand:
// the test fails when an answer and its example differ.
export const OPENAPI_EXAMPLES: Record<string, Record<string, unknown>> = {
  "createSnapshot": {
    "200": {
      "id": 1,
      "tokenId": 1984,
      "lpTokenId": null,
      "blockNumber": 2000,
      "timestamp": 1795000000,
      "state": "done",
      "progress": {
        "accountsRead": 1,
        "accountsTotal": 1,
        "fraction": "1"
      },
      "holders": 1,
      "totalBalance": "250000000000",
      "error": null,
      "createdAt": "2026-11-22T12:00:00.000Z",
      "finishedAt": "2026-11-22T12:00:01.000Z",
      "links": {
        "holders": "/snapshots/1/holders",
        "csv": "/snapshots/1/holders.csv"
      }
    },
    "202": {
      "id": 4,
      "tokenId": 0,
      "lpTokenId": null,
      "blockNumber": 2000,
      "timestamp": 1795000000,
      "state": "queued",
      "progress": {
        "accountsRead": 0,
        "accountsTotal": null,
        "fraction": "0"
      },
      "holders": null,
      "totalBalance": null,
      "error": null,
      "createdAt": "2026-11-22T12:00:00.000Z",
      "finishedAt": null,
      "links": {
        "holders": "/snapshots/4/holders",
        "csv": "/snapshots/4/holders.csv"
      }
    }
  },
  "getAccount": {
    "200": {
      "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
      "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
      "tokens": [
        {
          "tokenId": 18,
          "symbol": "WETH",
          "name": "Wrapped Ether",
          "decimals": 18,
          "kind": "asset",
          "assetId": 18,
          "location": null,
          "balance": "1500000000000000000",
          "valueUsd": "4500.185185183518518517",
          "share": "0.003",
          "free": null,
          "reserved": null,
          "frozen": null,
          "transferable": null,
          "status": "liquid",
          "blockNumber": 2000
        },
        {
          "tokenId": 10,
          "symbol": "TEN",
          "name": "Ten",
          "decimals": 10,
          "kind": "asset",
          "assetId": 10,
          "location": null,
          "balance": "300000000000",
          "valueUsd": "7.5",
          "share": "0.3",
          "free": null,
          "reserved": null,
          "frozen": null,
          "transferable": null,
          "status": "liquid",
          "blockNumber": 2000
        },
        {
          "tokenId": 4294967296,
          "symbol": "DOG",
          "name": "Dog",
          "decimals": 10,
          "kind": "asset",
          "assetId": 0,
          "location": null,
          "balance": "70000000000",
          "valueUsd": null,
          "share": "1",
          "free": null,
          "reserved": null,
          "frozen": null,
          "transferable": null,
          "status": "liquid",
          "blockNumber": 2000
        }
      ],
      "lpPositions": [
        {
          "lpTokenId": 1,
          "pool": "KSM/USDt",
          "balance": "707106781186",
          "lpSupply": "3535533905932",
          "share": "0.199999999999886862",
          "tokenA": {
            "tokenId": 0,
            "symbol": "KSM",
            "decimals": 12,
            "amount": "199999999999886",
            "valueUsd": "2499.999999998575"
          },
          "tokenB": {
            "tokenId": 1984,
            "symbol": "USDt",
            "decimals": 6,
            "amount": "2499999999",
            "valueUsd": "2499.999999"
          },
          "valueUsd": "4999.999998998575",
          "blockNumber": 2000
        }
      ],
      "totalValueUsd": "9507.685184182093518517",
      "truncated": false,
      "blockNumber": 2000,
      "timestamp": 1795000000
    }
  },
  "getAccountBalance": {
    "200": {
      "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
      "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
      "tokenId": 1984,
      "symbol": "USDt",
      "decimals": 6,
      "balance": "0",
      "asOf": {
        "blockNumber": 2000,
        "timestamp": 1795000000,
        "historyFrom": 2000
      },
      "recordedAt": null
    }
  },
  "getAccountLpBalance": {
    "200": {
      "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
      "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
      "lpTokenId": 1,
      "pool": {
        "token0Id": 0,
        "token1Id": 1984
      },
      "balance": "707106781186",
      "asOf": {
        "blockNumber": 2000,
        "timestamp": 1795000000,
        "historyFrom": 2000
      },
      "recordedAt": 2000
    }
  },
  "getAssetHistory": {
    "200": {
      "tokenId": 10,
      "symbol": "TEN",
      "decimals": 10,
      "interval": "4h",
      "from": 1792123200,
      "to": 1795000000,
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "points": [
        {
          "timestamp": 1792137600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792152000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792166400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        }
      ]
    }
  },
  "getAssetMetadata": {
    "200": {
      "tokenId": 1984,
      "name": "Tether USD",
      "symbol": "USDt",
      "kind": "asset",
      "assetId": 1984,
      "location": null,
      "totalSupply": "1000000000000",
      "treasuryValue": "250000",
      "valueUsd": "1",
      "decimals": 6,
      "owner": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
      "status": "live",
      "blockNumber": 2000
    }
  },
  "getDexScreenerAsset": {
    "200": {
      "asset": {
        "id": "1984",
        "name": "Tether USD",
        "symbol": "USDt",
        "totalSupply": "1000000",
        "metadata": {
          "kind": "asset",
          "decimals": "6"
        }
      }
    }
  },
  "getDexScreenerEvents": {
    "200": {
      "events": [
        {
          "block": {
            "blockNumber": 1500,
            "blockTimestamp": 1794917200
          },
          "txnId": "1500-event-2",
          "txnIndex": 2,
          "eventIndex": 0,
          "maker": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "pairId": "0-1984",
          "eventType": "swap",
          "asset0In": "0.000000001",
          "asset1Out": "0.00099",
          "priceNative": "990000",
          "reserves": {
            "asset0": "1000",
            "asset1": "11000"
          },
          "metadata": {
            "event": "1500-2"
          }
        },
        {
          "block": {
            "blockNumber": 2000,
            "blockTimestamp": 1795000000
          },
          "txnId": "2000-event-5",
          "txnIndex": 5,
          "eventIndex": 0,
          "maker": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "pairId": "0-1984",
          "eventType": "swap",
          "asset0In": "0.000000001",
          "asset1Out": "0.00099",
          "priceNative": "990000",
          "reserves": {
            "asset0": "1000",
            "asset1": "12500"
          },
          "metadata": {
            "event": "2000-5"
          }
        },
        {
          "block": {
            "blockNumber": 2000,
            "blockTimestamp": 1795000000
          },
          "txnId": "2000-event-6",
          "txnIndex": 6,
          "eventIndex": 1,
          "maker": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "pairId": "0-18",
          "eventType": "swap",
          "asset0In": "0.000000001",
          "asset1Out": "0.00000000000000099",
          "priceNative": "0.00000099",
          "metadata": {
            "event": "2000-6"
          }
        }
      ]
    }
  },
  "getDexScreenerLatestBlock": {
    "200": {
      "block": {
        "blockNumber": 2000,
        "blockTimestamp": 1795000000
      }
    }
  },
  "getDexScreenerPair": {
    "200": {
      "pair": {
        "id": "0-1984",
        "dexKey": "asset-conversion",
        "asset0Id": "0",
        "asset1Id": "1984",
        "feeBps": 30,
        "metadata": {
          "lpTokenId": "1",
          "poolAccount": "pool-ksm-usdt"
        }
      }
    }
  },
  "getHealth": {
    "200": {
      "status": "ok",
      "chain": {
        "finalized": 2003
      },
      "indexer": {
        "block": 2000,
        "lag": 3,
        "skippedEvents": 0,
        "bootstrap": null,
        "history": null,
        "reread": null,
        "verification": null,
        "backfill": null
      },
      "db": "ok"
    }
  },
  "getOracleHistory": {
    "200": {
      "tokenId": 0,
      "symbol": "KSM",
      "kind": "native",
      "assetId": null,
      "location": null,
      "from": 1794913600,
      "to": 1795000000,
      "interval": 3600,
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "points": [
        {
          "timestamp": 1794917200,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794920800,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794924400,
          "valueUsd": "10",
          "blockNumber": 1000
        }
      ]
    }
  },
  "getOracleValue": {
    "200": {
      "tokenId": 0,
      "symbol": "KSM",
      "kind": "native",
      "assetId": null,
      "location": null,
      "valueUsd": "12.5",
      "timestamp": 1795000000,
      "blockNumber": 2000
    }
  },
  "getOracleValues": {
    "200": {
      "values": [
        {
          "tokenId": 0,
          "symbol": "KSM",
          "kind": "native",
          "assetId": null,
          "location": null,
          "valueUsd": "12.5",
          "error": null
        },
        {
          "tokenId": 1984,
          "symbol": "USDt",
          "kind": "asset",
          "assetId": 1984,
          "location": null,
          "valueUsd": "1",
          "error": null
        },
        {
          "tokenId": 7,
          "symbol": "ZERO",
          "kind": "asset",
          "assetId": 7,
          "location": null,
          "valueUsd": null,
          "error": {
            "code": "PRICE_UNAVAILABLE",
            "message": "Token 7 (ZERO) has no current USD price since block 1500: every pool route to a USD stablecoin fell below the liquidity floor (ORACLE_MIN_LIQUIDITY_USD) or is gone. Its earlier values are in /oracle/history/7."
          }
        }
      ],
      "timestamp": 1795000000,
      "blockNumber": 2000
    }
  },
  "getPairStats": {
    "200": {
      "tokenA": {
        "tokenId": 0,
        "symbol": "KSM",
        "decimals": 12,
        "kind": "native",
        "assetId": null,
        "location": null,
        "reserve": "1000000000000000",
        "priceUsd": "12.5"
      },
      "tokenB": {
        "tokenId": 1984,
        "symbol": "USDt",
        "decimals": 6,
        "kind": "asset",
        "assetId": 1984,
        "location": null,
        "reserve": "12500000000",
        "priceUsd": "1"
      },
      "price": "12.5",
      "totalValueLocked": "25000",
      "volume24h": "150.5",
      "fees24h": "0.4515",
      "swaps24h": 2,
      "priceChange24h": "25",
      "apr": "0.65919",
      "lpTokenId": 1,
      "lpSupply": "3535533905932",
      "feeRate": "0.003",
      "blockNumber": 2000,
      "timestamp": 1795000000
    }
  },
  "getPoolOhlcv": {
    "200": {
      "tokenA": {
        "tokenId": 0,
        "symbol": "KSM",
        "decimals": 12
      },
      "tokenB": {
        "tokenId": 1984,
        "symbol": "USDt",
        "decimals": 6
      },
      "interval": "1h",
      "from": 1794283200,
      "to": 1795000000,
      "blockNumber": 2000,
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "candles": [
        {
          "timestamp": 1794909600,
          "open": "10",
          "high": "10",
          "low": "10",
          "close": "10",
          "usd": {
            "open": "10",
            "high": "10",
            "low": "10",
            "close": "10"
          },
          "volumeA": "1000",
          "volumeB": "990",
          "volumeUsd": "999",
          "swaps": 1,
          "empty": false
        },
        {
          "timestamp": 1794913200,
          "open": "10",
          "high": "10",
          "low": "10",
          "close": "10",
          "usd": {
            "open": "10",
            "high": "10",
            "low": "10",
            "close": "10"
          },
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794916800,
          "open": "11",
          "high": "11",
          "low": "11",
          "close": "11",
          "usd": {
            "open": "10",
            "high": "10",
            "low": "10",
            "close": "10"
          },
          "volumeA": "1000",
          "volumeB": "990",
          "volumeUsd": "100",
          "swaps": 1,
          "empty": false
        }
      ]
    }
  },
  "getPoolStats": {
    "200": {
      "totalPools": 3,
      "totalValueLocked": "26650.061728394506172839",
      "volume24h": "160.5",
      "fees24h": "0.4815",
      "swaps24h": 3,
      "blockNumber": 2000,
      "timestamp": 1795000000
    }
  },
  "getSnapshot": {
    "200": {
      "id": 1,
      "tokenId": 1984,
      "lpTokenId": null,
      "blockNumber": 2000,
      "timestamp": 1795000000,
      "state": "done",
      "progress": {
        "accountsRead": 1,
        "accountsTotal": 1,
        "fraction": "1"
      },
      "holders": 1,
      "totalBalance": "250000000000",
      "error": null,
      "createdAt": "2026-11-22T12:00:00.000Z",
      "finishedAt": "2026-11-22T12:00:01.000Z",
      "links": {
        "holders": "/snapshots/1/holders",
        "csv": "/snapshots/1/holders.csv"
      }
    }
  },
  "listAccountSwaps": {
    "200": {
      "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
      "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "trades": [
        {
          "blockNumber": 2000,
          "timestamp": 1795000000,
          "extrinsicIndex": null,
          "eventIndex": 6,
          "hop": 0,
          "hops": 1,
          "multiHop": false,
          "pool": {
            "token0Id": 0,
            "token1Id": 18
          },
          "tokenIn": 0,
          "tokenOut": 18,
          "amountIn": "1000",
          "amountOut": "990",
          "volumeUsd": "10",
          "fee": "3",
          "feeUsd": "0.03"
        }
      ],
      "nextCursor": "WzIwMDAsNiwwXQ"
    }
  },
  "listAccountTransfers": {
    "200": {
      "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
      "accountId": "0x90b59e02132e1e5ceb4cc12525c551efa351eed4b721b99a71e214554811ddf3",
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "transfers": [
        {
          "blockNumber": 6,
          "timestamp": 1700000000,
          "extrinsicIndex": null,
          "extrinsicHash": null,
          "eventIndex": 2,
          "tokenId": null,
          "lpTokenId": 1,
          "from": null,
          "to": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "amount": "1000000",
          "kind": "mint",
          "event": "poolAssets.Issued",
          "valueUsd": null,
          "tip": null,
          "symbol": null,
          "decimals": null,
          "direction": "in"
        }
      ],
      "nextCursor": "WzYsMl0",
      "partial": false
    }
  },
  "listAssetHolders": {
    "200": {
      "tokenId": 10,
      "page": 1,
      "limit": 2,
      "totalHolders": 5,
      "totalPages": 3,
      "holders": [
        {
          "rank": 1,
          "address": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
          "balance": "400000000000",
          "share": "0.4",
          "free": null,
          "reserved": null,
          "frozen": null,
          "transferable": null,
          "status": "liquid"
        },
        {
          "rank": 2,
          "address": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "balance": "300000000000",
          "share": "0.3",
          "free": null,
          "reserved": null,
          "frozen": null,
          "transferable": null,
          "status": "liquid"
        }
      ],
      "nextCursor": "WyIzMDAwMDAwMDAwMDAiLCJGcjRON0t2eHhXRWFCNnZkZGVyVkNXM25kNG1Oa0J6VzVvZjFoYkh1WGkxUFYxVCIsMl0"
    }
  },
  "listAssets": {
    "200": {
      "page": 1,
      "limit": 50,
      "total": 10,
      "totalPages": 1,
      "sort": "id",
      "order": "asc",
      "blockNumber": 2000,
      "assets": [
        {
          "tokenId": 0,
          "name": "Kusama",
          "symbol": "KSM",
          "kind": "native",
          "assetId": null,
          "location": null,
          "decimals": 12,
          "totalSupply": "15000000000000000000",
          "valueUsd": "12.5",
          "marketCapUsd": "187500000",
          "holders": 2,
          "status": "live"
        },
        {
          "tokenId": 7,
          "name": "Whole",
          "symbol": "ZERO",
          "kind": "asset",
          "assetId": 7,
          "location": null,
          "decimals": 0,
          "totalSupply": "1000",
          "valueUsd": null,
          "marketCapUsd": null,
          "holders": 0,
          "status": "frozen"
        },
        {
          "tokenId": 10,
          "name": "Ten",
          "symbol": "TEN",
          "kind": "asset",
          "assetId": 10,
          "location": null,
          "decimals": 10,
          "totalSupply": "1000000000000",
          "valueUsd": "0.25",
          "marketCapUsd": "25",
          "holders": 5,
          "status": "live"
        }
      ]
    }
  },
  "listAssetTransfers": {
    "200": {
      "tokenId": 1984,
      "symbol": "USDt",
      "decimals": 6,
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "transfers": [
        {
          "blockNumber": 5,
          "timestamp": 1700000000,
          "extrinsicIndex": 1,
          "extrinsicHash": null,
          "eventIndex": 1,
          "tokenId": 1984,
          "lpTokenId": null,
          "from": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "to": "EaG2CRhJWPb7qmdcJvy3LiWdh26Jreu9Dx6R1rXxPmYXoDk",
          "amount": "1000000",
          "kind": "transfer",
          "event": "assets.Transferred",
          "valueUsd": "1",
          "tip": null
        }
      ],
      "nextCursor": null
    }
  },
  "listLpTokenTransfers": {
    "200": {
      "lpTokenId": 1,
      "pool": {
        "token0Id": 0,
        "token1Id": 1984
      },
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "transfers": [
        {
          "blockNumber": 6,
          "timestamp": 1700000000,
          "extrinsicIndex": null,
          "extrinsicHash": null,
          "eventIndex": 2,
          "tokenId": null,
          "lpTokenId": 1,
          "from": null,
          "to": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "amount": "1000000",
          "kind": "mint",
          "event": "poolAssets.Issued",
          "valueUsd": null,
          "tip": null
        }
      ],
      "nextCursor": null
    }
  },
  "listPools": {
    "200": {
      "page": 1,
      "limit": 50,
      "total": 3,
      "totalPages": 1,
      "sort": "volume24h",
      "order": "asc",
      "blockNumber": 2000,
      "pools": [
        {
          "tokenA": {
            "tokenId": 0,
            "symbol": "KSM",
            "decimals": 12,
            "kind": "native",
            "assetId": null,
            "location": null,
            "reserve": "10000000000000",
            "priceUsd": "12.5"
          },
          "tokenB": {
            "tokenId": 7,
            "symbol": "ZERO",
            "decimals": 0,
            "kind": "asset",
            "assetId": 7,
            "location": null,
            "reserve": "4000",
            "priceUsd": null
          },
          "lpTokenId": 2,
          "totalValueLocked": "125",
          "volume24h": "0",
          "fees24h": "0",
          "swaps24h": 0
        },
        {
          "tokenA": {
            "tokenId": 0,
            "symbol": "KSM",
            "decimals": 12,
            "kind": "native",
            "assetId": null,
            "location": null,
            "reserve": "2000000000000",
            "priceUsd": "12.5"
          },
          "tokenB": {
            "tokenId": 18,
            "symbol": "WETH",
            "decimals": 18,
            "kind": "asset",
            "assetId": 18,
            "location": null,
            "reserve": "500000000000000000",
            "priceUsd": "3000.123456789012345678"
          },
          "lpTokenId": 3,
          "totalValueLocked": "1525.061728394506172839",
          "volume24h": "10",
          "fees24h": "0.03",
          "swaps24h": 1
        },
        {
          "tokenA": {
            "tokenId": 0,
            "symbol": "KSM",
            "decimals": 12,
            "kind": "native",
            "assetId": null,
            "location": null,
            "reserve": "1000000000000000",
            "priceUsd": "12.5"
          },
          "tokenB": {
            "tokenId": 1984,
            "symbol": "USDt",
            "decimals": 6,
            "kind": "asset",
            "assetId": 1984,
            "location": null,
            "reserve": "12500000000",
            "priceUsd": "1"
          },
          "lpTokenId": 1,
          "totalValueLocked": "25000",
          "volume24h": "150.5",
          "fees24h": "0.4515",
          "swaps24h": 2
        }
      ]
    }
  },
  "listPoolSwaps": {
    "200": {
      "tokenA": {
        "tokenId": 0,
        "symbol": "KSM",
        "decimals": 12
      },
      "tokenB": {
        "tokenId": 1984,
        "symbol": "USDt",
        "decimals": 6
      },
      "historyFrom": 0,
      "historyFromTime": null,
      "historyGaps": [],
      "historyComplete": true,
      "trades": [
        {
          "blockNumber": 2000,
          "timestamp": 1795000000,
          "extrinsicIndex": null,
          "eventIndex": 5,
          "hop": 0,
          "hops": 1,
          "multiHop": false,
          "account": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "side": "sell",
          "tokenIn": 0,
          "tokenOut": 1984,
          "amountIn": "1000",
          "amountOut": "990",
          "volumeUsd": "50.5",
          "fee": "3",
          "feeUsd": "0.1515"
        },
        {
          "blockNumber": 1500,
          "timestamp": 1794917200,
          "extrinsicIndex": null,
          "eventIndex": 2,
          "hop": 0,
          "hops": 1,
          "multiHop": false,
          "account": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "side": "sell",
          "tokenIn": 0,
          "tokenOut": 1984,
          "amountIn": "1000",
          "amountOut": "990",
          "volumeUsd": "100",
          "fee": "3",
          "feeUsd": "0.3"
        }
      ],
      "nextCursor": "WzE1MDAsMiwwXQ"
    }
  },
  "listSnapshotHolders": {
    "200": {
      "snapshotId": 1,
      "tokenId": 1984,
      "lpTokenId": null,
      "blockNumber": 2000,
      "page": 1,
      "limit": 2,
      "totalHolders": 1,
      "totalPages": 1,
      "holders": [
        {
          "rank": 1,
          "address": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
          "balance": "250000000000",
          "share": "1"
        }
      ],
      "nextCursor": null
    }
  },
  "login": {
    "200": {
      "success": true,
      "data": {
        "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdjNWE1Mi0zZjBlLTRjMWEtOWQ1NS0yZjZhOGUxYzdiMTAiLCJpYXQiOjE3OTUzNDg4MDAsImV4cCI6MTc5NTQzNTIwMH0.signature",
        "expiresIn": 86400
      }
    }
  },
  "register": {
    "200": {
      "success": true,
      "message": "User registered.",
      "data": {
        "userId": "0b7c5a52-3f0e-4c1a-9d55-2f6a8e1c7b10",
        "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdjNWE1Mi0zZjBlLTRjMWEtOWQ1NS0yZjZhOGUxYzdiMTAiLCJpYXQiOjE3OTUzNDg4MDAsImV4cCI6MTc5NTQzNTIwMH0.signature",
        "expiresIn": 86400
      }
    }
  }
};
