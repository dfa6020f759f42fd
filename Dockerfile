# TokenPool: one image for every role (api, indexer, worker, backfill, devnet); the command picks it.
FROM node:20-bookworm-slim
WORKDIR /app
# sqlite3 (a chopsticks dependency, for `tokenpool devnet`) builds from source on Node 20.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# patches/: fixes to dependencies applied by patch-package in npm ci's postinstall.
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000
EXPOSE 3000
ENTRYPOINT ["node", "bin/tokenpool.mjs"]
CMD ["start"]
