# syntax=docker/dockerfile:1
# The app's image: one image for both roles. The web instance is its CMD; the
# jobs worker is the same image with `node build/processes/jobs.js`
# (compose.yaml). Running it: docs/operations.md.
#
# Docker does not run where this app is developed. The runtime stage's steps are
# run on the machine instead, by tests/integration/production-start.test.ts (in
# `npm test`): it reads this file, copies what the `COPY --from=build` lines
# name, runs the stage's `RUN` (npm ci --omit=dev) with its `ENV`, and starts
# the `CMD` and the worker's command against PostgreSQL. Keep this stage to
# those instructions, one source per COPY, so that the test runs what ships.

# Node 22 LTS (engines: node >=22, docs/decisions.md D156). The build stage's npm ci
# also installs the `node` dev dependency (the same major), which the runtime leaves out.
ARG NODE_IMAGE=node:22-bookworm-slim

# Build: every dependency, the Prisma clients generated at install, then `npm run build`
# (the Remix app, the two processes compiled to JavaScript, the classic Prisma client packed).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime: what was built, and the production dependencies only (no TypeScript,
# no Vite, no embedded PostgreSQL). DATABASE_URL is required.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
ENV PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/package-lock.json ./package-lock.json
COPY --from=build /app/scripts/postinstall.mjs ./scripts/postinstall.mjs
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/prisma/migrations ./prisma/migrations
# Shopify's published Admin schema: the stand-in of local mode checks every request against it (D160).
COPY --from=build /app/app/shopify/schema ./app/shopify/schema
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts=false --prefer-offline --no-audit --no-fund
# The code stays root's; the app needs no writable folder when DATABASE_URL is set.
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "build/processes/web.js"]
