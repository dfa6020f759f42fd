# TokenPool: one image for every role (api, indexer, worker, backfill); the command picks it. The
# devnet has a target of its own (devnet), which the default image (runtime) leaves out.
# The build stage compiles the TypeScript to dist/ (`npm run build`); the images run dist/ — no
# TypeScript loader (tsx is a development dependency), no compiler, no sources.
# No HEALTHCHECK here: every role runs this image and only some serve HTTP; compose declares one per service.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# sqlite3 (a chopsticks dependency, for `tokenpool devnet`) may build from source (node-gyp).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The typed client is an npm workspace: npm ci needs its manifest (the image does not ship it).
COPY client/package.json ./client/package.json
# patches/: fixes to dependencies applied by patch-package in npm ci's postinstall.
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs --force && npm prune --omit=dev --no-audit --no-fund

# The modules of the production image: the devnet (chopsticks, its SQLite and their ≈ 170
# packages, 114 MB) left out — an API, indexer or worker replica never runs it. So are the GPL-3.0
# light client and its helpers, optional dependencies of @polkadot/rpc-provider that TokenPool
# never loads (it connects over WebSocket): scripts/licences.mjs lists them as exceptions for this.
FROM build AS runtime-modules
RUN npm uninstall --omit=dev --no-audit --no-fund @acala-network/chopsticks @substrate/connect-known-chains \
  && rm -rf node_modules/@substrate/connect node_modules/@substrate/connect-extension-protocol node_modules/@substrate/connect-known-chains \
    node_modules/@substrate/light-client-extension-helpers node_modules/smoldot \
  && if find node_modules -path '*/@substrate/connect*' -o -name smoldot | grep .; then echo "GPL-3.0 packages left in the image (above)" >&2; exit 1; fi

FROM node:24-bookworm-slim AS base
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 PORT=3000
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/tokenpool.mjs"]
CMD ["start"]

# `docker build --target devnet`: the same, with the local devnet (`tokenpool devnet`, and
# `tokenpool start` without WS_URL); docker compose's devnet profile builds it.
FROM base AS devnet
COPY --from=build /app/node_modules ./node_modules

# The default target (last): api, indexer, worker, backfill, status — against a node at WS_URL.
# `tokenpool devnet` here says that the devnet is not installed and what to run instead.
FROM base AS runtime
COPY --from=runtime-modules /app/node_modules ./node_modules
