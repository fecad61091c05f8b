/**
 * A worker in a process of its own, on a test's queue prefix, so a test can kill it with SIGKILL.
 * Env: DATABASE_URL, REDIS_URL, DATA_DIR, QUEUE_PREFIX, LOCK_MS.
 */
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createPrisma } from '../../src/db/prisma.js';
import { createQueues } from '../../src/queues/queues.js';
import { startWorkers } from '../../src/pipeline/worker.js';
import { createQueueRedis } from '../../src/queues/queue-connection.js';
import { createBlobStore } from '../../src/runtime/services.js';

const config = loadConfig({ ...process.env, SOURCE_URL_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' });
const prefix = process.env.QUEUE_PREFIX!;
await startWorkers(
  {
    prisma: createPrisma(config.DATABASE_URL!, 2),
    config,
    queues: createQueues(createQueueRedis(config.REDIS_URL!), prefix),
    blobs: createBlobStore(config),
    log: pino({ level: 'silent' }),
  },
  { redisUrl: config.REDIS_URL!, prefix, lockDurationMs: Number(process.env.LOCK_MS ?? 5000) },
);
process.stdout.write('worker ready\n');
