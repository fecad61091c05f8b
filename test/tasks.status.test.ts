import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationStatus, TaskStatus } from '../src/domain/enums.js';
import { jobId, QueueName } from '../src/queues/queues.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { streamTasks } from '../src/modules/tasks/tasks.repository.js';
import { taskListQuery } from '../src/modules/tasks/tasks.schemas.js';
import { jobOfTask } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { createTask } from './support/tasks.js';

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({ '/doc.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' } });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
});

const base = '/api/v1.0/external/sdtask';

/** A task for /doc.pdf created through the API, as its response body says. */
const createDocTask = async (t: TestTenant, body: Record<string, unknown> = {}) => ({ taskId: await createTask(ctx.app, t, files.url('/doc.pdf'), body) });

function get(t: TestTenant, url: string) {
  return ctx.app.inject({ method: 'GET', url, headers: t.headers });
}

describe('GET sdtask/status', () => {
  it('finds a task by taskid (any casing) or externalId, with every field of the spec', async () => {
    const t = await createTestTenant(ctx);
    const { taskId } = await createDocTask(t, { externalId: 'ext-1', displayName: 'A', description: 'D' });
    const expected = {
      taskId,
      workspaceId: t.defaultWorkspaceId,
      batchId: null,
      taskNumber: 1,
      externalId: 'ext-1',
      displayName: 'A',
      description: 'D',
      taskStatus: TaskStatus.QueuedForPreProcessing,
      taskStatusText: 'QueuedForPreProcessing',
      integrationStatus: IntegrationStatus.Never,
      integrationStatusText: 'Never',
      externalIntegrationStatus: 'never',
      totalPages: 0,
      preProcessingStartedOn: null,
      warning: false,
    };
    for (const url of [`${base}/status?taskid=${taskId}`, `${base}/status?taskId=${taskId}`, `${base}/status?TASKID=${taskId}`, `${base}/status?externalId=ext-1`, `${base}/status?taskId=${taskId}&externalId=ext-1`]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toMatchObject(expected);
      expect(res.json()).not.toHaveProperty('restartCount');
      expect(new Date(res.json().createdOn).toISOString()).toBe(res.json().createdOn);
    }
  });

  it('sorts by status, integration status, start and pages both ways, in pages and in the streamed batches alike', async () => {
    const t = await createTestTenant(ctx);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createDocTask(t)).taskId);
    // Ties in every column (broken by id), and three tasks never pre-processed (null start), so
    // batches of two end between two nulls in both directions.
    const values = [
      { taskStatus: TaskStatus.ToReview, integrationStatus: IntegrationStatus.Never, totalPages: 3, preProcessingStartedOn: new Date('2026-01-02T00:00:00Z') },
      { taskStatus: TaskStatus.QueuedForPreProcessing, integrationStatus: IntegrationStatus.Never, totalPages: 0, preProcessingStartedOn: null },
      { taskStatus: TaskStatus.Processed, integrationStatus: IntegrationStatus.Successful, totalPages: 3, preProcessingStartedOn: new Date('2026-01-01T00:00:00Z') },
      { taskStatus: TaskStatus.ToReview, integrationStatus: IntegrationStatus.Failed, totalPages: 7, preProcessingStartedOn: new Date('2026-01-03T00:00:00Z') },
      { taskStatus: TaskStatus.QueuedForPreProcessing, integrationStatus: IntegrationStatus.Never, totalPages: 0, preProcessingStartedOn: null },
      { taskStatus: TaskStatus.Processed, integrationStatus: IntegrationStatus.Successful, totalPages: 1, preProcessingStartedOn: null },
    ];
    for (const [i, data] of values.entries()) await ctx.prisma.task.update({ where: { id: ids[i] }, data });
    const rows = values.map((v, i) => ({ id: ids[i]!, ...v, start: v.preProcessingStartedOn?.getTime() ?? Infinity }));
    const keyOf = { taskStatus: 'taskStatus', integrationStatus: 'integrationStatus', preProcessingStartedOn: 'start', totalPages: 'totalPages' } as const;

    for (const field of Object.keys(keyOf) as Array<keyof typeof keyOf>) {
      for (const descending of [false, true]) {
        const sort = `${descending ? '-' : ''}${field}`;
        const sign = descending ? -1 : 1;
        const expected = [...rows].sort((a, b) => sign * (a[keyOf[field]] - b[keyOf[field]] || a.id - b.id)).map((r) => r.id);
        const paged: number[] = [];
        for (let page = 1; page <= 3; page++) {
          const res = await get(t, `${base}/statuslistpaginated?startDate=2020-01-01&pageSize=2&pageNumber=${page}&sort=${sort}`);
          paged.push(...res.json().items.map((item: { taskId: number }) => item.taskId));
        }
        expect(paged, sort).toEqual(expected);
        const streamed: number[] = [];
        for await (const batch of streamTasks(ctx.prisma, t.tenantId, taskListQuery.parse({ startDate: '2020-01-01', sort }), 2)) {
          streamed.push(...batch.map((task) => task.id));
        }
        expect(streamed, `${sort} streamed`).toEqual(expected);
      }
    }
  });

  it('answers exactly what is stored, as the list does, whatever the time zone of the process', async () => {
    // The status is read by its own raw statement; a timestamp read as local time would shift here.
    const savedTz = process.env.TZ;
    process.env.TZ = 'Pacific/Chatham';
    try {
      const t = await createTestTenant(ctx);
      const { taskId } = await createDocTask(t, { externalId: 'tz-1', displayName: 'tz' });
      const startedAt = new Date('2026-03-04T05:06:07.089Z');
      await ctx.prisma.task.update({
        where: { id: taskId },
        data: { taskStatus: TaskStatus.ToReview, totalPages: 4, restartCount: 2, preProcessingStartedOn: startedAt, warning: true, externalIntegrationStatus: 'sent' },
      });
      const row = await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
      const status = (await get(t, `${base}/status?taskid=${taskId}`)).json();
      expect(status).toMatchObject({
        createdOn: row.createdAt.toISOString(),
        preProcessingStartedOn: startedAt.toISOString(),
        taskStatus: TaskStatus.ToReview,
        totalPages: 4,
        restartCount: 2,
        warning: true,
        externalIntegrationStatus: 'sent',
      });
      const page = (await get(t, `${base}/statuslistpaginated?startDate=2020-01-01&pageSize=10`)).json();
      expect(page.items).toEqual([status]);
    } finally {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    }
  });

  it('answers 400 without an id, 404 for unknown, mismatched or foreign ids', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const mine = await createDocTask(t, { externalId: 'mine' });
    const theirs = await createDocTask(other, { externalId: 'theirs' });
    expectProblem(await get(t, `${base}/status`), 400);
    expectProblem(await get(t, `${base}/status?taskid=abc`), 400);
    expectProblem(await get(t, `${base}/status?taskid=999999999`), 404);
    expectProblem(await get(t, `${base}/status?externalId=nope`), 404);
    expectProblem(await get(t, `${base}/status?taskid=${theirs.taskId}`), 404);
    expectProblem(await get(t, `${base}/status?externalId=theirs`), 404);
    expectProblem(await get(t, `${base}/status?taskid=${mine.taskId}&externalId=theirs`), 404);
  });
});

describe('PATCH sdtask/externalIntegrationStatus', () => {
  it('stores a value of up to 32 characters and refuses empty, whitespace, null or longer ones', async () => {
    const t = await createTestTenant(ctx);
    const { taskId } = await createDocTask(t, { externalId: 'e' });
    const patch = (query: string, payload: unknown) =>
      ctx.app.inject({ method: 'PATCH', url: `${base}/externalIntegrationStatus?${query}`, headers: t.headers, payload: payload as object });
    const ok = await patch(`taskId=${taskId}`, { externalIntegrationStatus: 'x'.repeat(32) });
    expect(ok.statusCode).toBe(204);
    expect(ok.body).toBe('');
    expect((await get(t, `${base}/status?taskid=${taskId}`)).json().externalIntegrationStatus).toBe('x'.repeat(32));
    expect((await patch('externalId=e', { externalIntegrationStatus: 'sent' })).statusCode).toBe(204);
    expect((await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).externalIntegrationStatus).toBe('sent');
    for (const body of [{ externalIntegrationStatus: 'x'.repeat(33) }, { externalIntegrationStatus: '   ' }, { externalIntegrationStatus: '' }, { externalIntegrationStatus: null }, {}]) {
      expectProblem(await patch(`taskId=${taskId}`, body), 400);
    }
    expectProblem(await patch('', { externalIntegrationStatus: 'a' }), 400);
    expectProblem(await patch('taskId=999999999', { externalIntegrationStatus: 'a' }), 404);
    // The task status is untouched.
    expect((await get(t, `${base}/status?taskid=${taskId}`)).json().taskStatus).toBe(TaskStatus.QueuedForPreProcessing);
  });
});

describe('PATCH sdtask/restartprocessing', () => {
  it('requeues the task with a new run, drops its results, resets reviews and the external status', async () => {
    const t = await createTestTenant(ctx);
    const { taskId } = await createDocTask(t, { taskAssignment: { assignedUsers: ['r@example.com'], order: 1 } });
    // Simulate a processed and reviewed task.
    await ctx.prisma.task.update({ where: { id: taskId }, data: { taskStatus: TaskStatus.ToReview, totalPages: 3, externalIntegrationStatus: 'sent' } });
    await ctx.prisma.documentChunk.create({ data: { taskId, chunkNumber: 1, pageNumber: 1, entities: [{ content: 'old' }] } });
    await ctx.prisma.taskAssignment.updateMany({ where: { taskId }, data: { reviewState: 1, reviewedAt: new Date() } });

    const res = await ctx.app.inject({ method: 'PATCH', url: `${base}/restartprocessing?taskid=${taskId}`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(204);
    const status = (await get(t, `${base}/status?taskid=${taskId}`)).json();
    expect(status).toMatchObject({ taskStatus: TaskStatus.QueuedForPreProcessing, restartCount: 1, externalIntegrationStatus: 'never', totalPages: 0 });
    expect(status.preProcessingStartedOn).not.toBeNull();
    expect(await ctx.prisma.documentChunk.count({ where: { taskId } })).toBe(0);
    expect((await ctx.prisma.taskAssignment.findFirstOrThrow({ where: { taskId } })).reviewState).toBe(0);
    const rerun = await jobOfTask(ctx, taskId);
    expect(rerun.restartCount).toBe(1);
    expect(await ctx.queues[QueueName.PreprocessLow].getJob(jobId.preprocess(rerun))).toBeDefined();

    await ctx.app.inject({ method: 'PATCH', url: `${base}/restartprocessing?taskId=${taskId}`, headers: t.headers });
    expect((await get(t, `${base}/status?taskid=${taskId}`)).json().restartCount).toBe(2);
  });

  it('answers 400 without an id and 404 for a task of another organization', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const theirs = await createDocTask(other);
    expectProblem(await ctx.app.inject({ method: 'PATCH', url: `${base}/restartprocessing`, headers: t.headers }), 400);
    expectProblem(await ctx.app.inject({ method: 'PATCH', url: `${base}/restartprocessing?taskId=${theirs.taskId}`, headers: t.headers }), 404);
    expect((await ctx.prisma.task.findUniqueOrThrow({ where: { id: theirs.taskId } })).restartCount).toBe(0);
  });
});

describe('task status lists', () => {
  async function seed(t: TestTenant) {
    // Five tasks with known creation times, statuses and names, written directly for exact control.
    const day = (d: number) => new Date(Date.UTC(2025, 0, d, 12));
    const rows = [
      { displayName: 'c', createdAt: day(1), taskStatus: TaskStatus.ToReview, integrationStatus: 1, externalIntegrationStatus: 'never' },
      { displayName: 'a', createdAt: day(2), taskStatus: TaskStatus.InReview, integrationStatus: 2, externalIntegrationStatus: 'sent' },
      { displayName: 'e', createdAt: day(3), taskStatus: TaskStatus.ToReview, integrationStatus: 4, externalIntegrationStatus: 'never' },
      { displayName: 'b', createdAt: day(3), taskStatus: TaskStatus.Processed, integrationStatus: 1, externalIntegrationStatus: 'sent' },
      { displayName: 'd', createdAt: day(5), taskStatus: TaskStatus.PreProcessingInProgress, integrationStatus: 1, externalIntegrationStatus: 'never' },
    ];
    const ids: number[] = [];
    for (const [i, r] of rows.entries()) {
      const task = await ctx.prisma.task.create({
        data: { ...r, tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, taskNumber: i + 1, request: {} },
      });
      ids.push(task.id);
    }
    return ids;
  }

  it('filters by dates, repeated statuses, integration status and external status; sorts both ways', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const ids = await seed(t);
    await seed(other);
    const list = async (q: string) => {
      const res = await get(t, `${base}/statuslistpaginated?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const names = (page: { items: Array<{ displayName: string }> }) => page.items.map((i) => i.displayName);

    expect(names(await list('startDate=2025-01-01'))).toEqual(['c', 'a', 'e', 'b', 'd']);
    expect(names(await list('startDate=2025-01-02T00:00:00&endDate=2025-01-05'))).toEqual(['a', 'e', 'b']);
    expect(names(await list('endDate=2025-01-03T12:00:00Z'))).toEqual(['c', 'a']);
    expect(names(await list(`startDate=2025-01-01&taskStatus=${TaskStatus.ToReview}&taskStatus=${TaskStatus.Processed}`))).toEqual(['c', 'e', 'b']);
    expect(names(await list('startDate=2025-01-01&integrationStatus=2&integrationStatus=4'))).toEqual(['a', 'e']);
    expect(names(await list('startDate=2025-01-01&externalIntegrationStatus=sent'))).toEqual(['a', 'b']);
    expect(names(await list(`startDate=2025-01-01&workspaceId=${t.defaultWorkspaceId}`))).toHaveLength(5);
    expect(names(await list(`startDate=2025-01-01&workspaceId=${other.defaultWorkspaceId}`))).toEqual([]);
    expect(names(await list('startDate=2025-01-01&sort=displayName'))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names(await list('startDate=2025-01-01&sort=-displayName'))).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(names(await list('startDate=2025-01-01&sort=-createdOn'))).toEqual(['d', 'b', 'e', 'a', 'c']);
    expect((await list('startDate=2025-01-01&sort=taskId')).items.map((i: { taskId: number }) => i.taskId)).toEqual(ids);
    expect(names(await list('startDate=2025-01-01&SORT=TASKSTATUS'))).toEqual(['c', 'e', 'a', 'b', 'd']);
  });

  it('pages without repeats or gaps, with correct totals, and returns an empty page past the end', async () => {
    const t = await createTestTenant(ctx);
    await seed(t);
    const pages = [];
    for (let n = 1; n <= 3; n += 1) {
      pages.push((await get(t, `${base}/statuslistpaginated?startDate=2025-01-01&pageSize=2&pageNumber=${n}&sort=createdOn`)).json());
    }
    expect(pages.map((p) => p.items.map((i: { displayName: string }) => i.displayName))).toEqual([['c', 'a'], ['e', 'b'], ['d']]);
    expect(pages[0]).toMatchObject({ pageNumber: 1, totalPages: 3, totalCount: 5, hasPreviousPage: false, hasNextPage: true });
    expect(pages[2]).toMatchObject({ pageNumber: 3, hasPreviousPage: true, hasNextPage: false });
    const past = (await get(t, `${base}/statuslistpaginated?startDate=2025-01-01&pageSize=2&pageNumber=9`)).json();
    expect(past).toEqual({ items: [], pageNumber: 9, totalPages: 3, totalCount: 5, hasPreviousPage: true, hasNextPage: false });
    const defaults = (await get(t, `${base}/statuslistpaginated?startDate=2025-01-01`)).json();
    expect(defaults.pageNumber).toBe(1);
    expect(defaults.items).toHaveLength(5);
  });

  it('rejects a missing date window, bad sort, bad page numbers, and unknown enum values with 400', async () => {
    const t = await createTestTenant(ctx);
    for (const q of ['', 'pageSize=10', 'startDate=2025-01-01&sort=colour', 'startDate=2025-01-01&pageSize=501', 'startDate=2025-01-01&pageSize=0', 'startDate=2025-01-01&pageNumber=0', 'startDate=yesterday', 'startDate=2025-01-01&taskStatus=99', 'startDate=2025-01-01&integrationStatus=x']) {
      expectProblem(await get(t, `${base}/statuslistpaginated?${q}`), 400);
    }
    expectProblem(await get(t, `${base}/statuslist`), 400);
  });

  it('streams the heavy list as one JSON array in sort order', async () => {
    const t = await createTestTenant(ctx);
    await seed(t);
    const res = await get(t, `${base}/statuslist?startDate=2025-01-01&sort=-displayName&taskStatus=3&taskStatus=4&taskStatus=6&taskStatus=31`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().map((i: { displayName: string }) => i.displayName)).toEqual(['e', 'd', 'c', 'b', 'a']);
    const empty = await get(t, `${base}/statuslist?startDate=2030-01-01`);
    expect(empty.json()).toEqual([]);
  });

  it('streams past one internal batch without repeating or dropping a task', async () => {
    const t = await createTestTenant(ctx);
    const createdAt = new Date(Date.UTC(2024, 5, 1));
    // 2,500 tasks sharing one creation time: ordering relies on the id tie-break across batches.
    await ctx.prisma.task.createMany({
      data: Array.from({ length: 2500 }, (_, i) => ({
        tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, taskNumber: i + 1, displayName: `t${i}`,
        taskStatus: TaskStatus.ToReview, integrationStatus: 1, request: {}, createdAt,
      })),
    });
    const items = (await get(t, `${base}/statuslist?startDate=2024-01-01`)).json() as Array<{ taskId: number }>;
    expect(items).toHaveLength(2500);
    expect(new Set(items.map((i) => i.taskId)).size).toBe(2500);
    const ids = items.map((i) => i.taskId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('reports exact totals for any window and filter, and keeps them exact as statuses change', async () => {
    const t = await createTestTenant(ctx);
    const at = (day: number, hour: number) => new Date(Date.UTC(2025, 2, day, hour));
    const spread = [[1, 3], [1, 23], [2, 0], [2, 12], [3, 6], [4, 18], [4, 23], [6, 1]] as const;
    const statuses = [TaskStatus.ToReview, TaskStatus.InReview, TaskStatus.Processed];
    await ctx.prisma.task.createMany({
      data: spread.map(([day, hour], i) => ({
        tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, taskNumber: i + 1, displayName: `t${i}`,
        taskStatus: statuses[i % 3]!, integrationStatus: (i % 2) + 1, request: {}, createdAt: at(day, hour),
      })),
    });
    const rows = await ctx.prisma.task.findMany({ where: { tenantId: t.tenantId } });
    const windows: Array<[string | undefined, string | undefined]> = [
      ['2025-03-01', undefined], [undefined, '2025-03-05'], ['2025-03-01T12:00:00', '2025-03-04T20:00:00'],
      ['2025-03-02', '2025-03-04'], ['2025-03-02T06:00:00Z', '2025-03-02T18:00:00Z'], ['2025-03-03T00:00:00', '2025-03-03T00:00:00.001'],
      ['2025-02-01', '2025-04-01'],
    ];
    const check = async () => {
      const current = await ctx.prisma.task.findMany({ where: { tenantId: t.tenantId } });
      for (const [start, end] of windows) {
        for (const filter of ['', `&taskStatus=${TaskStatus.ToReview}&taskStatus=${TaskStatus.Processed}`, '&integrationStatus=2']) {
          const q = [start && `startDate=${start}`, end && `endDate=${end}`].filter(Boolean).join('&');
          const page = (await get(t, `${base}/statuslistpaginated?${q}${filter}&pageSize=1`)).json();
          const from = start ? new Date(/Z$/.test(start) ? start : `${start.length === 10 ? `${start}T00:00:00` : start}Z`) : undefined;
          const to = end ? new Date(/Z$/.test(end) ? end : `${end.length === 10 ? `${end}T00:00:00` : end}Z`) : undefined;
          const expected = current.filter((r) =>
            (!from || r.createdAt >= from) && (!to || r.createdAt < to) &&
            (!filter.includes('taskStatus') || [TaskStatus.ToReview, TaskStatus.Processed].includes(r.taskStatus as 3 | 6)) &&
            (!filter.includes('integrationStatus') || r.integrationStatus === 2)).length;
          expect(page.totalCount, `${q}${filter}`).toBe(expected);
        }
      }
    };
    await check();
    // Status moves (pipeline, review, recovery) and a new task keep the daily counts exact.
    await ctx.prisma.task.update({ where: { id: rows[0]!.id }, data: { taskStatus: TaskStatus.Processed } });
    await ctx.prisma.task.updateMany({ where: { id: { in: [rows[3]!.id, rows[4]!.id] } }, data: { taskStatus: TaskStatus.ToReview, integrationStatus: 2 } });
    await ctx.prisma.task.create({ data: { tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, taskNumber: 99, displayName: 'late', taskStatus: 3, integrationStatus: 2, request: {}, createdAt: at(2, 8) } });
    await check();
  });
});
