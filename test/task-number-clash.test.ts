import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { expectProblem } from './support/problem.js';

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

function create(t: TestTenant, body: Record<string, unknown> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1.0/external/sdtask/process',
    headers: t.headers,
    payload: { context: { url: files.url('/doc.pdf') }, ...body },
  });
}

describe('unique violations when a task is inserted', () => {
  it('does not report a taskNumber clash as a duplicate externalId', async () => {
    const t = await createTestTenant(ctx);
    const first = await create(t, { externalId: 'first' });
    expect(first.statusCode, first.body).toBe(200);
    // The workspace's counter set back by hand: the next insert takes a number already used.
    await ctx.prisma.$executeRaw`UPDATE "Workspace" SET "nextTaskNumber" = "nextTaskNumber" - 1 WHERE id = ${t.defaultWorkspaceId}`;
    const clash = await create(t, { externalId: 'second' });
    const body = expectProblem(clash, 500);
    expect(body.title).not.toBe('DuplicateExternalId');
    expect(body.detail).not.toMatch(/externalId/);
    expect(await ctx.prisma.task.count({ where: { tenantId: t.tenantId } })).toBe(1);
  });

  it('still reports a duplicate externalId as 409 DuplicateExternalId, also when concurrent creates race past the check', async () => {
    const t = await createTestTenant(ctx);
    // Concurrent creates usually all pass the lookup before the first commits: the unique index decides.
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(t, { externalId: 'same' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expectProblem(refused, 409, 'DuplicateExternalId');
    expectProblem(await create(t, { externalId: 'same' }), 409, 'DuplicateExternalId');
  });
});
