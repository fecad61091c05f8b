import { Redis } from 'ioredis';
import type { AppDeps } from '../app.js';
import type { Config } from '../config.js';
import { createPrisma } from '../db/prisma.js';
import { detectEngines } from '../engines/inventory.js';
import { loadSigningKeys } from '../modules/auth/signing-keys.js';

export interface Services extends AppDeps {
  close: () => Promise<void>;
}

export function createRedis(url: string): Redis {
  // maxRetriesPerRequest null: BullMQ requires it, and commands wait for a reconnect instead of failing fast.
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  redis.on('error', () => undefined); // reconnects on its own; /ready reports the outage
  return redis;
}

/** Connections and keys shared by the api and worker roles. */
export async function createServices(config: Config, urls: { databaseUrl: string; redisUrl: string }): Promise<Services> {
  const prisma = createPrisma(urls.databaseUrl);
  const redis = createRedis(urls.redisUrl);
  const keys = await loadSigningKeys({ privateKeyPem: config.JWT_PRIVATE_KEY, dataDir: config.DATA_DIR });
  const engines = await detectEngines({ asrUrl: config.ASR_URL });
  return {
    config,
    prisma,
    redis,
    keys,
    engines,
    close: async () => {
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
