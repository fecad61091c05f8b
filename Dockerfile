# One image, role by command (see docker-compose.yml): npm run serve | npm run worker | npm run migrate.
FROM node:20-bookworm-slim

# Offline engines: OCR (5 languages), audio/video, speech to text, PDF rasterising.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-por tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa \
      ffmpeg pocketsphinx pocketsphinx-en-us poppler-utils ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# .npmrc: onnxruntime-node installs its CPU build from npm only (no CUDA download from outside the registry).
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY prisma ./prisma
# postinstall generates the Prisma client (offline; see scripts/prisma-generate.mjs).
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY public ./public

ENV NODE_ENV=production DATA_DIR=/var/lib/docproc
RUN mkdir -p /var/lib/docproc && chown node:node /var/lib/docproc
USER node
EXPOSE 3000
CMD ["npm", "run", "serve"]
