import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { expect } from 'vitest';
import { publicBaseUrl } from '../../src/config.js';
import type { PipelineDeps } from '../../src/pipeline/pipeline-deps.js';
import { taskJob, type TaskJobPayload } from '../../src/queues/queues.js';
import { startWorkers, type WorkerOptions, type WorkerPool } from '../../src/pipeline/worker.js';
import { blobStoreEnv, type TestContext } from './context.js';
import { PROCESSING_ENDED_STATUSES } from '../../src/domain/enums.js';
import { repoRoot } from './processes.js';

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

/**
 * A worker in a process of its own (worker-process.ts) on the context's queues, ready to take
 * jobs: one a test can kill, or run with an environment of its own (`env`: added, replaced, or
 * removed where undefined).
 */
export async function startWorkerProcess(ctx: TestContext, env: Record<string, string | undefined> = {}): Promise<ChildProcess> {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: ctx.config.DATABASE_URL,
    REDIS_URL: ctx.config.REDIS_URL,
    DATA_DIR: ctx.config.DATA_DIR,
    PUBLIC_BASE_URL: publicBaseUrl(ctx.config),
    QUEUE_PREFIX: ctx.queuePrefix,
    ...blobStoreEnv(ctx.config),
  };
  // undefined: the variable is not set at all.
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./worker-process.ts', import.meta.url))], {
    cwd: repoRoot,
    env: merged,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the worker process exited (${code}) before it was ready`)));
  });
  return child;
}
