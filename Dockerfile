# TokenPool: one image for every role (api, indexer, worker, backfill, devnet); the command picks it.
# Two stages: the build (TypeScript compiled to dist/ by `npm run build`), then the image, which
# runs dist/ — no TypeScript loader (tsx is a development dependency), no compiler, no sources.
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

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 PORT=3000
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/tokenpool.mjs"]
CMD ["start"]
