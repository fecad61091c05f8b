/**
 * The wrapper around every job handler (src/pipeline/job-observer.ts), on real workers:
 * each job's run time and outcome are recorded per queue, tasks that finish are counted by
 * status, OCR done in engine threads reaches the process's counter, and every line logged while
 * a job runs names the organization (tenantId) and the task (taskId).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/observability/logger.js';
import { metricsRegistry } from '../src/observability/metrics.js';
import { QueueName } from '../src/queues/queues.js';
import { startWorkers, type WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { pngOf, numberedPagesPdf } from './support/fixtures.js';
import { pipelineDeps, waitForFinalStatus } from './support/pipeline.js';
import { sampleValue } from './support/prometheus.js';
import { createTask } from './support/tasks.js';

type LogLine = Record<string, unknown> & { msg?: string; level: number };
const lines: LogLine[] = [];
const logger = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });

let ctx: TestContext;
let files: FileServer;
let workers: WorkerPool;
let vanishing: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({
    '/doc.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' },
    '/scan.png': { body: await pngOf(400, 300), type: 'image/png' },
  });
  vanishing = await startVanishingSource();
  workers = await startWorkers({ ...pipelineDeps(ctx), log: logger }, { redisUrl: ctx.config.REDIS_URL!, prefix: ctx.queuePrefix });
});
afterAll(async () => {
  await workers?.close();
  await files?.close();
  await vanishing?.close();
  await ctx?.close();
});

/** A source that answers the check at creation (HEAD) and is gone when the worker downloads it (GET 404). */
async function startVanishingSource(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method === 'HEAD') res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 5 }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/vanished.pdf`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const metrics = () => metricsRegistry.metrics();
const jobCount = (text: string, queue: string, outcome: string) => sampleValue(text, 'docproc_job_duration_seconds_count', { queue, outcome }) ?? 0;
const finished = (text: string, status: string) => sampleValue(text, 'docproc_tasks_finished_total', { status }) ?? 0;

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the job wrapper', () => {
  it('records run time and outcome per queue, counts the finished task, and logs with the task and organization', async () => {
    const t = await createTestTenant(ctx);
    const before = await metrics();
    const taskId = await createTask(ctx.app, t, files.url('/doc.pdf'));
    expect((await waitForFinalStatus(ctx, taskId)).taskStatus).toBe(3); // ToReview
    const after = await until(async () => {
      const text = await metrics();
      // The wrapper records the run time, then reads the task's status to count it: wait for both.
      const recorded = jobCount(text, QueueName.Detect, 'done') > jobCount(before, QueueName.Detect, 'done');
      return recorded && finished(text, 'ToReview') > finished(before, 'ToReview') ? text : undefined;
    }, 'the detect job to be recorded and the task counted');
    expect(jobCount(after, QueueName.PreprocessLow, 'done')).toBe(jobCount(before, QueueName.PreprocessLow, 'done') + 1);
    expect(jobCount(after, QueueName.Detect, 'done')).toBe(jobCount(before, QueueName.Detect, 'done') + 1);
    expect(sampleValue(after, 'docproc_job_duration_seconds_sum', { queue: QueueName.Detect, outcome: 'done' })).toBeGreaterThan(0);
    expect(finished(after, 'ToReview')).toBe(finished(before, 'ToReview') + 1);

    const ofTask = lines.filter((l) => l.taskId === taskId);
    const ends = ofTask.filter((l) => l.msg === 'job finished');
    expect(ends.map((l) => l.queue).sort()).toEqual([QueueName.Detect, QueueName.PreprocessLow].sort());
    for (const line of ends) expect(line).toMatchObject({ tenantId: t.tenantId, taskId, outcome: 'done', attempt: 1, jobId: expect.any(String), durationMs: expect.any(Number) });
    // Lines the steps log themselves carry the organization too (the job's log context), each field once.
    const own = ofTask.filter((l) => l.msg !== 'job finished');
    expect(own.length).toBeGreaterThan(0);
    for (const line of own) expect(line.tenantId, JSON.stringify(line)).toBe(t.tenantId);
  });

  it('records a task that fails as outcome failed and counts it by its failure status', async () => {
    const t = await createTestTenant(ctx);
    const before = await metrics();
    const taskId = await createTask(ctx.app, t, vanishing.url);
    expect((await waitForFinalStatus(ctx, taskId)).taskStatus).toBe(33); // PreProcessingDownloadFailed
    const after = await until(async () => {
      const text = await metrics();
      return finished(text, 'PreProcessingDownloadFailed') > finished(before, 'PreProcessingDownloadFailed') ? text : undefined;
    }, 'the failed task to be counted');
    expect(jobCount(after, QueueName.PreprocessLow, 'failed')).toBe(jobCount(before, QueueName.PreprocessLow, 'failed') + 1);
    expect(finished(after, 'PreProcessingDownloadFailed')).toBe(finished(before, 'PreProcessingDownloadFailed') + 1);
    expect(lines.find((l) => l.msg === 'job finished' && l.taskId === taskId)).toMatchObject({ outcome: 'failed', tenantId: t.tenantId });
  });

  it('records a job that throws as outcome error and rethrows it (BullMQ sees the failure)', async () => {
    const before = await metrics();
    const job = await ctx.queues[QueueName.Detect].add('detect', { tenantId: 42, taskId: 'not a number' }, { attempts: 1, jobId: `bad-${randomUUID()}` });
    await until(async () => ((await job.getState()) === 'failed' ? true : undefined), 'the bad job to fail');
    const after = await metrics();
    expect(jobCount(after, QueueName.Detect, 'error')).toBe(jobCount(before, QueueName.Detect, 'error') + 1);
    const line = lines.find((l) => l.msg === 'job finished' && l.jobId === job.id);
    expect(line).toMatchObject({ queue: QueueName.Detect, outcome: 'error', tenantId: 42, level: 40 });
    expect(line).not.toHaveProperty('taskId');
  });

  it('counts pages read by OCR in the engine threads, and a poor reading read again apart', async () => {
    const t = await createTestTenant(ctx);
    const text = await metrics();
    const before = sampleValue(text, 'docproc_ocr_pages_total') ?? 0;
    const rereadsBefore = sampleValue(text, 'docproc_ocr_rereads_total') ?? 0;
    const taskId = await createTask(ctx.app, t, files.url('/scan.png'));
    expect((await waitForFinalStatus(ctx, taskId)).taskStatus).toBe(3);
    const after = await until(async () => {
      const value = sampleValue(await metrics(), 'docproc_ocr_pages_total') ?? 0;
      return value > before ? value : undefined;
    }, 'the OCR count');
    expect(after).toBe(before + 1);
    // The blank scan reads no sure character: it is read once more with the adaptive threshold.
    expect(sampleValue(await metrics(), 'docproc_ocr_rereads_total')).toBe(rereadsBefore + 1);
  });
});
