import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { multiPageTiff, pngOf, speech, numberedPagesPdf, tonesWithGaps } from './support/fixtures.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { createTask } from './support/tasks.js';

let ctx: TestContext;
let files: FileServer;
let workers: WorkerPool;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({
    '/doc.pdf': { body: await numberedPagesPdf(4), type: 'application/pdf' },
    '/ten.pdf': { body: await numberedPagesPdf(10), type: 'application/pdf' },
    '/thirty.pdf': { body: await numberedPagesPdf(30), type: 'application/pdf' },
    // Small pages: 400 of them go through the layout model in this file.
    '/202.pdf': { body: await numberedPagesPdf(202, [320, 120]), type: 'application/pdf' },
    '/huge-page.pdf': { body: await numberedPagesPdf(1, [18 * 72, 18 * 72]), type: 'application/pdf' },
    '/corrupt.pdf': { body: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]), type: 'application/pdf' },
    '/page.png': { body: await pngOf(800, 600), type: 'image/png' },
    '/tiny.png': { body: await pngOf(40, 40), type: 'image/png' },
    '/scan.tif': { body: await multiPageTiff(3), type: 'image/tiff' },
    '/talk.mp3': { body: await speech('mp3'), type: 'audio/mpeg' },
    '/talk.mp4': { body: await speech('mp4'), type: 'video/mp4' },
    '/notes.txt': { body: Buffer.from('just text'), type: 'text/plain' },
    // 3 tones of 50 s with 3 s of silence between them: 156 s in all.
    '/tones.wav': { body: await tonesWithGaps(3, 50, 3), type: 'audio/wav' },
  });
  workers = await startTestWorkers(ctx);
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
  await files.close();
});

const submit = (t: TestTenant, file: string, body: Record<string, unknown> = {}) => createTask(ctx.app, t, files.url(file), body);

// Each case takes documents, images, audio and video through real OCR and speech engines: on a busy
// two-core machine a minute is not always enough.
describe('pre-processing', { timeout: 180_000 }, () => {
  it('brings PDFs, images, multi-page TIFFs, MP3 and MP4 to ToReview with their pages or minutes, consuming free volume', async () => {
    const t = await createTestTenant(ctx, { freeVolume: 100 });
    const transcripts = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 't', templateType: TemplateType.Transcripts })).workspaceId;
    const cases: Array<[string, number | undefined, number]> = [
      ['/doc.pdf', undefined, 4],
      ['/page.png', undefined, 1],
      ['/scan.tif', undefined, 3],
      ['/talk.mp3', transcripts, 1],
      ['/talk.mp4', transcripts, 1],
    ];
    for (const [file, workspaceId, pages] of cases) {
      const id = await submit(t, file, workspaceId ? { workspaceId } : {});
      const task = await waitForFinalStatus(ctx, id);
      expect(task.totalPages, file).toBe(pages);
      expect(task.preProcessingStartedOn, file).not.toBeNull();
      expect(task.sourceBlobKey, file).toBeTruthy();
      expect(task.taskStatus, `${file}: ${task.failureReason}`).toBe(TaskStatus.ToReview);
    }
    // 4 + 1 + 3 pages and 1 + 1 minutes processed.
    expect((await ctx.prisma.tenant.findUniqueOrThrow({ where: { id: t.tenantId } })).freeVolume).toBe(100 - 10);
  });

  it('ends each failure in its own status with the reason kept', async () => {
    const t = await createTestTenant(ctx);
    const cases: Array<[string, TaskStatus, RegExp]> = [
      ['/tiny.png', TaskStatus.ValidationErrorInvalidDimensions, /40x40/],
      ['/huge-page.pdf', TaskStatus.ValidationErrorInvalidDimensions, /18\.0x18\.0 inches/],
      ['/corrupt.pdf', TaskStatus.PreProcessingGetPagesFailed, /./],
      ['/notes.txt', TaskStatus.PreProcessingFailed, /Unsupported file type/],
      ['/talk.mp3', TaskStatus.PreProcessingFailed, /documents and images/],
    ];
    for (const [file, status, reason] of cases) {
      const task = await waitForFinalStatus(ctx, await submit(t, file));
      expect(task.taskStatus, `${file}: ${task.failureReason}`).toBe(status);
      expect(task.failureReason, file).toMatch(reason);
    }
  });

  it('marks a source that answers 404 after creation as PreProcessingDownloadFailed, without retrying', async () => {
    const t = await createTestTenant(ctx);
    const served = { '/x.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' } } as Record<string, { body: Buffer; type: string }>;
    const server = await startFileServer(served);
    try {
      await workers.close(); // hold processing until the file is gone
      const res = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload: { context: { url: server.url('/x.pdf') } } });
      expect(res.statusCode, res.body).toBe(200);
      delete served['/x.pdf'];
      workers = await startTestWorkers(ctx);
      const task = await waitForFinalStatus(ctx, res.json().taskId);
      expect(task.taskStatus).toBe(TaskStatus.PreProcessingDownloadFailed);
      expect(task.failureReason).toMatch(/404/);
      expect(server.requests.filter((r) => r === 'GET /x.pdf')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('applies pageRange "2-3,5" as 3 pages', async () => {
    const t = await createTestTenant(ctx);
    const files30 = await waitForFinalStatus(ctx, await submit(t, '/thirty.pdf', { context: { pageRange: '2-3,5' } }));
    expect(files30.totalPages).toBe(3);
  });

  it('splits a 30-page PDF by 10 pages into three part tasks that inherit the original', async () => {
    const t = await createTestTenant(ctx);
    const batch = (await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdbatch', headers: t.headers, payload: { displayName: 'b' } })).json();
    const id = await submit(t, '/thirty.pdf', {
      batchId: batch.batchId,
      metadata: { k: 'v' },
      taskAssignment: { assignedUsers: ['r@example.com'], order: 1 },
      context: { splitTaskInChunks: true, splitChunkNumberPages: 10 },
    });
    const original = await waitForFinalStatus(ctx, id);
    expect(original.taskStatus).toBe(TaskStatus.Split);
    expect(original.totalPages).toBe(30);
    const parts = await ctx.prisma.task.findMany({ where: { parentTaskId: id }, orderBy: { partNumber: 'asc' }, include: { assignments: true } });
    expect(parts.map((p) => [p.partNumber, p.totalPages])).toEqual([[1, 10], [2, 10], [3, 10]]);
    for (const part of parts) {
      expect(part).toMatchObject({ workspaceId: original.workspaceId, batchId: batch.batchId, metadata: { k: 'v' } });
      expect(part.assignments.map((a) => a.email)).toEqual(['r@example.com']);
      const done = await waitForFinalStatus(ctx, part.id);
      expect(done.taskStatus, done.failureReason ?? '').toBe(TaskStatus.ToReview);
    }
    const got = (await ctx.app.inject({ method: 'GET', url: `/api/v1.0/external/sdbatch?batchId=${batch.batchId}`, headers: t.headers })).json();
    expect(got.totalTasks).toBe(4);
  });

  it('splits a recording at the last silence before splitChunkDurationMinutes, never in sound', async () => {
    const t = await createTestTenant(ctx);
    const transcripts = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 't', templateType: TemplateType.Transcripts })).workspaceId;
    const id = await submit(t, '/tones.wav', { workspaceId: transcripts, context: { splitTaskInChunks: true, splitChunkDurationMinutes: 1 } });
    const original = await waitForFinalStatus(ctx, id);
    expect(original.taskStatus, original.failureReason ?? '').toBe(TaskStatus.Split);
    expect(original.totalPages).toBe(3);
    const parts = await ctx.prisma.task.findMany({ where: { parentTaskId: id }, orderBy: { partNumber: 'asc' } });
    // No part is longer than a minute, and each ends in the middle of a gap (50-53 s, 103-106 s):
    // 51.5 s, then 104.5 - 51.5 = 53 s, then the rest, 156 - 104.5 = 51.5 s.
    expect(parts.map((p) => Number(p.durationSeconds!.toFixed(1)))).toEqual([51.5, 53, 51.5]);
    expect(parts.map((p) => p.totalPages)).toEqual([1, 1, 1]);
  });
});

/** The page each chunk shows, read from its text ("Page N of the test document"). */
function pagesShown(chunks: Array<{ entities: unknown }>): number[] {
  return chunks.map((chunk) => Number(/Page (\d+) of the test document/.exec(JSON.stringify(chunk.entities))?.[1]));
}

describe('split parts', () => {
  it('reprocesses a part on its own slice: the same pages, the same part, and the original still exports each page once', async () => {
    const t = await createTestTenant(ctx);
    const id = await submit(t, '/ten.pdf', { context: { splitTaskInChunks: true, splitChunkNumberPages: 4 } });
    expect((await waitForFinalStatus(ctx, id)).taskStatus).toBe(TaskStatus.Split);
    const parts = await ctx.prisma.task.findMany({ where: { parentTaskId: id }, orderBy: { partNumber: 'asc' } });
    expect(parts.map((p) => [p.partNumber, p.totalPages])).toEqual([[1, 4], [2, 4], [3, 2]]);
    for (const part of parts) expect((await waitForFinalStatus(ctx, part.id)).taskStatus).toBe(TaskStatus.ToReview);

    const first = parts[0]!;
    const res = await ctx.app.inject({ method: 'PATCH', url: `/api/v1.0/external/sdtask/restartprocessing?taskId=${first.id}`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(204);
    const again = await waitForFinalStatus(ctx, first.id);
    expect(again, again.failureReason ?? '').toMatchObject({
      taskStatus: TaskStatus.ToReview,
      restartCount: 1,
      totalPages: 4,
      parentTaskId: id,
      partNumber: 1,
      sourceBlobKey: first.sourceBlobKey,
    });
    const partChunks = await ctx.prisma.documentChunk.findMany({ where: { taskId: first.id }, orderBy: { chunkNumber: 'asc' } });
    expect(pagesShown(partChunks)).toEqual([1, 2, 3, 4]);

    const exported = await ctx.app.inject({ method: 'GET', url: `/api/v1.0/external/sdtask/GetExportData/${id}`, headers: t.headers });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(pagesShown(exported.json().chunks)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('the 200-page OCR cap', () => {
  it('is decided at pre-processing: totalPages, free volume and chunks count only the pages processed', async () => {
    const whole = await createTestTenant(ctx, { freeVolume: 1000 });
    const ranged = await createTestTenant(ctx, { freeVolume: 1000 });
    const labelling = await createTestTenant(ctx, { freeVolume: 1000 });
    const layout = async (t: TestTenant) => (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'l', templateType: TemplateType.Layout })).workspaceId;
    const labellingWorkspace = (await createWorkspace(ctx.prisma, { tenantId: labelling.tenantId, name: 'lb', templateType: TemplateType.Labelling })).workspaceId;
    const ids = [
      await submit(whole, '/202.pdf', { workspaceId: await layout(whole) }),
      // pageRange first (page 2 left out, 201 pages), then the cap: page 202 goes too.
      await submit(ranged, '/202.pdf', { workspaceId: await layout(ranged), context: { pageRange: '3-202,1' } }),
      // Labelling runs no OCR: no cap.
      await submit(labelling, '/202.pdf', { workspaceId: labellingWorkspace }),
    ];
    const expected = [
      Array.from({ length: 200 }, (_, i) => i + 1),
      [1, ...Array.from({ length: 199 }, (_, i) => i + 3)],
      Array.from({ length: 202 }, (_, i) => i + 1),
    ];
    for (const [index, t] of [whole, ranged, labelling].entries()) {
      const task = await waitForFinalStatus(ctx, ids[index]!, 240_000);
      expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
      expect(task.totalPages).toBe(expected[index]!.length);
      expect((await ctx.prisma.tenant.findUniqueOrThrow({ where: { id: t.tenantId } })).freeVolume).toBe(1000 - expected[index]!.length);
      const chunks = await ctx.prisma.documentChunk.findMany({ where: { taskId: task.id }, orderBy: { chunkNumber: 'asc' }, select: { pageNumber: true } });
      expect(chunks.map((c) => c.pageNumber)).toEqual(expected[index]);
    }
  }, 300_000);
});
