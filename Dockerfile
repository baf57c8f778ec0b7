# Tarmac in one image: the bundled server, the built web app and the production dependencies.
#   docker build -t tarmac .
#   docker build --build-arg NODE_IMAGE=registry.example.com/node:20-bookworm-slim -t tarmac .
# NODE_IMAGE is any image with Node.js 20.19+ and npm on PATH, built on glibc: npm ci installs the
# prebuilt native modules (argon2, resvg) of the libc it runs on, and both stages share the base.
# See docs/production.md.
ARG NODE_IMAGE=node:20-bookworm-slim

# Every workspace's manifest and the lock file, which npm ci checks against each other: the
# dependency layers below are reused while these stay the same.
FROM scratch AS manifests
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/inspector/package.json packages/inspector/
COPY packages/cli/package.json packages/cli/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY deploy/package.json deploy/

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY --from=manifests /src ./
# No scripts: `prepare` would build before the sources are here (it runs below); esbuild finds its
# binary through its optional dependency without its postinstall check.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN node scripts/build.mjs --web

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /src ./
# The server's production dependencies only (the web app's run in browsers, already bundled).
# npm keeps a version that conflicts with another workspace's in apps/server/node_modules (made
# here when it does not, so the COPY below always finds it). The server bundle holds the
# workspace packages (scripts/build.mjs), so their links, which would point at sources this image
# leaves out, go.
RUN npm ci --no-audit --no-fund --ignore-scripts --omit=dev --workspace apps/server \
  && rm -rf node_modules/@tarmac \
  && mkdir -p apps/server/node_modules

FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/apps/server/node_modules apps/server/node_modules
# The server finds what ships beside its code from its package.json (platform/server-root.ts):
# migrations, the common-password list, and the web build at ../web/dist.
COPY --from=build /src/apps/server/package.json apps/server/
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/server/migrations apps/server/migrations
COPY --from=build /src/apps/server/src/modules/auth/common-passwords.txt apps/server/src/modules/auth/
COPY --from=build /src/apps/web/dist apps/web/dist
# A numeric user, so orchestrators can verify runAsNonRoot; it needs no entry in /etc/passwd.
RUN mkdir /data && chown 1000:1000 /data
USER 1000:1000
# METRICS_HOST: Prometheus scrapes from another container; the metrics port is not published.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  METRICS_HOST=0.0.0.0 \
  METRICS_PORT=9464 \
  DATA_DIR=/data
# The embedded database, local storage and the generated secret key live here by default.
VOLUME ["/data"]
EXPOSE 3000 9464
# Readiness (database and storage answer) with Node itself: the base image need not have curl.
# A process started with ROLES=worker has no HTTP port; compose.yaml checks its metrics instead.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/ready/`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/dist/main.js"]
