import { Redis } from 'ioredis';
import type { AppDeps } from '../app.js';
import type { Config } from '../config.js';
import { createPrisma, type PrismaClient } from '../db/prisma.js';
import { detectEngines } from '../engines/inventory.js';
import { ClientSecretCache } from '../modules/auth/client-secret-cache.js';
import { findClientOfTenant } from '../modules/auth/clients.repository.js';
import { loadSigningKeys } from '../modules/auth/signing-keys.js';
import { closeQueues, createQueues } from '../pipeline/queues.js';
import path from 'node:path';
import { LocalBlobStore } from '../storage/blob-store.js';
import { loadFileUrlSecret } from '../storage/signed-url.js';

export interface Services extends AppDeps {
  close: () => Promise<void>;
}

/**
 * The BullMQ connection: commands wait for a reconnect instead of failing (BullMQ requires
 * maxRetriesPerRequest null). Callers on a request path bound the wait themselves.
 */
export function createQueueRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  redis.on('error', () => undefined); // reconnects on its own; /ready reports the outage
  return redis;
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

export function createBlobStore(config: Config): LocalBlobStore {
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
