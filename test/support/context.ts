import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createPrisma, type PrismaClient } from '../../src/db/prisma.js';
import { detectEngines, type EngineInventory } from '../../src/engines/inventory.js';
import { loadSigningKeys, type SigningKeys } from '../../src/credentials/signing-keys.js';
import { createTenant, type NewTenant } from '../../src/modules/tenants/tenants.service.js';
import { createQueueRedis } from '../../src/queues/queue-connection.js';
import { createBlobStore, createClientSecretCache, createRedis } from '../../src/runtime/services.js';
import type { ClientSecretCache } from '../../src/credentials/client-secret-cache.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { S3_TEST_BUCKET, S3_TEST_CREDENTIALS } from './s3-server.js';
import { closeQueues, createQueues, type Queues } from '../../src/queues/queues.js';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

export interface TestContext {
  app: FastifyInstance;
  prisma: PrismaClient;
  redis: Redis;
  queues: Queues;
  /** BullMQ prefix of this context's queues (workers of the same test must use it). */
  queuePrefix: string;
  blobs: BlobStore;
  fileUrlSecret: string;
  config: Config;
  keys: SigningKeys;
  clientSecrets: ClientSecretCache;
  engines: EngineInventory;
  close: () => Promise<void>;
}

/** The settings of the tests' S3 server (s3rver, started by the global setup) as the blob store. */
export function s3TestSettings(): Record<string, string> {
  return {
    BLOB_STORE: 's3',
    S3_ENDPOINT: inject('s3Endpoint'),
    S3_BUCKET: S3_TEST_BUCKET,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
  };
}

/** The variables of `config`'s blob store, for processes a test starts (they share its files). */
export function blobStoreEnv(config: Config): Record<string, string> {
  if (config.BLOB_STORE !== 's3') return { BLOB_STORE: 'local' };
  return {
    BLOB_STORE: 's3',
    S3_BUCKET: config.S3_BUCKET!,
    S3_REGION: config.S3_REGION,
    S3_FORCE_PATH_STYLE: String(config.S3_FORCE_PATH_STYLE),
    ...(config.S3_ENDPOINT ? { S3_ENDPOINT: config.S3_ENDPOINT } : {}),
    ...(config.AWS_ACCESS_KEY_ID ? { AWS_ACCESS_KEY_ID: config.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: config.AWS_SECRET_ACCESS_KEY! } : {}),
  };
}

/**
 * Test configuration: the test database and Redis, private URLs allowed, quiet logs. The blob
 * store is the local one, or the tests' S3 server when the suite runs with BLOB_STORE=s3.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...(process.env.BLOB_STORE === 's3' ? s3TestSettings() : {}),
    NODE_ENV: 'test',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    DATA_DIR: '.data/test',
    SOURCE_URL_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
    // Tests hold the event loop while they generate fixtures; back-pressure has a test of its own.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...overrides,
  });
}

/** The real app on the real test database and Redis, exercised through app.inject. */
export async function createTestContext(overrides: Record<string, string> = {}, options: { queuePrefix?: string } = {}): Promise<TestContext> {
  const config = testConfig(overrides);
  const prisma = createPrisma(config.DATABASE_URL!, 5);
  const redis = createRedis(config.REDIS_URL!);
  // JWT_PRIVATE_KEY: contexts that stand for instances of one deployment accept each other's tokens.
  const keys = await loadSigningKeys({ privateKeyPem: config.JWT_PRIVATE_KEY });
  const engines = await detectEngines();
  // A queue prefix of its own per context, so no other test's worker takes these jobs (or one
  // shared by the contexts that stand for instances of one deployment).
  const queueRedis = createQueueRedis(config.REDIS_URL!);
  const queuePrefix = options.queuePrefix ?? `test-${randomUUID()}`;
  const queues = createQueues(queueRedis, queuePrefix);
  const blobs = createBlobStore(config);
  const fileUrlSecret = 'test-file-url-secret-0123456789abcdef';
  const clientSecrets = createClientSecretCache(config.DATABASE_URL!, prisma);
  const app = await buildApp({ config, prisma, redis, queues, blobs, fileUrlSecret, keys, clientSecrets, engines });
  await app.ready();
  return {
    app,
    prisma,
    redis,
    queues,
    queuePrefix,
    blobs,
    fileUrlSecret,
    config,
    keys,
    clientSecrets,
    engines,
    close: async () => {
      await app.close();
      await clientSecrets.close();
      await closeQueues(queues);
      queueRedis.disconnect();
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}

export interface TestTenant {
  tenantId: number;
  clientId: string;
  clientSecret: string;
  defaultWorkspaceId: number;
  token: string;
  headers: { authorization: string };
}

export async function requestToken(app: FastifyInstance, clientId: string, clientSecret: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/connect/token',
    payload: { grant_type: 'client_credentials', scope: 'WebAPI', client_id: clientId, client_secret: clientSecret },
  });
  if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}

/** A fresh organization of its own for one test, with a valid access token. */
export async function createTestTenant(ctx: Pick<TestContext, 'app' | 'prisma'>, options: Partial<NewTenant> = {}): Promise<TestTenant> {
  const created = await createTenant(ctx.prisma, {
    name: `test-${randomUUID()}`,
    secretTtlDays: 30,
    featureHighPriority: true,
    featureCustomFormValues: true,
    ...options,
  });
  const token = await requestToken(ctx.app, created.clientId, created.clientSecret);
  return { ...created, token, headers: { authorization: `Bearer ${token}` } };
}
