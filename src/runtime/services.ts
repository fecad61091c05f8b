import { Redis } from 'ioredis';
import type { AppDeps } from '../app-deps.js';
import type { Config } from '../config.js';
import { createPrisma, type PrismaClient } from '../db/prisma.js';
import { detectEngines } from '../engines/inventory.js';
import { useBundledMediaTools } from '../engines/media-tools.js';
import { ClientSecretCache } from '../credentials/client-secret-cache.js';
import { findClientOfTenant } from '../modules/auth/clients.repository.js';
import { loadSigningKeys } from '../credentials/signing-keys.js';
import { createQueueRedis } from '../queues/queue-connection.js';
import { closeQueues, createQueues } from '../queues/queues.js';
import path from 'node:path';
import { LocalBlobStore, type BlobStore } from '../storage/blob-store.js';
import { S3BlobStore } from '../storage/s3-blob-store.js';
import { loadFileUrlSecret } from '../storage/signed-url.js';

export interface Services extends AppDeps {
  close: () => Promise<void>;
}

/**
 * The api's own connection (rate limits, readiness): fails at once while Redis is down, so an
 * outage degrades to "no rate limiting" instead of hanging every request.
 */
export function createRedis(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  redis.on('error', () => undefined);
  return redis;
}

/** The api's cache of client secret versions, listening on its own session of `databaseUrl`. */
export function createClientSecretCache(databaseUrl: string, prisma: PrismaClient): ClientSecretCache {
  return new ClientSecretCache(databaseUrl, (tenantId) => findClientOfTenant(prisma, tenantId));
}

/** The configured blob store: DATA_DIR/blobs, or the S3 bucket (BLOB_STORE=s3). */
export function createBlobStore(config: Config): BlobStore {
  if (config.BLOB_STORE === 's3') {
    return new S3BlobStore({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      credentials:
        config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
          ? { accessKeyId: config.AWS_ACCESS_KEY_ID, secretAccessKey: config.AWS_SECRET_ACCESS_KEY, sessionToken: config.AWS_SESSION_TOKEN }
          : undefined,
    });
  }
  return new LocalBlobStore(path.join(config.DATA_DIR, 'blobs'));
}

/**
 * Connections and keys shared by the api and worker roles. `queuePrefix` puts the queues under a
 * BullMQ prefix of their own (the benchmark's creates enqueue jobs no real worker may take).
 */
export async function createServices(
  config: Config,
  urls: { databaseUrl: string; redisUrl: string },
  options: { queuePrefix?: string } = {},
): Promise<Services> {
  const prisma = createPrisma(urls.databaseUrl);
  const redis = createRedis(urls.redisUrl);
  const keys = await loadSigningKeys({ privateKeyPem: config.JWT_PRIVATE_KEY, dataDir: config.DATA_DIR });
  useBundledMediaTools(config.BUNDLED_MEDIA_TOOLS);
  const engines = await detectEngines({ asrUrl: config.ASR_URL });
  const queueRedis = createQueueRedis(urls.redisUrl);
  const queues = createQueues(queueRedis, options.queuePrefix);
  const clientSecrets = createClientSecretCache(urls.databaseUrl, prisma);
  return {
    config,
    prisma,
    redis,
    queues,
    blobs: createBlobStore(config),
    fileUrlSecret: await loadFileUrlSecret(config),
    keys,
    clientSecrets,
    engines,
    close: async () => {
      await clientSecrets.close();
      await closeQueues(queues);
      queueRedis.disconnect();
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
