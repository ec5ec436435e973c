# syntax=docker/dockerfile:1
#
# Gadfly, the GitHub App (`npm start`), in a container.
#
#   docker build -t gadfly .
#   docker run -d -p 3000:3000 -v gadfly-data:/data \
#     -v "$PWD/gadfly.config.yml:/app/gadfly.config.yml:ro" \
#     -e APP_ID -e PRIVATE_KEY -e WEBHOOK_SECRET -e OPENAI_API_KEY gadfly
#
# Three stages:
#   build    compiles the TypeScript to dist/; needs the dev dependencies.
#   deps     installs the production dependencies and compiles better-sqlite3's native
#            addon. It uses the runtime's own base image, so the addon matches the
#            runtime's Node ABI and C library, and the compiler it needs (python3, make,
#            g++) never reaches the runtime image. Installing them in the runtime stage
#            and purging them afterwards would also work, but takes more care to keep out
#            of the final layers.
#   runtime  a supported LTS Node, production dependencies only, running as `node`, with
#            bubblewrap: agent CLIs (`command` providers) run inside it when it works.
#
# Bubblewrap in a container: running as `node` (not root), it needs unprivileged user
# namespaces, which Docker's default seccomp and AppArmor profiles refuse, and a fresh
# /proc, which Docker's masked /proc paths refuse. Run with
#   --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
#   --security-opt systempaths=unconfined
# (or a seccomp profile that allows unshare, clone with namespace flags, mount and
# pivot_root), on a host kernel that allows unprivileged user namespaces
# (sysctl kernel.unprivileged_userns_clone=1 on Debian, user.max_user_namespaces > 0).
# The start-up log names the isolation in force; `sandbox.isolation: bwrap` in the config
# makes a container without it refuse to start instead of running agent CLIs unisolated.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would compile before the sources are copied, and the native
# addon is not needed to compile TypeScript.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:22-slim AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts skips `prepare` (tsc is a dev dependency); better-sqlite3 is the only
# production dependency with an install script, so it alone is rebuilt.
RUN npm ci --omit=dev --ignore-scripts \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

FROM node:22-slim AS runtime
# Only bubblewrap (no compiler, no package manager cache): the agent CLIs' sandbox.
RUN apt-get update \
  && apt-get install -y --no-install-recommends bubblewrap \
  && rm -rf /var/lib/apt/lists/*
# HOST: Probot listens on localhost by default, unreachable from outside the container.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  GADFLY_DATA_DIR=/data \
  NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json app.yml ./
COPY bin ./bin
COPY lenses ./lenses
COPY templates ./templates
COPY examples/demo ./examples/demo
# The app's files stay root-owned (read-only to the app); only the state volume is writable.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Probot answers GET /ping with PONG. Slim images have no curl: node's own fetch does it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/ping').then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
CMD ["npm", "start"]
