import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({
    '/doc.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' },
    '/three.pdf': { body: await numberedPagesPdf(3), type: 'application/pdf' },
  });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
});

const url = '/api/v1.0/external/sdbatch';

/** POST sdbatch: the raw response. */
function postBatch(t: TestTenant, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url, headers: t.headers, payload });
}

describe('batches', () => {
  it('creates a batch in the default or a given workspace, with zero counts', async () => {
    const t = await createTestTenant(ctx);
    const receipts = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'r', templateType: TemplateType.Receipts })).workspaceId;
    const a = await postBatch(t, { displayName: 'January', description: 'invoices' });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toMatchObject({ workspaceId: t.defaultWorkspaceId, displayName: 'January', description: 'invoices', totalTasks: 0, totalTasksInHistory: 0 });
    const b = (await postBatch(t, { displayName: 'Receipts', workspaceId: receipts })).json();
    expect(b.workspaceId).toBe(receipts);
    const got = await ctx.app.inject({ method: 'GET', url: `${url}?batchId=${a.json().batchId}`, headers: t.headers });
    expect(got.json()).toEqual(a.json());
  });

  it('rejects a missing name (400) and a missing or foreign workspace (404)', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    expectProblem(await postBatch(t, {}), 400);
    expectProblem(await postBatch(t, { displayName: '  ' }), 400);
    expectProblem(await postBatch(t, { displayName: 'x', workspaceId: 99_999_999 }), 404);
    expectProblem(await postBatch(t, { displayName: 'x', workspaceId: other.defaultWorkspaceId }), 404);
  });

  it('answers 400 without batchId and 404 for an unknown or foreign batch', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const theirs = (await postBatch(other, { displayName: 'theirs' })).json();
    expectProblem(await ctx.app.inject({ method: 'GET', url, headers: t.headers }), 400);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${url}?batchId=99999999`, headers: t.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${url}?batchid=${theirs.batchId}`, headers: t.headers }), 404);
  });

  it('keeps totalTasks and totalTasksInHistory true to the tasks', async () => {
    const t = await createTestTenant(ctx);
    const batch = (await postBatch(t, { displayName: 'b' })).json();
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1.0/external/sdtask/process',
        headers: t.headers,
        payload: { batchId: batch.batchId, context: { url: files.url('/doc.pdf') } },
      });
      ids.push(res.json().taskId);
    }
    await ctx.prisma.task.update({ where: { id: ids[0] }, data: { taskStatus: TaskStatus.Processed } });
    const got = (await ctx.app.inject({ method: 'GET', url: `${url}?batchId=${batch.batchId}`, headers: t.headers })).json();
    expect(got).toMatchObject({ totalTasks: 3, totalTasksInHistory: 1 });
  });

  it('counts only the live tasks of a reprocessed split: the original and its new parts, not the superseded ones', async () => {
    const t = await createTestTenant(ctx);
    const batch = (await postBatch(t, { displayName: 'split' })).json();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1.0/external/sdtask/process',
      headers: t.headers,
      payload: { batchId: batch.batchId, context: { url: files.url('/three.pdf'), splitTaskInChunks: true, splitChunkNumberPages: 2 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().taskId as number;
    const get = async () => (await ctx.app.inject({ method: 'GET', url: `${url}?batchId=${batch.batchId}`, headers: t.headers })).json();
    const workers = await startTestWorkers(ctx);
    let oldPart: { id: number } | undefined;
    try {
      expect((await waitForFinalStatus(ctx, id)).taskStatus).toBe(TaskStatus.Split);
      expect(await get()).toMatchObject({ totalTasks: 3, totalTasksInHistory: 0 });
      // A part that reached history, then superseded: it leaves the history with the batch's count.
      [oldPart] = await ctx.prisma.task.findMany({ where: { parentTaskId: id }, orderBy: { partNumber: 'asc' } });
      await ctx.prisma.task.update({ where: { id: oldPart!.id }, data: { taskStatus: TaskStatus.Processed } });
      expect(await get()).toMatchObject({ totalTasks: 3, totalTasksInHistory: 1 });

      const again = await ctx.app.inject({ method: 'PATCH', url: `/api/v1.0/external/sdtask/restartprocessing?taskId=${id}`, headers: t.headers });
      expect(again.statusCode, again.body).toBe(204);
      expect((await waitForFinalStatus(ctx, id)).taskStatus).toBe(TaskStatus.Split);
    } finally {
      await workers.close();
    }
    const live = await ctx.prisma.task.count({ where: { batchId: batch.batchId, taskStatus: { not: TaskStatus.Deleted } } });
    expect(live).toBe(3);
    expect(await ctx.prisma.task.count({ where: { batchId: batch.batchId } })).toBe(5);
    expect(await get()).toMatchObject({ totalTasks: 3, totalTasksInHistory: 0 });
    const listed = (await ctx.app.inject({ method: 'GET', url: `${url}/paginated?startDate=2000-01-01`, headers: t.headers })).json();
    expect(listed.items).toEqual([expect.objectContaining({ batchId: batch.batchId, totalTasks: 3 })]);
    // A superseded part stays superseded: reprocessing it would bring back a part of the old run.
    const stale = await ctx.app.inject({ method: 'PATCH', url: `/api/v1.0/external/sdtask/restartprocessing?taskId=${oldPart!.id}`, headers: t.headers });
    expectProblem(stale, 409);
    expect(await get()).toMatchObject({ totalTasks: 3 });
  });

  it('lists batches by page with date window, workspace filter and sort', async () => {
    const t = await createTestTenant(ctx);
    const receipts = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'r', templateType: TemplateType.Receipts })).workspaceId;
    for (const [name, day, workspaceId, totalTasks] of [['c', 1, t.defaultWorkspaceId, 5], ['a', 2, receipts, 1], ['b', 3, t.defaultWorkspaceId, 9]] as const) {
      await ctx.prisma.batch.create({ data: { tenantId: t.tenantId, workspaceId, displayName: name, createdAt: new Date(Date.UTC(2025, 1, day)), totalTasks } });
    }
    const list = async (q: string) => (await ctx.app.inject({ method: 'GET', url: `${url}/paginated?${q}`, headers: t.headers })).json();
    const names = (p: { items: Array<{ displayName: string }> }) => p.items.map((i) => i.displayName);
    expect(names(await list('startDate=2025-02-01'))).toEqual(['c', 'a', 'b']);
    expect(names(await list('startDate=2025-02-01&sort=-totalTasks'))).toEqual(['b', 'c', 'a']);
    expect(names(await list('startDate=2025-02-01&sort=displayName'))).toEqual(['a', 'b', 'c']);
    expect(names(await list(`startDate=2025-02-01&workspaceId=${receipts}`))).toEqual(['a']);
    expect(names(await list('endDate=2025-02-02T00:00:00'))).toEqual(['c']);
    const page = await list('startDate=2025-02-01&pageSize=2&pageNumber=2');
    expect(page).toMatchObject({ pageNumber: 2, totalPages: 2, totalCount: 3, hasPreviousPage: true, hasNextPage: false });
    expect(names(page)).toEqual(['b']);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${url}/paginated`, headers: t.headers }), 400);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${url}/paginated?startDate=2025-02-01&sort=size`, headers: t.headers }), 400);
  });
});
