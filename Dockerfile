# syntax=docker/dockerfile:1
# The service image. One codebase; ROLE (edge, actors, bots, all) picks what a container runs.
#
#   docker build --target app  -t schedule-backend:TAG .        edge, actors, migration Job
#   docker build --target bots -t schedule-backend-bots:TAG .   bots (adds Debian's Chromium)
#
# The image runs compiled JavaScript: the `build` stage installs every dependency and compiles the
# TypeScript with `npm run build` (tsc, tsconfig.build.json) into dist/, folders kept; the runtime
# stages copy dist/ and the production dependencies of the `deps` stage (install scripts: bcrypt),
# without npm's cache. tsx, esbuild and embedded-postgres are devDependencies: not in the image (a
# container always has DATABASE_URL; without it the start names what to install). The headless
# Chromium that `npm start` unpacks from @sparticuz/chromium when CHROMIUM_PATH is unset is left out
# (67 MB): the bots image sets CHROMIUM_PATH to Debian's chromium, the app image runs no browser.
#
# Base image: the tag with its digest beside it (k8s/README.md, "Node runtime").
# Node 20 reached end of life in April 2026; the plan past it is in the same section
# (uWebSockets.js builds for Node 22/24 need glibc 2.38).

ARG NODE_IMAGE=node:20-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/@sparticuz \
 && npm cache clean --force

# build: TypeScript to JavaScript. Only tsc runs here, so no install script is needed.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY app ./app
COPY edge ./edge
COPY shared ./shared
COPY workers ./workers
COPY schemas ./schemas
RUN npm run build

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
# HOST=0.0.0.0: in a container the API and /metrics are reached on the pod's address (the code's
# default is loopback, for `npm start` on a laptop).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data \
    HOME=/home/app \
    MALLOC_ARENA_MAX=2
# Code and dependencies stay owned by root: the app user can read, not change them.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
# The compiled code, with schemas/migrations beside it (dist/schemas/migrations).
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown app:app /app/data
USER 10001:10001
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
# As `npm run start:compiled` (package.json; `npm start` runs the same V8 options on the sources through
# tsx): --initial-old-space-size=128 keeps the old generation's limit at 128 MB or more, so the upload
# bodies' buffers (external memory, which V8 counts against that limit) no longer start a full
# collection every half second (docs/operations.md, "Memory"). No tsx, no esbuild: plain node on dist/.
CMD ["node", "--initial-old-space-size=128", "dist/app/main.js"]

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
