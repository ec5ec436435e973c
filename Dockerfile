#
# Gadfly, the GitHub App, in a container (docker-compose.yml runs it with PostgreSQL).
#
#   docker build -t gadfly .
#   docker run -d --init -p 3000:3000 -v gadfly-data:/data \
#     -v "$PWD/gadfly.config.yml:/app/gadfly.config.yml:ro" \
#     -e APP_ID -e PRIVATE_KEY -e WEBHOOK_SECRET -e OPENAI_API_KEY gadfly
#
# With no APP_ID it serves the setup page that registers the App, and writes the App's
# credentials to /data/.env (GADFLY_ENV_FILE), in the volume: the next start reads them there.
#
# Every stage is the same Node LTS, pinned by version and Debian release (NODE_IMAGE; append
# `@sha256:…` to pin the digest your registry serves). The build needs the npm registry and
# Debian's packages only: better-sqlite3 ships its compiled addon (N-API) for each platform, so
# nothing is compiled, no compiler is installed and no Node headers are fetched.
#   build    compiles the TypeScript to dist/ (dev dependencies);
#   deps     the production dependencies alone, without what only a compiler would use;
#   runtime  Node, those dependencies, dist/ and bubblewrap, as the `node` user.
#
# Node is PID 1 (`node dist/main.js`, no npm or shell in between), so SIGTERM reaches Gadfly's
# graceful shutdown (at most 10 s: give `docker stop` more, as compose does). With `--init`
# (compose: `init: true`) Docker's init is PID 1 and Node its direct child, and reaps what agent
# CLIs leave behind.
#
# Agent CLIs (`command` providers) run inside bubblewrap, which needs user namespaces and a fresh
# /proc: run the container with the seccomp profile docker/seccomp-bwrap.json (Docker's default,
# plus what bubblewrap uses) and `systempaths=unconfined`; see docs/agent-cli-sandbox.md.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would compile before the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No production dependency has an install script to run; better-sqlite3 keeps only the
# prebuilt addon of this platform (its SQLite sources and the other platforms' addons are
# some 25 MB the runtime never loads).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && addon="linux-$(node -p process.arch).node" \
  && cd node_modules/better-sqlite3 \
  && rm -rf deps src build binding.gyp \
  && find prebuilds -type f ! -name "$addon" -delete \
  && test -f "prebuilds/$addon" \
  && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# Only bubblewrap, the agent CLIs' sandbox: no compiler, no package lists left behind.
RUN apt-get update \
  && apt-get install -y --no-install-recommends bubblewrap \
  && apt-get clean \
  && rm -rf /var/lib/apt/lists/*
# HOST: every interface (Probot's default, localhost, is unreachable from outside).
# LOG_FORMAT: JSON lines. NO_SMEE_SETUP: setup mode creates no smee.io channel on its own.
ENV HOST=0.0.0.0 \
  PORT=3000 \
  GADFLY_DATA_DIR=/data \
  GADFLY_ENV_FILE=/data/.env \
  LOG_FORMAT=json \
  NO_SMEE_SETUP=true \
  NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json app.yml ./
COPY bin ./bin
COPY lenses ./lenses
COPY templates ./templates
COPY examples/demo ./examples/demo
# The app's files stay root-owned (read-only to the app); only the state volume is writable.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
STOPSIGNAL SIGTERM
# Ready in its role (/readyz: the store and the queue answer; a worker serves it too), or the
# setup page before the App exists.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "dist/healthcheck.js"]
CMD ["node", "--max-semi-space-size=2", "--heap-growing-percent=50", "dist/main.js"]
