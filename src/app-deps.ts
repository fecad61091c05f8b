import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { PrismaClient } from './db/prisma.js';
import type { EngineInventory } from './engines/inventory.js';
import type { ClientSecretCache } from './credentials/client-secret-cache.js';
import type { SigningKeys } from './credentials/signing-keys.js';
import type { Queues } from './queues/queues.js';
import type { BlobStore } from './storage/blob-store.js';

/**
 * Everything the HTTP app needs; built by main.ts (or a test) and passed in: no side effects at
 * import. A module of its own so that routes and services name it without importing app.ts,
 * which imports them.
 */
export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  redis: Redis;
  queues: Queues;
  blobs: BlobStore;
  /** HMAC key of signed file URLs. */
  fileUrlSecret: string;
  keys: SigningKeys;
  /** Each organization's client secret version, for checking tokens without a query. */
  clientSecrets: ClientSecretCache;
  engines: EngineInventory;
}
