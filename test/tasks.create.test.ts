import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationStatus, TaskStatus, TemplateType } from '../src/domain/enums.js';
import { jobId, QueueName } from '../src/queues/queues.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { jobOfTask } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  // Short enough for the test of a source that never answers, long enough that 50 concurrent
  // checks on a busy machine are not taken for unreachable sources.
  ctx = await createTestContext({ SOURCE_URL_CHECK_TIMEOUT_MS: '3000' });
  files = await startFileServer({ '/doc.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' } });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
});

const createUrl = '/api/v1.0/external/sdtask/process';

function create(t: TestTenant, body: Record<string, unknown>, url = createUrl) {
  return ctx.app.inject({ method: 'POST', url, headers: t.headers, payload: { context: { url: files.url('/doc.pdf') }, ...body } });
}

/** A new workspace of this template type in the organization: its id. */
async function workspaceFor(t: TestTenant, templateType: TemplateType) {
  return (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: `ws ${templateType}`, templateType })).workspaceId;
}

describe('create task: accepted requests', () => {
  it('creates a queued task in the default workspace, with its job on the low lane', async () => {
    const t = await createTestTenant(ctx);
    const res = await create(t, { displayName: 'Invoice 42', description: 'd', metadata: { SentByEmail: 'a@b.co', k: 'v' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      displayName: 'Invoice 42',
      description: 'd',
      externalId: null,
      totalPages: 0,
      taskStatus: TaskStatus.QueuedForPreProcessing,
      taskStatusText: 'QueuedForPreProcessing',
      integrationStatus: IntegrationStatus.Never,
      integrationStatusText: 'Never',
      workspaceId: t.defaultWorkspaceId,
      batchId: null,
      taskAssignment: null,
    });
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const row = await ctx.prisma.task.findUniqueOrThrow({ where: { id: body.taskId } });
    expect(row.metadata).toEqual({ SentByEmail: 'a@b.co', k: 'v' });
    expect(row.externalIntegrationStatus).toBe('never');
    expect((row.request as { context: { url: string } }).context.url).toBe(files.url('/doc.pdf'));
    const job = await ctx.queues[QueueName.PreprocessLow].getJob(jobId.preprocess(await jobOfTask(ctx, body.taskId)));
    expect(job?.data).toEqual({ tenantId: t.tenantId, taskId: body.taskId, restartCount: 0, jobKey: row.jobKey });
    expect(row.jobKey).toMatch(/^[0-9a-f-]{36}$/);
    // The URL was checked before acceptance.
    expect(files.requests).toContain('HEAD /doc.pdf');
  });

  it('generates a display name, issues a new requestId per request, and serves the samples path too', async () => {
    const t = await createTestTenant(ctx);
    const a = (await create(t, {})).json();
    const b = (await create(t, {}, '/api/v1.0/sdtask/process')).json();
    expect(a.displayName).toMatch(/^Task [0-9a-f]{8}$/);
    expect(b.displayName).not.toBe(a.displayName);
    expect(b.requestId).not.toBe(a.requestId);
    expect(b.taskStatus).toBe(TaskStatus.QueuedForPreProcessing);
  });

  it('puts priority above 1 on the high lane and keeps assignment, batch and externalId', async () => {
    const t = await createTestTenant(ctx);
    const batch = (await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdbatch', headers: t.headers, payload: { displayName: 'b' } })).json();
    const res = await create(t, {
      priority: 7,
      batchId: batch.batchId,
      externalId: 'ERP-1',
      taskAssignment: { assignedUsers: ['rev1@example.com', 'rev2@example.com'], order: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ externalId: 'ERP-1', batchId: batch.batchId, taskAssignment: { assignedUsers: ['rev1@example.com', 'rev2@example.com'], order: 1 } });
    const id = jobId.preprocess(await jobOfTask(ctx, body.taskId));
    expect(await ctx.queues[QueueName.PreprocessHigh].getJob(id)).toBeDefined();
    expect(await ctx.queues[QueueName.PreprocessLow].getJob(id)).toBeUndefined();
    const assignments = await ctx.prisma.taskAssignment.findMany({ where: { taskId: body.taskId }, orderBy: { position: 'asc' } });
    expect(assignments.map((a) => a.email)).toEqual(['rev1@example.com', 'rev2@example.com']);
  });

  it('accepts transcript options in a Transcription workspace and pageRange in a Layout one', async () => {
    const t = await createTestTenant(ctx);
    const transcripts = await workspaceFor(t, TemplateType.Transcripts);
    const ok = await create(t, {
      workspaceId: transcripts,
      context: { url: files.url('/doc.pdf'), transcriptLanguage: 'pt-PT', splitTaskInChunks: true, splitChunkDurationMinutes: 5 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const range = await create(t, { context: { url: files.url('/doc.pdf'), pageRange: '1-3, 5' } });
    expect(range.statusCode, range.body).toBe(200);
  });

  it('gives 50 concurrent creates in one workspace 50 distinct consecutive taskNumbers', async () => {
    const t = await createTestTenant(ctx);
    const results = await Promise.all(Array.from({ length: 50 }, () => create(t, {})));
    expect(results.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const ids = results.map((r) => r.json().taskId as number);
    const rows = await ctx.prisma.task.findMany({ where: { id: { in: ids } }, select: { taskNumber: true } });
    expect(rows.map((r) => r.taskNumber).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});

describe('create task: rejections', () => {
  it('answers every invalid request with 400 and the field at fault', async () => {
    const t = await createTestTenant(ctx);
    const template = await workspaceFor(t, TemplateType.Template);
    const labelling = await workspaceFor(t, TemplateType.Labelling);
    const transcripts = await workspaceFor(t, TemplateType.Transcripts);
    const receipts = await workspaceFor(t, TemplateType.Receipts);
    const anonymization = await workspaceFor(t, TemplateType.ImageAnonymization);
    const url = files.url('/doc.pdf');
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no context', { context: undefined }, 'context'],
      ['no url', { context: {} }, 'context.url'],
      ['unsupported context property', { context: { url, colour: 'red' } }, 'context'],
      ['split in a Template workspace', { workspaceId: template, context: { url, splitTaskInChunks: true } }, 'context.splitTaskInChunks'],
      ['assignment in a Template workspace', { workspaceId: template, taskAssignment: { assignedUsers: ['a@b.co'], order: 1 } }, 'taskAssignment'],
      ['assignment in a Labelling workspace', { workspaceId: labelling, taskAssignment: { assignedUsers: ['a@b.co'], order: 1 } }, 'taskAssignment'],
      ['assignment without users', { taskAssignment: { order: 1 } }, 'taskAssignment.assignedUsers'],
      ['assignment with no users', { taskAssignment: { assignedUsers: [], order: 1 } }, 'taskAssignment.assignedUsers'],
      ['assignment without order', { taskAssignment: { assignedUsers: ['a@b.co'] } }, 'taskAssignment.order'],
      ['assignment with an invalid order', { taskAssignment: { assignedUsers: ['a@b.co'], order: 9 } }, 'taskAssignment.order'],
      ['assignment with a bad email', { taskAssignment: { assignedUsers: ['not-an-email'], order: 1 } }, 'taskAssignment.assignedUsers.0'],
      ['pageRange with splitting', { context: { url, pageRange: '1-2', splitTaskInChunks: true } }, 'context.pageRange'],
      ['pageRange syntax', { context: { url, pageRange: '1;2' } }, 'context.pageRange'],
      ['pageRange zero', { context: { url, pageRange: '0-2' } }, 'context.pageRange'],
      ['pageRange backwards', { context: { url, pageRange: '5-2' } }, 'context.pageRange'],
      ['pageRange in a Transcription workspace', { workspaceId: transcripts, context: { url, pageRange: '1' } }, 'context.pageRange'],
      ['pageRange in an Anonymization workspace', { workspaceId: anonymization, context: { url, pageRange: '1' } }, 'context.pageRange'],
      ['transcriptLanguage outside Transcription', { context: { url, transcriptLanguage: 'en-US' } }, 'context.transcriptLanguage'],
      ['unknown transcriptLanguage', { workspaceId: transcripts, context: { url, transcriptLanguage: 'it-IT' } }, 'context.transcriptLanguage'],
      ['duration split outside Transcription', { context: { url, splitTaskInChunks: true, splitChunkDurationMinutes: 5 } }, 'context.splitChunkDurationMinutes'],
      ['duration split without splitting', { workspaceId: transcripts, context: { url, splitChunkDurationMinutes: 5 } }, 'context.splitChunkDurationMinutes'],
      ['duration split of 0', { workspaceId: transcripts, context: { url, splitTaskInChunks: true, splitChunkDurationMinutes: 0 } }, 'context.splitChunkDurationMinutes'],
      ['page split of 0', { context: { url, splitTaskInChunks: true, splitChunkNumberPages: 0 } }, 'context.splitChunkNumberPages'],
      ['page split in Transcription', { workspaceId: transcripts, context: { url, splitTaskInChunks: true, splitChunkNumberPages: 3 } }, 'context.splitChunkNumberPages'],
      ['page split without splitting', { workspaceId: receipts, context: { url, splitChunkNumberPages: 3 } }, 'context.splitChunkNumberPages'],
      ['useHigherQuality outside Document Anonymization', { useHigherQuality: true }, 'useHigherQuality'],
      ['metadata with a non-string value', { metadata: { a: 1 } }, 'metadata.a'],
      ['displayName too long', { displayName: 'x'.repeat(257) }, 'displayName'],
      ['externalId too long', { externalId: 'x'.repeat(129) }, 'externalId'],
      ['priority 0', { priority: 0 }, 'priority'],
      ['workspaceId not a number', { workspaceId: 'one' }, 'workspaceId'],
    ];
    for (const [name, body, field] of cases) {
      const payload = { context: { url }, ...body };
      const res = await ctx.app.inject({ method: 'POST', url: createUrl, headers: t.headers, payload });
      const problem = expectProblem(res, 400);
      expect(problem.errors?.map((e: { field: string }) => e.field), name).toContain(field);
    }
    expect(await ctx.prisma.task.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });

  it('refuses assigned users who exist without review permission or disabled', async () => {
    const t = await createTestTenant(ctx);
    await ctx.prisma.user.createMany({
      data: [
        { tenantId: t.tenantId, email: 'viewer@example.com', roleName: 'Viewer', status: 'Active' },
        { tenantId: t.tenantId, email: 'gone@example.com', roleName: 'Reviewer', status: 'Disabled' },
        { tenantId: t.tenantId, email: 'ok@example.com', roleName: 'Manager', status: 'Active' },
      ],
    });
    for (const email of ['viewer@example.com', 'GONE@example.com']) {
      const res = await create(t, { taskAssignment: { assignedUsers: ['ok@example.com', email], order: 2 } });
      expect(expectProblem(res, 400, 'InvalidTaskAssignment').errors[0].field).toBe('taskAssignment.assignedUsers');
    }
    expect((await create(t, { taskAssignment: { assignedUsers: ['ok@example.com', 'new@example.com'], order: 3 } })).statusCode).toBe(200);
  });

  it('answers 404 for a workspace or batch that does not exist or belongs to another organization', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const otherBatch = (await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdbatch', headers: other.headers, payload: { displayName: 'x' } })).json();
    expectProblem(await create(t, { workspaceId: 99_999_999 }), 404);
    expectProblem(await create(t, { workspaceId: other.defaultWorkspaceId }), 404);
    expectProblem(await create(t, { batchId: 99_999_999 }), 404);
    expectProblem(await create(t, { batchId: otherBatch.batchId }), 404);
  });

  it('answers 400 for a batch of another workspace and for a workspace without pipeline', async () => {
    const t = await createTestTenant(ctx);
    const receipts = await workspaceFor(t, TemplateType.Receipts);
    const batch = (await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdbatch', headers: t.headers, payload: { displayName: 'b', workspaceId: receipts } })).json();
    expectProblem(await create(t, { batchId: batch.batchId }), 400, 'BatchWorkspaceMismatch');
    await ctx.prisma.workspace.update({ where: { id: receipts }, data: { hasPipeline: false } });
    expectProblem(await create(t, { workspaceId: receipts }), 400, 'InvalidTaskRequest');
  });

  it('answers 403 for an expired licence, no free volume, or a feature the organization lacks', async () => {
    const expired = await createTestTenant(ctx, { licenceExpiresOn: new Date(Date.now() - 1000) });
    expectProblem(await create(expired, {}), 403, 'LicenceExpired');
    const empty = await createTestTenant(ctx, { freeVolume: 0 });
    expectProblem(await create(empty, {}), 403, 'NoFreeVolume');
    const basic = await createTestTenant(ctx, { featureHighPriority: false, featureCustomFormValues: false });
    expectProblem(await create(basic, { priority: 2 }), 403, 'FeatureNotEnabled');
    expectProblem(await create(basic, { customFormValues: { field: 'x' } }), 403, 'FeatureNotEnabled');
    expect((await create(basic, { priority: 1 })).statusCode).toBe(200);
  });

  it('answers 409 for a duplicate externalId, even under concurrent creates, and allows it in another organization', async () => {
    const t = await createTestTenant(ctx);
    const results = await Promise.all(Array.from({ length: 5 }, () => create(t, { externalId: 'SAME' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expectProblem(results.find((r) => r.statusCode === 409)!, 409, 'DuplicateExternalId');
    const other = await createTestTenant(ctx);
    expect((await create(other, { externalId: 'SAME' })).statusCode).toBe(200);
    // The failed creates left no gap in the task numbers.
    expect((await create(t, {})).statusCode).toBe(200);
    const numbers = (await ctx.prisma.task.findMany({ where: { tenantId: t.tenantId }, select: { taskNumber: true } })).map((r) => r.taskNumber);
    expect(numbers.sort()).toEqual([1, 2]);
  });

  it('answers 422 for an unreachable, missing, timed-out or refused url', async () => {
    const t = await createTestTenant(ctx);
    for (const url of [files.url('/missing.pdf'), files.url('/slow'), 'http://127.0.0.1:1/x.pdf', 'ftp://example.com/a.pdf', 'not a url']) {
      expectProblem(await create(t, { context: { url } }), 422);
    }
    const strict = await createTestContext({ SOURCE_URL_ALLOW_PRIVATE: 'false' });
    try {
      const s = await createTestTenant(strict);
      const res = await strict.app.inject({ method: 'POST', url: createUrl, headers: s.headers, payload: { context: { url: files.url('/doc.pdf') } } });
      expect(expectProblem(res, 422).reason).toBe('refused-address');
    } finally {
      await strict.close();
    }
    expect(await ctx.prisma.task.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });

  it('still creates the task when Redis cannot take the job (the sweeper delivers it later)', async () => {
    const t = await createTestTenant(ctx);
    const { createQueues, closeQueues } = await import('../src/queues/queues.js');
    const { createRedis } = await import('../src/runtime/services.js');
    const { createQueueRedis } = await import('../src/queues/queue-connection.js');
    const { buildApp } = await import('../src/app.js');
    const deadRedis = createRedis('redis://127.0.0.1:1');
    const deadQueueRedis = createQueueRedis('redis://127.0.0.1:1');
    const deadQueues = createQueues(deadQueueRedis);
    const app = await buildApp({ config: ctx.config, prisma: ctx.prisma, redis: deadRedis, queues: deadQueues, blobs: ctx.blobs, fileUrlSecret: ctx.fileUrlSecret, keys: ctx.keys, clientSecrets: ctx.clientSecrets, engines: { tesseract: null, ffmpeg: null, ffprobe: null, pocketsphinx: null, pdftoppm: null, tesseractJs: false, ppOcr: false, remoteAsr: false } });
    try {
      const res = await app.inject({ method: 'POST', url: createUrl, headers: t.headers, payload: { context: { url: files.url('/doc.pdf') } } });
      expect(res.statusCode, res.body).toBe(200);
      const row = await ctx.prisma.task.findUniqueOrThrow({ where: { id: res.json().taskId } });
      expect(row.taskStatus).toBe(TaskStatus.QueuedForPreProcessing);
    } finally {
      await app.close();
      deadQueueRedis.disconnect();
      deadRedis.disconnect();
      await closeQueues(deadQueues).catch(() => undefined);
    }
  });
});
