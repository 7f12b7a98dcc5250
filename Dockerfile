# syntax=docker/dockerfile:1
# Multi-stage: dependencies are installed in a build stage, the runtime image carries only the
# production tree and runs as the unprivileged `node` user.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
COPY --chown=node:node src ./src
COPY --chown=node:node cypher ./cypher
COPY --chown=node:node seeds ./seeds
RUN mkdir -p /data && chown node:node /data \
 && ln -s /app/src/cli/lvs-admin.mjs /usr/local/bin/lvs-admin
USER node
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
