import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { TaskStatus } from '../src/domain/enums.js';
import { closeQueues, createQueues, enqueueDetect, jobId, QueueName } from '../src/queues/queues.js';
import { sweep } from '../src/pipeline/sweeper.js';
import { createQueueRedis } from '../src/queues/queue-connection.js';
import { createRedis } from '../src/runtime/services.js';
import { blobStoreEnv, createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { jobOfTask, pipelineDeps, startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { exited, repoRoot } from './support/processes.js';
import { createTask } from './support/tasks.js';

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({
    '/doc.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf' },
    '/slow.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf', delayMs: 4000 },
  });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
});

/** A sweep a minute from now (past the redelivery grace), limited to one test organization. */
const sweepSoon = (t: TestTenant) => sweep(pipelineDeps(ctx), { now: new Date(Date.now() + 60_000), tenantId: t.tenantId });

const submit = (t: TestTenant, file = '/doc.pdf', priority = 1) => createTask(ctx.app, t, files.url(file), { priority });

/** Reached ToReview exactly once: one chunk per page, no duplicates from a retried or redelivered job. */
async function expectProcessedOnce(taskId: number) {
  const task = await waitForFinalStatus(ctx, taskId);
  expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
  const chunks = await ctx.prisma.documentChunk.findMany({ where: { taskId }, select: { pageNumber: true } });
  expect(chunks.map((c) => c.pageNumber).sort((a, b) => a - b)).toEqual(Array.from({ length: task.totalPages }, (_, i) => i + 1));
  return task;
}

describe('no task is ever lost', () => {
  it('redelivers queued tasks after their jobs vanished from Redis (a flush), each processed once', async () => {
    const t = await createTestTenant(ctx);
    const ids = [await submit(t), await submit(t), await submit(t)];
    // The flush: every job of these queues is gone.
    for (const queue of Object.values(ctx.queues)) await queue.obliterate({ force: true });
    expect(await ctx.queues[QueueName.PreprocessLow].getJobCounts('waiting')).toEqual({ waiting: 0 });
    const report = await sweepSoon(t);
    expect(report.redelivered).toEqual(expect.arrayContaining(ids));
    const workers = await startTestWorkers(ctx);
    try {
      for (const id of ids) await expectProcessedOnce(id);
      // A second sweep finds nothing to do: the tasks are final.
      const again = await sweepSoon(t);
      expect(again.redelivered.filter((id) => ids.includes(id))).toEqual([]);
    } finally {
      await workers.close();
    }
  });

  it('delivers a task created while Redis was down once Redis is back', async () => {
    const t = await createTestTenant(ctx);
    const deadRedis = createRedis('redis://127.0.0.1:1');
    const deadQueueRedis = createQueueRedis('redis://127.0.0.1:1');
    const deadQueues = createQueues(deadQueueRedis, ctx.queuePrefix);
    const app = await buildApp({ ...ctx, redis: deadRedis, queues: deadQueues });
    let taskId: number;
    try {
      const res = await app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload: { context: { url: files.url('/doc.pdf') } } });
      expect(res.statusCode, res.body).toBe(200);
      taskId = res.json().taskId;
    } finally {
      await app.close();
      deadQueueRedis.disconnect();
      deadRedis.disconnect();
      await closeQueues(deadQueues).catch(() => undefined);
    }
    expect(await ctx.queues[QueueName.PreprocessLow].getJob(jobId.preprocess(await jobOfTask(ctx, taskId)))).toBeUndefined();
    expect((await sweepSoon(t)).redelivered).toContain(taskId);
    const workers = await startTestWorkers(ctx);
    try {
      await expectProcessedOnce(taskId);
    } finally {
      await workers.close();
    }
  });

  it('finishes a task whose worker was killed with SIGKILL in the middle of its job', async () => {
    const t = await createTestTenant(ctx);
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/worker-process.ts', import.meta.url))], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: ctx.config.DATABASE_URL, REDIS_URL: ctx.config.REDIS_URL, DATA_DIR: ctx.config.DATA_DIR, QUEUE_PREFIX: ctx.queuePrefix, LOCK_MS: '3000', ...blobStoreEnv(ctx.config) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve()));
    const taskId = await submit(t, '/slow.pdf');
    // Wait until the child is inside the job (downloading the slow file), then kill it outright.
    for (let i = 0; i < 100; i += 1) {
      const task = await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
      if (task.taskStatus === TaskStatus.PreProcessingInProgress) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).taskStatus).toBe(TaskStatus.PreProcessingInProgress);
    child.kill('SIGKILL');
    await exited(child);
    // A new worker takes the stalled job over once the dead worker's lock lapses.
    const workers = await startTestWorkers(ctx, { lockDurationMs: 3000 });
    try {
      await expectProcessedOnce(taskId);
      // The job was taken over from the dead worker, not merely run once by a live one.
      const job = await ctx.queues[QueueName.PreprocessLow].getJob(jobId.preprocess(await jobOfTask(ctx, taskId)));
      expect(job?.stalledCounter).toBeGreaterThanOrEqual(1);
    } finally {
      await workers.close();
    }
  });

  it('moves a task whose job ended without moving it, past the threshold, to the nearest failure with a warning', async () => {
    const t = await createTestTenant(ctx);
    const taskId = await submit(t);
    await ctx.queues[QueueName.PreprocessLow].obliterate({ force: true });
    // A detect job that completes without touching the task (it is not in a detect status yet).
    await ctx.prisma.task.update({ where: { id: taskId }, data: { taskStatus: TaskStatus.ToReview } });
    const job = await jobOfTask(ctx, taskId);
    await enqueueDetect(ctx.queues, 1, job);
    const workers = await startTestWorkers(ctx);
    try {
      for (let i = 0; i < 100 && (await ctx.queues[QueueName.Detect].getJobState(jobId.detect(job))) !== 'completed'; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await workers.close();
    }
    const longAgo = new Date(Date.now() - (ctx.config.STUCK_TASK_MINUTES + 5) * 60_000);
    await ctx.prisma.task.update({ where: { id: taskId }, data: { taskStatus: TaskStatus.Recognizing, statusChangedAt: longAgo, externalIntegrationStatus: 'sent' } });
    const report = await sweep(pipelineDeps(ctx), { tenantId: t.tenantId });
    expect(report.recovered).toEqual([taskId]);
    const task = await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    expect(task).toMatchObject({ taskStatus: TaskStatus.RecognitionFailed, warning: true, externalIntegrationStatus: 'never' });
    const status = (await ctx.app.inject({ method: 'GET', url: `/api/v1.0/external/sdtask/status?taskid=${taskId}`, headers: t.headers })).json();
    expect(status.warning).toBe(true);
  });

  it('moves a task stuck in ExportCompleted to Processed with a warning', async () => {
    const t = await createTestTenant(ctx);
    const taskId = await submit(t);
    const longAgo = new Date(Date.now() - (ctx.config.STUCK_TASK_MINUTES + 5) * 60_000);
    await ctx.prisma.task.update({ where: { id: taskId }, data: { taskStatus: TaskStatus.ExportCompleted, statusChangedAt: longAgo } });
    await sweep(pipelineDeps(ctx), { tenantId: t.tenantId });
    expect(await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ taskStatus: TaskStatus.Processed, warning: true });
  });
});

describe('priority lanes', () => {
  it('lets a high-priority task overtake a backlog of 1,000 low-priority ones', async () => {
    const t = await createTestTenant(ctx);
    // The backlog, as create-task leaves it: committed rows, then jobs on the low lane.
    const request = { context: { url: files.url('/doc.pdf') } };
    await ctx.prisma.task.createMany({
      data: Array.from({ length: 1000 }, (_, i) => ({
        tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, taskNumber: 10_000 + i, displayName: `low ${i}`,
        taskStatus: TaskStatus.QueuedForPreProcessing, integrationStatus: 1, request,
      })),
    });
    const backlog = await ctx.prisma.task.findMany({ where: { tenantId: t.tenantId }, select: { id: true } });
    await ctx.queues[QueueName.PreprocessLow].addBulk(
      backlog.map((task) => ({ name: 'preprocess', data: { tenantId: t.tenantId, taskId: task.id, restartCount: 0 }, opts: { jobId: `pre-${task.id}-0` } })),
    );
    const workers = await startTestWorkers(ctx, { concurrency: { [QueueName.PreprocessLow]: 1, [QueueName.PreprocessHigh]: 1 } });
    try {
      const high = await submit(t, '/doc.pdf', 5);
      await waitForFinalStatus(ctx, high);
      const lowDone = await ctx.prisma.task.count({ where: { tenantId: t.tenantId, id: { not: high }, taskStatus: { notIn: [TaskStatus.QueuedForPreProcessing] } } });
      expect(lowDone).toBeLessThan(500);
    } finally {
      await workers.close();
      await ctx.queues[QueueName.PreprocessLow].obliterate({ force: true });
    }
  });
});
