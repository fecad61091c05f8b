import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { TaskStatus } from '../src/domain/enums.js';
import { taskBlobKey } from '../src/storage/task-files.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { insertTask } from './support/tasks.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('stored files of tasks', () => {
  it('deletes the files of earlier runs and of superseded parts when a task is reprocessed, and keeps its source', async () => {
    const t = await createTestTenant(ctx);
    const original = await insertTask(ctx.prisma, t, { restartCount: 1 });
    const part = await insertTask(ctx.prisma, t, { parentTaskId: original.id });
    const other = await insertTask(ctx.prisma, t);
    const key = (taskId: number, name: string) => taskBlobKey(t.tenantId, taskId, name);
    const kept = [key(original.id, 'source'), key(other.id, 'run-0/redacted.pdf')];
    const dropped = [key(original.id, 'run-0/part-1.pdf'), key(original.id, 'run-1/part-1.pdf'), key(original.id, 'run-1/redacted.pdf'), key(part.id, 'run-0/redacted.pdf')];
    for (const k of [...kept, ...dropped]) await ctx.blobs.put(k, Buffer.from(k));

    const res = await ctx.app.inject({ method: 'PATCH', url: `${EXTERNAL_PREFIX}/sdtask/restartprocessing?taskid=${original.id}`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(204);

    expect((await ctx.prisma.task.findUniqueOrThrow({ where: { id: part.id } })).taskStatus).toBe(TaskStatus.Deleted);
    for (const k of kept) expect(await ctx.blobs.exists(k), k).toBe(true);
    for (const k of dropped) expect(await ctx.blobs.exists(k), k).toBe(false);
    expect(await ctx.blobs.list(taskBlobKey(t.tenantId, part.id, ''))).toEqual([]);
  });
});
