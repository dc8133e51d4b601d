# syntax=docker/dockerfile:1
# mcp-devtools as a shared server: Streamable HTTP on 0.0.0.0:3000, bearer tokens required, run as a non-root
# user, with production dependencies only. docs/deployment.md walks through building and running it.
#
# The base: Node.js 24 LTS, named by its exact release. A tag can still be moved to a rebuilt image; to build on
# exactly the image you reviewed, pin every stage by its digest, which
#   docker buildx imagetools inspect node:24.22.3-bookworm-slim
# prints (Digest: sha256:...):
#   docker build --build-arg NODE_IMAGE=node:24.22.3-bookworm-slim@sha256:<digest> -t mcp-devtools:<version> .
# docs/deployment.md says more.
ARG NODE_VERSION=24.22.3
ARG NODE_IMAGE=node:${NODE_VERSION}-bookworm-slim

# 1. The bundle: the dependencies and what builds them (rollup, TypeScript; the tests' packages are test/'s own
#    and not installed here), then `npm run build` into dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: the build needs none (SQLite's native module is built in the next stage).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json rollup.config.mjs ./
COPY core ./core
COPY plugins ./plugins
COPY server ./server
# dist/, and the empty folder of the audit log (MCP_AUDIT_LOG) that the image gives the server's user.
RUN npm run build && rm -f dist/*.map dist/chunks/*.map && mkdir -p state/audit

# 2. Production dependencies only, with SQLite's native module built for this image (a prebuilt binary when
#    one can be fetched, a compiler otherwise): package.json's allowScripts keeps `npm ci` from building it, and
#    `npm run build:sqlite` runs its install script.
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm run build:sqlite && npm cache clean --force

# 3. The image: Node, the production node_modules and the bundle; nothing else of the build.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    MCP_TRANSPORT=http \
    MCP_HTTP_HOST=0.0.0.0 \
    MCP_HTTP_PORT=3000 \
    MCP_AUTH_MODE=tokens \
    MCP_AUTH_TOKENS_FILE=/etc/mcp-devtools/tokens.yaml
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# Owned by the server's user: a volume mounted at /var/lib/mcp-devtools/audit starts with that owner (compose.yaml).
COPY --from=build --chown=node:node /src/state /var/lib/mcp-devtools
COPY package.json LICENSE ./
# The image's own `node` user (uid 1000): the server needs no privilege, and writes only below /tmp (Node's
# compile cache included, in /tmp/mcp-devtools/compile-cache) and, with MCP_AUDIT_LOG there, the audit folder.
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.MCP_HTTP_PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli.js"]
CMD ["serve"]
