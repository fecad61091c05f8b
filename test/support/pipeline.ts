import { pino } from 'pino';
import { expect } from 'vitest';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { taskJob, type TaskJobPayload } from '../../src/pipeline/queues.js';
import { startWorkers, type WorkerOptions, type WorkerPool } from '../../src/pipeline/worker.js';
import type { TestContext } from './context.js';
import { PROCESSING_ENDED_STATUSES } from '../../src/domain/enums.js';

export function pipelineDeps(ctx: TestContext): PipelineDeps {
  return { prisma: ctx.prisma, config: ctx.config, queues: ctx.queues, blobs: ctx.blobs, log: pino({ level: 'silent' }) };
}

/** Real BullMQ workers on the context's own queues. */
export function startTestWorkers(ctx: TestContext, options: Partial<WorkerOptions> = {}): Promise<WorkerPool> {
  return startWorkers(pipelineDeps(ctx), { redisUrl: ctx.config.REDIS_URL!, prefix: ctx.queuePrefix, ...options });
}

/** The payload of a job of the task's current run, as the pipeline makes it from the row (its job key included). */
export async function jobOfTask(ctx: Pick<TestContext, 'prisma'>, taskId: number): Promise<TaskJobPayload> {
  return taskJob(await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } }));
}

/** Waits until the task leaves the pipeline (a final status of processing) and returns its row. */
export async function waitForFinalStatus(ctx: Pick<TestContext, 'prisma'>, taskId: number, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    if (PROCESSING_ENDED_STATUSES.has(task.taskStatus)) return task;
    if (Date.now() > deadline) expect.fail(`task ${taskId} still in status ${task.taskStatus} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
