# syntax=docker/dockerfile:1
# Multi-stage build: install → build assets → slim runtime that migrates, then serves.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# Styles and island bundles are built under Node (esbuild + vanilla-extract), see docs/decisions/0002-styles-build.md.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json bunfig.toml tsconfig.json ./
COPY src ./src
COPY search ./search
COPY islands ./islands
COPY migrations ./migrations
COPY scripts ./scripts
COPY sample ./sample
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
# Migrations run first (and again, idempotently, at server start); then the server and its in-process worker.
CMD ["sh", "-c", "node_modules/.bin/bun scripts/migrate.ts && exec node_modules/.bin/bun --max-http-header-size=262144 src/server.ts"]
