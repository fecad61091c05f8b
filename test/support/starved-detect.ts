/**
 * Run as its own process by detect-results.test.ts (why: starved-engine-thread.ts): the detect
 * step of a pre-processed task with engine threads whose heap is too small for any model, once as
 * an attempt that is not the last and once as the last. Its argument is JSON { config, queuePrefix,
 * job }; it prints one JSON line: what each attempt ended in and the task's status after the first.
 */
import { pino } from 'pino';
import type { Config } from '../../src/config.js';
import { createPrisma } from '../../src/db/prisma.js';
import { detectTask } from '../../src/pipeline/detect.js';
import { createEnginePool } from '../../src/pipeline/engine-pool.js';
import { closeQueues, createQueues, type TaskJobPayload } from '../../src/queues/queues.js';
import { createQueueRedis } from '../../src/queues/queue-connection.js';
import { createBlobStore } from '../../src/runtime/services.js';

const { config, queuePrefix, job } = JSON.parse(process.argv[2]!) as { config: Config; queuePrefix: string; job: TaskJobPayload };
const prisma = createPrisma(config.DATABASE_URL!, 2);
const queueRedis = createQueueRedis(config.REDIS_URL!);
const queues = createQueues(queueRedis, queuePrefix);
const starved = createEnginePool({ threads: 1, threadMaxMemoryMb: 8, asr: {}, log: pino({ level: 'silent' }) });
const deps = { prisma, config, queues, blobs: createBlobStore(config), log: pino({ level: 'silent' }), engines: starved };

const attempt = (isLast: boolean) =>
  detectTask(deps, job, { isLast, reportProgress: async () => undefined }).then(
    (outcome) => ({ outcome }),
    (err: unknown) => ({ error: (err as Error).message }),
  );
const first = await attempt(false);
const { taskStatus: statusAfterFirst } = await prisma.task.findUniqueOrThrow({ where: { id: job.taskId } });
const last = await attempt(true);

await starved.close();
await closeQueues(queues);
queueRedis.disconnect();
await prisma.$disconnect();
process.stdout.write(`${JSON.stringify({ first, statusAfterFirst, last })}\n`);
