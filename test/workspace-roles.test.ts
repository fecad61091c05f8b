import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../src/domain/enums.js';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { acceptLatestInvitation, invite, mailLatestInvitation, rolesListed } from './support/invitations.js';
import { expectProblem } from './support/problem.js';
import { entityIndex, listedIds, PASSWORD, seedDocumentTask, userHeaders } from './support/review.js';

/**
 * A user's role in a workspace is their membership's role there, else their tenant role; a user
 * created by a workspace invitation has no tenant role. The review API and the reviewer checks of
 * task creation both decide by that role.
 */

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

/** A Layout workspace of this name in the organization: its id. */
async function namedWorkspace(t: TestTenant, name: string): Promise<number> {
  return (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name, templateType: TemplateType.Layout })).workspaceId;
}

type Headers = { authorization: string };
const review = {
  list: (h: Headers) => ctx.app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks?pageSize=100`, headers: h }),
  get: (h: Headers, taskId: number) => ctx.app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks/${taskId}`, headers: h }),
  page: (h: Headers, taskId: number) => ctx.app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks/${taskId}/pages/1.png`, headers: h }),
  checkout: (h: Headers, taskId: number) => ctx.app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/tasks/${taskId}/checkout`, headers: h }),
  complete: (h: Headers, taskId: number) => ctx.app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/tasks/${taskId}/complete`, headers: h }),
  edit: async (h: Headers, taskId: number) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `${REVIEW_PREFIX}/tasks/${taskId}/entities`,
      headers: h,
      payload: { chunks: [{ chunkNumber: 1, edits: [{ entityIndex: await entityIndex('Total'), content: '13.75 EUR' }] }] },
    }),
};

describe('a workspace invitation grants that workspace only', () => {
  it('creates a user without a tenant role who reviews in that workspace and nowhere else', async () => {
    const t = await createTestTenant(ctx);
    const invited = await namedWorkspace(t, 'Invited');
    const other = await namedWorkspace(t, 'Other');
    const mine = await seedDocumentTask(ctx, t, { data: { workspaceId: invited } });
    const elsewhere = [await seedDocumentTask(ctx, t), await seedDocumentTask(ctx, t, { data: { workspaceId: other } })];

    const email = 'wanda@example.com';
    await invite(ctx.app, t, [{ email, roleName: 'Reviewer' }], invited);
    expect((await rolesListed(ctx.app, t))[email]).toBeNull();
    expect((await rolesListed(ctx.app, t, invited))[email]).toBe('Reviewer');
    expect(await rolesListed(ctx.app, t, other)).toEqual({});

    await acceptLatestInvitation(ctx, t.tenantId, email, PASSWORD);
    const headers = await userHeaders(ctx.app, { email }, t.tenantId);
    expect(await listedIds(ctx.app, headers)).toEqual([mine.id]);
    for (const task of elsewhere) {
      expectProblem(await review.get(headers, task.id), 403, 'ReviewNotPermitted');
      expectProblem(await review.page(headers, task.id), 403, 'ReviewNotPermitted');
      expectProblem(await review.checkout(headers, task.id), 403, 'ReviewNotPermitted');
      expectProblem(await review.edit(headers, task.id), 403, 'ReviewNotPermitted');
      expectProblem(await review.complete(headers, task.id), 403, 'ReviewNotPermitted');
    }

    expect((await review.checkout(headers, mine.id)).statusCode).toBe(200);
    const edited = await review.edit(headers, mine.id);
    expect(edited.statusCode, edited.body).toBe(200);
    const completed = await review.complete(headers, mine.id);
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toMatchObject({ reviewComplete: true });
  });

  it('gives a Viewer of the workspace no review right anywhere', async () => {
    const t = await createTestTenant(ctx);
    const invited = await namedWorkspace(t, 'Invited');
    await seedDocumentTask(ctx, t);
    await invite(ctx.app, t, [{ email: 'vic@example.com', roleName: 'Viewer' }], invited);
    await acceptLatestInvitation(ctx, t.tenantId, 'vic@example.com', PASSWORD);
    expectProblem(await review.list(await userHeaders(ctx.app, { email: 'vic@example.com' }, t.tenantId)), 403, 'ReviewNotPermitted');
  });

  it('leaves the tenant role of a user already in the organization, and adds the membership', async () => {
    const t = await createTestTenant(ctx);
    const invited = await namedWorkspace(t, 'Invited');
    await invite(ctx.app, t, [{ email: 'mia@example.com', roleName: 'Manager' }]);
    await invite(ctx.app, t, [{ email: 'mia@example.com', roleName: 'Viewer' }], invited);
    expect((await rolesListed(ctx.app, t))['mia@example.com']).toBe('Manager');
    expect((await rolesListed(ctx.app, t, invited))['mia@example.com']).toBe('Viewer');
  });

  it('gives a workspace-only user a tenant role when invited to the organization, with a notice once active', async () => {
    const t = await createTestTenant(ctx);
    const invited = await namedWorkspace(t, 'Invited');
    const inDefault = await seedDocumentTask(ctx, t);
    await invite(ctx.app, t, [{ email: 'ola@example.com', roleName: 'Reviewer' }], invited);
    await acceptLatestInvitation(ctx, t.tenantId, 'ola@example.com', PASSWORD);
    const headers = await userHeaders(ctx.app, { email: 'ola@example.com' }, t.tenantId);
    expect(await listedIds(ctx.app, headers)).toEqual([]);

    await invite(ctx.app, t, [{ email: 'ola@example.com', roleName: 'Reviewer' }]);
    expect((await rolesListed(ctx.app, t))['ola@example.com']).toBe('Reviewer');
    const notice = await mailLatestInvitation(ctx, t.tenantId, 'ola@example.com');
    expect(notice.text).not.toContain('/invitations/accept');
    expect(await listedIds(ctx.app, headers)).toEqual([inDefault.id]);
  });
});

describe('reviewer assignment honours workspace roles', () => {
  function create(t: TestTenant, workspaceId: number, assignedUsers: string[]) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/v1.0/external/sdtask/process',
      headers: t.headers,
      payload: { workspaceId, context: { url: files.url('/doc.pdf') }, taskAssignment: { assignedUsers, order: 1 } },
    });
  }

  it("accepts or refuses each user by their role in the task's workspace", async () => {
    const t = await createTestTenant(ctx);
    const nine = await namedWorkspace(t, 'Nine');
    // Reviewer in the organization, Viewer in workspace nine; and the opposite.
    await invite(ctx.app, t, [{ email: 'rex@example.com', roleName: 'Reviewer' }, { email: 'val@example.com', roleName: 'Viewer' }]);
    await invite(ctx.app, t, [{ email: 'rex@example.com', roleName: 'Viewer' }, { email: 'val@example.com', roleName: 'Reviewer' }], nine);
    // Reviewer in workspace nine only.
    await invite(ctx.app, t, [{ email: 'wes@example.com', roleName: 'Reviewer' }], nine);

    const refused = (res: Awaited<ReturnType<typeof create>>) =>
      expect(expectProblem(res, 400, 'InvalidTaskAssignment').errors[0].field).toBe('taskAssignment.assignedUsers');
    expect((await create(t, t.defaultWorkspaceId, ['rex@example.com'])).statusCode).toBe(200);
    refused(await create(t, t.defaultWorkspaceId, ['val@example.com']));
    refused(await create(t, t.defaultWorkspaceId, ['WES@example.com']));

    refused(await create(t, nine, ['rex@example.com']));
    const accepted = await create(t, nine, ['val@example.com', 'wes@example.com']);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().taskAssignment).toMatchObject({ assignedUsers: ['val@example.com', 'wes@example.com'] });
  });
});
