import type { Job } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prosePdf, scannedProsePdf } from '../bench/lib/documents.js';
import type { Prisma } from '../src/db/prisma.js';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { detectTask } from '../src/pipeline/detect.js';
import { createEnginePool, type EnginePool } from '../src/pipeline/engine-pool.js';
import type { StageDeps } from '../src/pipeline/pipeline-deps.js';
import { preprocessTask } from '../src/pipeline/preprocess.js';
import { jobId } from '../src/queues/queues.js';
import { publishResult, storeChunkBatch } from '../src/pipeline/result-store.js';
import { StaleJobError } from '../src/pipeline/task-transitions.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { speech, numberedPagesPdf } from './support/fixtures.js';
import { jobOfTask, pipelineDeps, startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { createUser, seedDocumentTask, userHeaders } from './support/review.js';
import { runStarvedScript } from './support/starved-process.js';
import { createTask } from './support/tasks.js';

/**
 * The detect stage with its model in an engine thread: results stored in bounded pieces and
 * published by one small transaction, job locks kept through long documents, and the thread's
 * errors classified as before (ModelRejectedInputError: no retry; anything else: retried).
 */
const LONG_PAGES = 200;
const SCANNED_PAGES = 3;
const API = '/api/v1.0/external';

let ctx: TestContext;
let files: FileServer;
let engines: EnginePool;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({
    '/long.pdf': { body: await prosePdf(LONG_PAGES), type: 'application/pdf' },
    '/scanned.pdf': { body: await scannedProsePdf(SCANNED_PAGES), type: 'application/pdf' },
    '/two.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf' },
    '/talk.mp3': { body: await speech('mp3'), type: 'audio/mpeg' },
  });
  engines = createEnginePool({ threads: 1, threadMaxMemoryMb: 2048, asr: {}, log: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await engines.close();
  await ctx.close();
  await files.close();
});

const submit = (t: TestTenant, file: string, body: Record<string, unknown> = {}) => createTask(ctx.app, t, files.url(file), body);

function stageDeps(pool: EnginePool): StageDeps {
  return { ...pipelineDeps(ctx), engines: pool };
}

const attempt = (isLast: boolean) => ({ isLast, reportProgress: async () => undefined });

/** Workers whose lock lasts `lockDurationMs` (renewed every half of it), and every BullMQ event that tells of a lock lost or an attempt failed. */
async function watchedWorkers(lockDurationMs: number) {
  const workers = await startTestWorkers(ctx, { lockDurationMs });
  const lockEvents: string[] = [];
  for (const worker of workers.workers) {
    worker.on('error', (err) => lockEvents.push(`error: ${err.message}`));
    worker.on('stalled', (id) => lockEvents.push(`stalled: ${id}`));
    worker.on('lockRenewalFailed', (ids) => lockEvents.push(`lockRenewalFailed: ${ids.join(', ')}`));
    worker.on('failed', (job, err) => lockEvents.push(`failed: ${job?.id}: ${err.message}`));
  }
  return { workers, lockEvents };
}

/** pagesProcessed of each GET sdtask/status answer while the task is Recognizing, polled until it leaves. */
async function pagesProcessedWhileRecognized(t: TestTenant, taskId: number, timeoutMs: number): Promise<Array<number | null>> {
  const seen: Array<number | null> = [];
  const deadline = Date.now() + timeoutMs;
  for (let leftRecognizing = false; !leftRecognizing && Date.now() < deadline; ) {
    const status = (await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/status?taskId=${taskId}`, headers: t.headers })).json();
    if (status.taskStatus === TaskStatus.Recognizing) seen.push(status.pagesProcessed);
    else leftRecognizing = seen.length > 0 || !PIPELINE_BEFORE_RECOGNITION.has(status.taskStatus);
    await new Promise((r) => setTimeout(r, 200));
  }
  return seen;
}
const PIPELINE_BEFORE_RECOGNITION = new Set<number>([TaskStatus.QueuedForPreProcessing, TaskStatus.PreProcessingInProgress, TaskStatus.PreProcessingSuccessful]);

describe('detect in an engine thread', () => {
  it('keeps its job\'s lock through scanned pages (rendering, barcode search, OCR): the worker\'s event loop stays free', { timeout: 10 * 60_000 }, async () => {
    // Rendering a 300 dpi page and searching it for barcodes hold a thread for most of a second:
    // on the worker's event loop they would delay the renewal of a one-second lock past its end.
    const { workers, lockEvents } = await watchedWorkers(1000);
    try {
      const t = await createTestTenant(ctx);
      const task = await waitForFinalStatus(ctx, await submit(t, '/scanned.pdf'), 9 * 60_000);
      expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
      expect(lockEvents).toEqual([]);
    } finally {
      await workers.close();
    }
  });

  it(`brings a ${LONG_PAGES}-page text PDF on a Layout workspace to ToReview without losing its job's lock, its pages read shown as it goes`, { timeout: 15 * 60_000 }, async () => {
    const { workers, lockEvents } = await watchedWorkers(2000);
    try {
      const t = await createTestTenant(ctx);
      const taskId = await submit(t, '/long.pdf');
      const progress = await pagesProcessedWhileRecognized(t, taskId, 14 * 60_000);
      const task = await waitForFinalStatus(ctx, taskId, 14 * 60_000);
      expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
      expect(lockEvents).toEqual([]);
      // Pages read so far, as GET sdtask/status showed them: counts that only grow, some between none and all.
      expect(progress).toEqual([...progress].sort((a, b) => (a ?? -1) - (b ?? -1)));
      expect(progress.some((pages) => pages !== null && pages > 0 && pages < LONG_PAGES), JSON.stringify(progress)).toBe(true);
      const done = (await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/status?taskId=${taskId}`, headers: t.headers })).json();
      expect(done).toMatchObject({ taskStatus: TaskStatus.ToReview, totalPages: LONG_PAGES, pagesProcessed: LONG_PAGES, failureReason: null });
      const exported = await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/GetExportData/${taskId}/simplified`, headers: t.headers });
      expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
      expect(exported.json().pages).toHaveLength(LONG_PAGES);
      const chunks = await ctx.prisma.documentChunk.findMany({ where: { taskId }, select: { chunkNumber: true, restartCount: true }, orderBy: { chunkNumber: 'asc' } });
      expect(chunks).toEqual(Array.from({ length: LONG_PAGES }, (_, i) => ({ chunkNumber: i + 1, restartCount: 0 })));
      const job = await ctx.queues.detect.getJob(jobId.detect(await jobOfTask(ctx, taskId)));
      expect(job?.progress).toMatchObject({ storedChunks: LONG_PAGES, pagesProcessed: expect.any(Number) });
    } finally {
      await workers.close();
    }
  });

  it('ends a task whose model refuses its input (ModelRejectedInputError from the thread) in RecognitionFailed, without a retry', async () => {
    const workers = await startTestWorkers(ctx);
    const failedAttempts: Job[] = [];
    for (const worker of workers.workers) worker.on('failed', (job) => job && failedAttempts.push(job));
    try {
      const t = await createTestTenant(ctx);
      const transcripts = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'calls', templateType: TemplateType.Transcripts })).workspaceId;
      // No speech engine for pt-PT without ASR_URL: the transcription model refuses the input.
      const taskId = await submit(t, '/talk.mp3', { workspaceId: transcripts, context: { transcriptLanguage: 'pt-PT' } });
      const task = await waitForFinalStatus(ctx, taskId);
      expect(task.taskStatus).toBe(TaskStatus.RecognitionFailed);
      expect(task.failureReason).toMatch(/pt-PT/);
      expect(failedAttempts.map((j) => j.id)).toEqual([]);
    } finally {
      await workers.close();
    }
  });

  it('retries an attempt whose engine thread died (out of memory) and ends the task on the last one, the process unharmed', async () => {
    const t = await createTestTenant(ctx);
    const taskId = await submit(t, '/two.pdf');
    const job = { tenantId: t.tenantId, taskId, restartCount: 0 };
    expect(await preprocessTask(stageDeps(engines), job, attempt(false))).toBe('done');
    // Threads of a heap too small for any model, in a process of their own (starved-process.ts says
    // why): each attempt's thread runs out of memory.
    const ran = await runStarvedScript<{ first: { error?: string }; statusAfterFirst: number; last: { outcome?: string } }>('test/support/starved-detect.ts', [
      JSON.stringify({ config: ctx.config, queuePrefix: ctx.queuePrefix, job }),
    ]);
    expect(ran.first.error).toMatch(/engine thread stopped/);
    expect(ran.statusAfterFirst).toBe(TaskStatus.Recognizing);
    expect(ran.last.outcome).toBe('failed');
    const status = await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/status?taskId=${taskId}`, headers: t.headers });
    expect(status.json().taskStatus).toBe(TaskStatus.RecognitionFailed);
    expect((await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).failureReason).toMatch(/engine thread stopped.*memory/i);
  });
});

describe('results of a run', () => {
  it('are shown by exports and the review API only once published, and only those of the current run', async () => {
    const t = await createTestTenant(ctx);
    const task = await seedDocumentTask(ctx, t);
    const reviewer = await createUser(ctx, t);
    const review = await userHeaders(ctx.app, reviewer);
    const published = await ctx.prisma.documentChunk.findMany({ where: { taskId: task.id } });
    // A chunk left by another run (a stale job, an earlier attempt): never shown.
    const [entity] = published[0]!.entities as Array<{ keyValues: Array<Record<string, unknown>> }>;
    const stale = [{ ...entity, keyValues: [{ ...entity!.keyValues[0], content: 'stale run' }] }];
    await ctx.prisma.documentChunk.create({ data: { taskId: task.id, restartCount: 3, chunkNumber: 1, pageNumber: 1, entities: stale as Prisma.InputJsonValue } });
    const exported = await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/GetExportData/${task.id}`, headers: t.headers });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().chunks).toHaveLength(published.length);
    expect(exported.body).not.toContain('stale run');
    const reviewed = await ctx.app.inject({ method: 'GET', url: `/api/v1.0/review/tasks/${task.id}`, headers: review });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    expect(reviewed.json().chunks).toHaveLength(published.length);
    expect(reviewed.body).not.toContain('stale run');
    // While its run is being recognized, a task shows none of the batches stored so far.
    await ctx.prisma.task.update({ where: { id: task.id }, data: { taskStatus: TaskStatus.Recognizing } });
    const recognizing = await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/GetExportData/${task.id}`, headers: t.headers });
    expect(recognizing.json().chunks).toEqual([]);
  });

  it('take no batch once the run is published or superseded, and publishing drops the chunks of other runs', async () => {
    const t = await createTestTenant(ctx);
    const task = await seedDocumentTask(ctx, t, { data: { taskStatus: TaskStatus.Recognizing, restartCount: 1 } });
    const job = { tenantId: t.tenantId, taskId: task.id, restartCount: 1 };
    const row = (chunkNumber: number, content: string) => ({ chunkNumber, pageNumber: chunkNumber, averageConfidence: 0.5, entities: [{ content }] });
    // The seeded chunk is of run 0 (an earlier run); this run stores two pages, one of them twice (a retried attempt).
    await storeChunkBatch(ctx.prisma, job, JSON.stringify([row(1, 'first try'), row(2, 'page two')]), 2, new Date());
    await storeChunkBatch(ctx.prisma, job, JSON.stringify([row(1, 'page one')]), 1, new Date());
    await expect(storeChunkBatch(ctx.prisma, { ...job, restartCount: 0 }, JSON.stringify([row(1, 'old run')]), 1, new Date())).rejects.toBeInstanceOf(StaleJobError);
    await publishResult(ctx.prisma, job, { totalPages: 2, workspaceId: t.defaultWorkspaceId }, { kind: 'document', chunkCount: 2, averageConfidence: 0.5 });
    const stored = await ctx.prisma.documentChunk.findMany({ where: { taskId: task.id }, orderBy: { chunkNumber: 'asc' } });
    expect(stored.map((c) => [c.restartCount, c.chunkNumber, c.entities])).toEqual([
      [1, 1, [{ content: 'page one' }]],
      [1, 2, [{ content: 'page two' }]],
    ]);
    // A duplicate job of the same run arriving after publication stores nothing and changes nothing.
    await expect(storeChunkBatch(ctx.prisma, job, JSON.stringify([row(1, 'duplicate')]), 1, new Date())).rejects.toBeInstanceOf(StaleJobError);
    await expect(publishResult(ctx.prisma, job, { totalPages: 2, workspaceId: t.defaultWorkspaceId }, { kind: 'document', chunkCount: 2, averageConfidence: 0.5 })).rejects.toBeInstanceOf(StaleJobError);
    expect(await detectTask(stageDeps(engines), job, attempt(false))).toBe('stale');
    expect(await ctx.prisma.documentChunk.findMany({ where: { taskId: task.id }, orderBy: { chunkNumber: 'asc' } })).toEqual(stored);
  });
});
