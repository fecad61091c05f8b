# One image, role by command (see docker-compose.yml): node dist/main.js serve | worker | migrate.
# Production runs the compiled JavaScript (npm run build); the TypeScript compiler, tsx and the
# test tools stay in the build stage.

# Build: every dependency, the Prisma client generated, the sources compiled to dist/, then the
# development dependencies pruned so that the final stage copies only what runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# .npmrc: onnxruntime-node installs its CPU build from npm only (no CUDA download from outside the registry).
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY prisma ./prisma
# postinstall generates the Prisma client into src/generated (offline; see scripts/prisma-generate.mjs).
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# Offline engines: OCR (5 languages, and Chinese and Japanese for the pages that need them), audio/video, speech to text, PDF rasterising.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-por tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa \
      tesseract-ocr-chi-tra tesseract-ocr-chi-sim tesseract-ocr-jpn \
      ffmpeg pocketsphinx pocketsphinx-en-us poppler-utils ca-certificates libjemalloc2 \
 && ln -s "$(dpkg -L libjemalloc2 | grep '/libjemalloc\.so\.2$')" /usr/local/lib/libjemalloc.so.2 \
 && test -e /usr/local/lib/libjemalloc.so.2 \
 && rm -rf /var/lib/apt/lists/*
# Memory allocator: jemalloc instead of glibc malloc, for every process of the container (node and
# the engine children). glibc keeps the memory PP-OCR's detector frees in its heaps (the app kept
# 620-750 MB half a minute after a receipt); jemalloc with these settings hands it back within
# about a second (about 350 MB kept), at no more CPU than glibc (docs/operations.md, Memory). The link above gives the library one path on
# every architecture (Debian puts it under /usr/lib/<multiarch>/). LD_PRELOAD= (empty) turns it off.
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,oversize_threshold:0

WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Read at run time beside dist/: the migrations (applied at start-up) and the review page.
COPY prisma ./prisma
COPY public ./public

ENV NODE_ENV=production DATA_DIR=/var/lib/docproc
RUN mkdir -p /var/lib/docproc && chown node:node /var/lib/docproc
USER node
EXPOSE 3000
# node itself is the container's first process: SIGTERM from `docker stop` reaches the service,
# which drains requests and finishes its jobs.
CMD ["node", "dist/main.js", "serve"]
