# syntax=docker/dockerfile:1
#
# One Dockerfile for every app of the distributed mode: the build stages compile the
# whole monorepo once (they do not depend on APP, so the seven image builds share them from
# the build cache); the last stage is the runtime image of one app:
#
#   docker build --build-arg APP=gateway -t cinetrace/gateway .
#
# APP is a directory of apps/ (gateway, project-service, prompt-service, trace-ingest,
# benchmark-service, benchmark-worker, media-service; all-in-one works too). The image runs
# `node apps/$APP/dist/main.js` as uid 1000 under tini; `node apps/$APP/dist/migrate.js`
# (apps with a database) migrates that app's schema and exits.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app

# ---------------------------------------------------------------------------------------
# Only the package manifests and the patches npm ci applies to dependencies (patches/,
# by patch-package), so that `npm ci` below is re-run when dependencies change, not on
# every source edit (BuildKit caches the COPY --from by content).
FROM base AS manifests
COPY . /src
RUN cd /src \
 && find . -type f ! -name package.json ! -name package-lock.json ! -path './patches/*' -delete \
 && find . -depth -mindepth 1 -type d -empty -delete

# ---------------------------------------------------------------------------------------
FROM base AS build
# better-sqlite3 (libs/persistence) compiles from source when no prebuilt binary can be
# fetched; the Node image ships the headers node-gyp needs (npm_config_nodedir), so the
# compilers are all that is missing.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    TURBO_TELEMETRY_DISABLED=1
COPY --from=manifests /src/ ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx turbo run build --output-logs=errors-only
# Drop the dev dependencies from the installed tree. Pruning (rather than a fresh
# `npm ci --omit=dev` in the runtime stage) keeps the native modules compiled above, so
# the runtime image needs no compiler, and keeps node_modules/@cinetrace/* as the
# workspace symlinks the apps resolve each other through.
RUN npm prune --omit=dev --no-audit --no-fund
# What the runtime needs: node_modules (with the workspace links), and of each workspace
# its package.json, dist/ and own node_modules when npm nested one there. Sources, tests,
# source maps, build caches and better-sqlite3's build tree (all but its .node binary)
# stay behind.
RUN mkdir -p /out \
 && cp -a package.json node_modules /out/ \
 && for dir in apps/* libs/*; do \
      mkdir -p "/out/$dir" \
      && cp -a "$dir/package.json" "$dir/dist" "/out/$dir/" \
      && if [ -d "$dir/node_modules" ]; then cp -a "$dir/node_modules" "/out/$dir/"; fi; \
    done \
 && rm -rf /out/node_modules/@ffmpeg-installer/linux-* /out/node_modules/@ffprobe-installer/linux-* \
 && find /out -name '*.map' -delete \
 && find /out -name '.tsbuildinfo' -delete \
 && sqlite=/out/node_modules/better-sqlite3 \
 && test -f "$sqlite/build/Release/better_sqlite3.node" \
 && mv "$sqlite/build/Release/better_sqlite3.node" /tmp/ \
 && rm -rf "$sqlite/build" "$sqlite/deps" "$sqlite/src" \
 && mkdir -p "$sqlite/build/Release" \
 && mv /tmp/better_sqlite3.node "$sqlite/build/Release/"

# ---------------------------------------------------------------------------------------
FROM base AS runtime
# tini is PID 1: it forwards SIGTERM to node and reaps zombies, so the apps' graceful
# shutdown runs (Kubernetes has no `docker run --init`).
# Debian's ffmpeg and ffprobe: found on PATH before the npm package's binaries, which the
# build stage leaves out (libs/media-tools, docs/deploy.md "ffmpeg and ffprobe").
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ffmpeg \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
COPY --from=build /out/ ./
# DATA_DIR: only the bootstrap key file (when BOOTSTRAP_API_KEY is unset) is written
# there in the distributed mode; the node user (uid 1000) owns it. /app/media: MEDIA_DIR of
# the filesystem media storage (a volume there starts with this ownership).
RUN mkdir -p /app/data /app/media && chown 1000:1000 /app/data /app/media

# Declared here, not above: the stages before do not depend on the app.
ARG APP
RUN if [ -z "$APP" ] || [ ! -f "apps/$APP/dist/main.js" ]; then \
      echo "Build with --build-arg APP=<app>, one of: $(ls apps | tr '\n' ' ')" >&2; exit 1; \
    fi
ENV CINETRACE_APP=${APP}
LABEL org.opencontainers.image.title="cinetrace-${APP}" \
      org.opencontainers.image.licenses="Apache-2.0"

USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--"]
# The shell only expands the app's name and `exec`s node, so node is tini's direct child
# and receives its signals. Kubernetes `args` (or `docker run IMAGE node …`) replace this,
# keeping tini.
CMD ["/bin/sh", "-c", "exec node \"apps/${CINETRACE_APP}/dist/main.js\""]
