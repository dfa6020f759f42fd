// The OpenAPI document's example answers (api/app.ts attaches them): the test fixture's real answers,
// written by test/api/openapi.test.ts (`npx vitest run test/api/openapi.test.ts -u`). Do not edit by hand:
// the test fails when an answer and its example differ.
export const OPENAPI_EXAMPLES: Record<string, Record<string, unknown>> = {
  "createSnapshot": {
    "200": {
      "id": 1,
      "tokenId": 1984,
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
        "timestamp": 1795000000
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
        "timestamp": 1795000000
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
        },
        {
          "timestamp": 1792180800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792195200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792209600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792224000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792238400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792252800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792267200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792281600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792296000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792310400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792324800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792339200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792353600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792368000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792382400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792396800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792411200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792425600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792440000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792454400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792468800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792483200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792497600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792512000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792526400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792540800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792555200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792569600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792584000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792598400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792612800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792627200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792641600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792656000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792670400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792684800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792699200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792713600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792728000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792742400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792756800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792771200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792785600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792800000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792814400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792828800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792843200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792857600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792872000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792886400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792900800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792915200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792929600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792944000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792958400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792972800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1792987200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793001600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793016000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793030400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793044800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793059200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793073600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793088000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793102400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793116800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793131200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793145600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793160000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793174400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793188800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793203200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793217600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793232000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793246400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793260800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793275200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793289600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793304000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793318400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793332800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793347200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793361600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793376000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793390400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793404800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793419200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793433600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793448000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793462400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793476800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793491200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793505600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793520000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793534400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793548800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793563200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793577600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793592000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793606400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793620800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793635200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793649600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793664000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793678400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793692800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793707200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793721600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793736000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793750400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793764800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793779200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793793600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793808000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793822400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793836800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793851200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793865600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793880000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793894400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793908800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793923200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793937600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793952000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793966400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793980800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1793995200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794009600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794024000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794038400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794052800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794067200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794081600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794096000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794110400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794124800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794139200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794153600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794168000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794182400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794196800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794211200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794225600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794240000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794254400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794268800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794283200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794297600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794312000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794326400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794340800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794355200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794369600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794384000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794398400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794412800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794427200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794441600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794456000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794470400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794484800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794499200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794513600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794528000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794542400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794556800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794571200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794585600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794600000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794614400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794628800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794643200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794657600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794672000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794686400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794700800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794715200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794729600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794744000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794758400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794772800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794787200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794801600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794816000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794830400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794844800,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794859200,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794873600,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794888000,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794902400,
          "supply": null,
          "holders": null,
          "blockNumber": null
        },
        {
          "timestamp": 1794916800,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 1000
        },
        {
          "timestamp": 1794931200,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 1000
        },
        {
          "timestamp": 1794945600,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 1000
        },
        {
          "timestamp": 1794960000,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 1000
        },
        {
          "timestamp": 1794974400,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 1000
        },
        {
          "timestamp": 1794988800,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 1000
        },
        {
          "timestamp": 1795000000,
          "supply": "1000000000000",
          "holders": 5,
          "blockNumber": 2000
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
      "decimals": 6,
      "owner": "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F",
      "status": "live",
      "blockNumber": 2000
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
        "reread": null
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
        },
        {
          "timestamp": 1794928000,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794931600,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794935200,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794938800,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794942400,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794946000,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794949600,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794953200,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794956800,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794960400,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794964000,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794967600,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794971200,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794974800,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794978400,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794982000,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794985600,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794989200,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794992800,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1794996400,
          "valueUsd": "10",
          "blockNumber": 1000
        },
        {
          "timestamp": 1795000000,
          "valueUsd": "12.5",
          "blockNumber": 2000
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
        },
        {
          "timestamp": 1794920400,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794924000,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794927600,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794931200,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794934800,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794938400,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794942000,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794945600,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794949200,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794952800,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794956400,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794960000,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794963600,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794967200,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794970800,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794974400,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794978000,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794981600,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794985200,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794988800,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794992400,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794996000,
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
          "volumeA": "0",
          "volumeB": "0",
          "volumeUsd": "0",
          "swaps": 0,
          "empty": true
        },
        {
          "timestamp": 1794999600,
          "open": "12.5",
          "high": "12.5",
          "low": "12.5",
          "close": "12.5",
          "usd": {
            "open": "12.5",
            "high": "12.5",
            "low": "12.5",
            "close": "12.5"
          },
          "volumeA": "1000",
          "volumeB": "990",
          "volumeUsd": "50.5",
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
      "historyFrom": null,
      "transfers": [
        {
          "blockNumber": 6,
          "timestamp": 1700000000,
          "extrinsicIndex": null,
          "eventIndex": 2,
          "tokenId": null,
          "lpTokenId": 1,
          "from": null,
          "to": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "amount": "1000000",
          "kind": "mint",
          "event": "poolAssets.Issued",
          "valueUsd": null,
          "direction": "in"
        }
      ],
      "nextCursor": "WzYsMl0"
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
        },
        {
          "tokenId": 18,
          "name": "Wrapped Ether",
          "symbol": "WETH",
          "kind": "asset",
          "assetId": 18,
          "location": null,
          "decimals": 18,
          "totalSupply": "500000000000000000000",
          "valueUsd": "3000.123456789012345678",
          "marketCapUsd": "1500061.728394506172839",
          "holders": 1,
          "status": "live"
        },
        {
          "tokenId": 21,
          "name": "Dup one",
          "symbol": "DUP",
          "kind": "asset",
          "assetId": 21,
          "location": null,
          "decimals": 6,
          "totalSupply": "1",
          "valueUsd": null,
          "marketCapUsd": null,
          "holders": 0,
          "status": "live"
        },
        {
          "tokenId": 22,
          "name": "Dup two",
          "symbol": "dup",
          "kind": "asset",
          "assetId": 22,
          "location": null,
          "decimals": 6,
          "totalSupply": "1",
          "valueUsd": null,
          "marketCapUsd": null,
          "holders": 0,
          "status": "live"
        },
        {
          "tokenId": 30,
          "name": "Lonely",
          "symbol": "LONE",
          "kind": "asset",
          "assetId": 30,
          "location": null,
          "decimals": 6,
          "totalSupply": "5",
          "valueUsd": null,
          "marketCapUsd": null,
          "holders": 0,
          "status": "live"
        },
        {
          "tokenId": 1984,
          "name": "Tether USD",
          "symbol": "USDt",
          "kind": "asset",
          "assetId": 1984,
          "location": null,
          "decimals": 6,
          "totalSupply": "1000000000000",
          "valueUsd": "1",
          "marketCapUsd": "1000000",
          "holders": 1,
          "status": "live"
        },
        {
          "tokenId": 4294967296,
          "name": "Dog",
          "symbol": "DOG",
          "kind": "asset",
          "assetId": 0,
          "location": null,
          "decimals": 10,
          "totalSupply": "70000000000",
          "valueUsd": null,
          "marketCapUsd": null,
          "holders": 1,
          "status": "live"
        },
        {
          "tokenId": 6520275024738589,
          "name": "USD Coin (Polkadot)",
          "symbol": "pUSDC",
          "kind": "foreign",
          "assetId": null,
          "location": {
            "parents": 2,
            "interior": {
              "x4": [
                {
                  "globalConsensus": {
                    "polkadot": null
                  }
                },
                {
                  "parachain": 1000
                },
                {
                  "palletInstance": 50
                },
                {
                  "generalIndex": 1337
                }
              ]
            }
          },
          "decimals": 6,
          "totalSupply": "5000000",
          "valueUsd": "1",
          "marketCapUsd": "5",
          "holders": 2,
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
      "historyFrom": null,
      "transfers": [
        {
          "blockNumber": 5,
          "timestamp": 1700000000,
          "extrinsicIndex": 1,
          "eventIndex": 1,
          "tokenId": 1984,
          "lpTokenId": null,
          "from": "Fr4N7KvxxWEaB6vdderVCW3nd4mNkBzW5of1hbHuXi1PV1T",
          "to": "EaG2CRhJWPb7qmdcJvy3LiWdh26Jreu9Dx6R1rXxPmYXoDk",
          "amount": "1000000",
          "kind": "transfer",
          "event": "assets.Transferred",
          "valueUsd": "1"
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
