import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { IntegrationStatus, TaskAssignmentOrderType, TaskStatus, TemplateType, UserStatus } from '../src/domain/enums.js';
import type { DocumentExportResponse } from '../src/modules/exports/document-export.schemas.js';
import type { TranscriptExportResponse } from '../src/modules/exports/transcript-export.schemas.js';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { markHandedOver } from '../src/modules/review/review.service.js';
import { createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { expectProblem } from './support/problem.js';
import {
  createUser,
  entityIndex,
  listedIds,
  login,
  PASSWORD,
  seedDocumentTask,
  seedTranscriptTask,
  userHeaders,
  type TestUser,
} from './support/review.js';
import { createTestContext } from './support/context.js';

let ctx: TestContext;
let app: FastifyInstance;
beforeAll(async () => {
  ctx = await createTestContext();
  app = ctx.app;
});
afterAll(() => ctx.close());

type Headers = { authorization: string };

const review = {
  list: (h: Headers) => app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks?pageSize=100`, headers: h }),
  get: (h: Headers, taskId: number) => app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks/${taskId}`, headers: h }),
  checkout: (h: Headers, taskId: number) => app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/tasks/${taskId}/checkout`, headers: h }),
  complete: (h: Headers, taskId: number) => app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/tasks/${taskId}/complete`, headers: h }),
  editEntities: (h: Headers, taskId: number, payload: object) =>
    app.inject({ method: 'PATCH', url: `${REVIEW_PREFIX}/tasks/${taskId}/entities`, headers: h, payload }),
  editTranscript: (h: Headers, taskId: number, payload: object) =>
    app.inject({ method: 'PATCH', url: `${REVIEW_PREFIX}/tasks/${taskId}/transcript`, headers: h, payload }),
};

/** One key-value edit of the seeded invoice's only chunk. */
async function editValue(category: string, content: string, version?: number) {
  return { chunks: [{ chunkNumber: 1, ...(version ? { version } : {}), edits: [{ entityIndex: await entityIndex(category), content }] }] };
}

async function taskRow(taskId: number) {
  return ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
}

async function documentExport(t: TestTenant, taskId: number): Promise<DocumentExportResponse> {
  const res = await app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/${taskId}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Checks a task out and completes it as the user; returns the completion's body. */
async function reviewAs(h: Headers, taskId: number) {
  expect((await review.checkout(h, taskId)).statusCode).toBe(200);
  const res = await review.complete(h, taskId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('login', () => {
  let t: TestTenant;
  beforeAll(async () => {
    t = await createTestTenant(ctx);
  });

  it('gives an Active user with the right password a user token; anything else is 401', async () => {
    const user = await createUser(ctx, t);
    const res = await login(app, user.email.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ access_token: expect.any(String), expires_in: ctx.config.TOKEN_TTL_SECONDS, token_type: 'Bearer' });

    expectProblem(await login(app, user.email, 'wrong password'), 401, 'InvalidCredentials');
    expectProblem(await login(app, 'nobody-here@example.com'), 401, 'InvalidCredentials');
    const invited = await ctx.prisma.user.create({ data: { tenantId: t.tenantId, email: 'invited@example.com', roleName: 'Reviewer' } });
    expectProblem(await login(app, invited.email, ''), 400, 'ValidationError');
    expectProblem(await login(app, invited.email), 401, 'InvalidCredentials');
    const disabled = await createUser(ctx, t, { status: UserStatus.Disabled });
    expectProblem(await login(app, disabled.email), 401, 'InvalidCredentials');
  });

  it('asks which organization when the password opens users of several, and logs into the one named', async () => {
    const other = await createTestTenant(ctx);
    const email = `shared-${Date.now()}@example.com`;
    const [here, there] = [await createUser(ctx, t, { email }), await createUser(ctx, other, { email })];
    const res = expectProblem(await login(app, email), 400, 'TenantRequired');
    expect(res.tenants.map((x: { tenantId: number }) => x.tenantId).sort()).toEqual([t.tenantId, other.tenantId].sort());

    const into = await login(app, email, PASSWORD, other.tenantId);
    expect(into.statusCode, into.body).toBe(200);
    const headers = { authorization: `Bearer ${into.json().access_token}` };
    // The token is the user of that organization: a task of the other one is not found.
    const task = await seedDocumentTask(ctx, t);
    expectProblem(await review.get(headers, task.id), 404);
    expect((await review.get(await userHeaders(app, here, t.tenantId), task.id)).statusCode).toBe(200);
    expect(there.id).not.toBe(here.id);

    // With different passwords, each password opens its own organization without tenantId.
    const distinct = `distinct-${Date.now()}@example.com`;
    await createUser(ctx, t, { email: distinct, password: 'first password' });
    await createUser(ctx, other, { email: distinct, password: 'second password' });
    expect((await login(app, distinct, 'second password')).statusCode).toBe(200);
  });
});

describe('tokens and permissions', () => {
  let t: TestTenant;
  let task: { id: number };
  beforeAll(async () => {
    t = await createTestTenant(ctx);
    task = await seedDocumentTask(ctx, t);
  });

  it('refuses a client token on the reviewer API and a user token on the external API', async () => {
    expectProblem(await review.list(t.headers), 401);
    expectProblem(await app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks` }), 401);
    const user = await userHeaders(app, await createUser(ctx, t));
    expectProblem(await app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdworkspace/CurrentWorkspaces`, headers: user }), 401);
    expectProblem(await app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/${task.id}`, headers: user }), 401);
  });

  it('forbids Viewer and Creator roles and disabled users', async () => {
    for (const roleName of ['Viewer', 'Creator']) {
      const headers = await userHeaders(app, await createUser(ctx, t, { roleName }));
      expectProblem(await review.list(headers), 403, 'ReviewNotPermitted');
      expectProblem(await review.checkout(headers, task.id), 403, 'ReviewNotPermitted');
    }
    const user = await createUser(ctx, t);
    const headers = await userHeaders(app, user);
    expect((await review.list(headers)).statusCode).toBe(200);
    // Disabling takes effect on the next request, token or not.
    await ctx.prisma.user.update({ where: { id: user.id }, data: { status: UserStatus.Disabled } });
    expectProblem(await review.list(headers), 403, 'UserDisabled');
    expectProblem(await review.checkout(headers, task.id), 403, 'UserDisabled');
  });

  it("applies a workspace role in its workspace over the user's role", async () => {
    const receipts = await ctx.prisma.workspace.create({
      data: { tenantId: t.tenantId, name: 'Receipts', templateType: TemplateType.Receipts, taskType: 1, workspaceType: 1 },
    });
    const inReceipts = await seedDocumentTask(ctx, t, { data: { workspaceId: receipts.id } });
    const viewer = await createUser(ctx, t, { roleName: 'Viewer' });
    await ctx.prisma.workspaceMember.create({ data: { workspaceId: receipts.id, userId: viewer.id, roleName: 'Reviewer' } });
    const headers = await userHeaders(app, viewer);
    expect(await listedIds(app, headers)).toEqual([inReceipts.id]);
    expectProblem(await review.get(headers, task.id), 403, 'ReviewNotPermitted');

    const reviewer = await createUser(ctx, t);
    await ctx.prisma.workspaceMember.create({ data: { workspaceId: receipts.id, userId: reviewer.id, roleName: 'Viewer' } });
    const reviewerHeaders = await userHeaders(app, reviewer);
    expect(await listedIds(app, reviewerHeaders)).toContain(task.id);
    expect(await listedIds(app, reviewerHeaders)).not.toContain(inReceipts.id);
    expectProblem(await review.checkout(reviewerHeaders, inReceipts.id), 403, 'ReviewNotPermitted');
  });
});

describe('Sequential assignment', () => {
  let t: TestTenant;
  let first: TestUser;
  let second: TestUser;
  let h1: Headers;
  let h2: Headers;

  beforeAll(async () => {
    t = await createTestTenant(ctx);
    [first, second] = [await createUser(ctx, t), await createUser(ctx, t)];
    [h1, h2] = [await userHeaders(app, first), await userHeaders(app, second)];
  });

  it('lets the second reviewer review only after the first; the export shows both edits and who made them', async () => {
    const task = await seedDocumentTask(ctx, t, { assignedUsers: [first.email, second.email], order: TaskAssignmentOrderType.Sequential });
    const outsider = await userHeaders(app, await createUser(ctx, t));

    expect(await listedIds(app, h1)).toContain(task.id);
    expect(await listedIds(app, h2)).not.toContain(task.id);
    expect(await listedIds(app, outsider)).not.toContain(task.id);
    expectProblem(await review.checkout(h2, task.id), 403, 'NotYourTurn');
    expectProblem(await review.complete(h2, task.id), 403, 'NotYourTurn');
    expectProblem(await review.get(h2, task.id), 403, 'NotYourTurn');
    expectProblem(await review.checkout(outsider, task.id), 403, 'NotAssigned');

    // Edits need the checkout.
    expectProblem(await review.editEntities(h1, task.id, await editValue('Total', '13.75 EUR')), 409, 'CheckoutRequired');
    const checkout = await review.checkout(h1, task.id);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(checkout.json()).toMatchObject({ taskStatus: TaskStatus.InReview, taskStatusText: 'InReview', checkout: { userId: first.id, userName: first.name } });
    expect(new Date(checkout.json().checkout.until).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);

    const edited = await review.editEntities(h1, task.id, await editValue('Total', '13.75 EUR', 1));
    expect(edited.statusCode, edited.body).toBe(200);
    const chunk = edited.json().chunks[0];
    expect(chunk).toMatchObject({ chunkNumber: 1, version: 2, lastModifiedBy: first.id });
    const total = chunk.entities[await entityIndex('Total')];
    expect(total).toMatchObject({ editedBy: first.id, editedByExternal: null, editedOn: expect.any(String), viewerEditedOn: expect.any(String) });
    // The normalized value follows the new content.
    expect(total.keyValues[0]).toMatchObject({ content: '13.75 EUR', contentNormalized: '13.75' });
    // A save based on an old version is a conflict, not an overwrite.
    expectProblem(await review.editEntities(h1, task.id, await editValue('Total', '1.00 EUR', 1)), 409, 'StaleChunk');

    const firstDone = await review.complete(h1, task.id);
    expect(firstDone.statusCode, firstDone.body).toBe(200);
    expect(firstDone.json()).toMatchObject({ taskStatus: TaskStatus.ToReview, integrationStatus: IntegrationStatus.Never, reviewComplete: false });
    expectProblem(await review.checkout(h1, task.id), 409, 'AlreadyReviewed');
    expect(await listedIds(app, h1)).not.toContain(task.id);
    expect(await listedIds(app, h2)).toContain(task.id);

    expect((await review.checkout(h2, task.id)).statusCode).toBe(200);
    const second_edit = await review.editEntities(h2, task.id, await editValue('Invoice number', 'INV-002'));
    expect(second_edit.statusCode, second_edit.body).toBe(200);
    const done = await review.complete(h2, task.id);
    expect(done.json()).toMatchObject({
      taskStatus: TaskStatus.ExportCompleted,
      taskStatusText: 'ExportCompleted',
      integrationStatus: IntegrationStatus.Queued,
      integrationStatusText: 'Queued',
      reviewComplete: true,
    });
    expectProblem(await review.checkout(h2, task.id), 409, 'TaskNotInReview');

    const exported = await documentExport(t, task.id);
    const [exportedChunk] = exported.chunks;
    expect(exportedChunk).toMatchObject({ version: '3', lastModifiedBy: second.id, lastModifiedByExternal: null, lastModifiedOn: expect.any(String) });
    expect(exportedChunk!.entities[await entityIndex('Total')]).toMatchObject({ editedBy: first.id, keyValues: [expect.objectContaining({ content: '13.75 EUR' })] });
    expect(exportedChunk!.entities[await entityIndex('Invoice number')]).toMatchObject({
      editedBy: second.id,
      keyValues: [expect.objectContaining({ content: 'INV-002', contentNormalized: 'INV-002' })],
    });
    expect(exportedChunk!.entities.filter((e) => e.editedBy !== null)).toHaveLength(2);
    // Reading the export of the reviewed task was its hand-over, and the response already says so.
    expect(exported).toMatchObject({ lastCheckedOutBy: second.id, lastCheckoutByUserName: second.name, lastIntegratedOn: expect.any(String) });
    expect(await taskRow(task.id)).toMatchObject({ taskStatus: TaskStatus.Processed, integrationStatus: IntegrationStatus.Successful, lastIntegratedOn: expect.any(Date) });
    expect(await markHandedOver(ctx.prisma, t.tenantId, task.id)).toBe(false);
    expect((await documentExport(t, task.id)).lastIntegratedOn).toEqual(exported.lastIntegratedOn);
  });
});

describe('Parallel and AnyOne assignments', () => {
  let t: TestTenant;
  let users: TestUser[];
  let headers: Headers[];

  beforeAll(async () => {
    t = await createTestTenant(ctx);
    users = [await createUser(ctx, t), await createUser(ctx, t)];
    headers = await Promise.all(users.map((u) => userHeaders(app, u)));
  });

  it('Parallel: every assigned reviewer, in any order, one checkout at a time', async () => {
    const task = await seedDocumentTask(ctx, t, { assignedUsers: users.map((u) => u.email), order: TaskAssignmentOrderType.Parallel });
    const [h1, h2] = headers as [Headers, Headers];
    expect(await listedIds(app, h1)).toContain(task.id);
    expect(await listedIds(app, h2)).toContain(task.id);

    expect((await review.checkout(h2, task.id)).statusCode).toBe(200);
    const held = expectProblem(await review.checkout(h1, task.id), 409, 'CheckedOutByAnother');
    expect(held.detail).toContain(users[1]!.name);
    const listed = (await review.list(h1)).json().items.find((x: { taskId: number }) => x.taskId === task.id);
    expect(listed.checkout).toMatchObject({ userId: users[1]!.id });
    expectProblem(await review.complete(h1, task.id), 409, 'CheckoutRequired');

    // An expired checkout frees the task.
    await ctx.prisma.task.update({ where: { id: task.id }, data: { lastCheckedOutUntil: new Date(Date.now() - 1000) } });
    expect((await reviewAs(h1, task.id)).reviewComplete).toBe(false);
    expect((await taskRow(task.id)).taskStatus).toBe(TaskStatus.ToReview);
    expect(await reviewAs(h2, task.id)).toMatchObject({ reviewComplete: true, taskStatus: TaskStatus.ExportCompleted });
  });

  it('AnyOne: the first completion finishes the review', async () => {
    const task = await seedDocumentTask(ctx, t, { assignedUsers: users.map((u) => u.email), order: TaskAssignmentOrderType.AnyOne });
    const [h1, h2] = headers as [Headers, Headers];
    expect(await reviewAs(h2, task.id)).toMatchObject({ reviewComplete: true, taskStatus: TaskStatus.ExportCompleted });
    expectProblem(await review.checkout(h1, task.id), 409, 'TaskNotInReview');
    expect(await listedIds(app, h1)).not.toContain(task.id);
  });

  it('unassigned tasks: any reviewer of the organization, one review', async () => {
    const task = await seedDocumentTask(ctx, t);
    const [h1, h2] = headers as [Headers, Headers];
    expect(await listedIds(app, h1)).toContain(task.id);
    expect(await reviewAs(h1, task.id)).toMatchObject({ reviewComplete: true });
    expect(await listedIds(app, h2)).not.toContain(task.id);
    const stranger = await userHeaders(app, await createUser(ctx, await createTestTenant(ctx)));
    expectProblem(await review.get(stranger, task.id), 404);
  });
});

describe('task detail, page images and edits', () => {
  let t: TestTenant;
  let h: Headers;
  beforeAll(async () => {
    t = await createTestTenant(ctx);
    h = await userHeaders(app, await createUser(ctx, t));
  });

  it('shows the chunks, a signed link to the source and rendered page images', async () => {
    const task = await seedDocumentTask(ctx, t);
    const res = await review.get(h, task.id);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json();
    expect(detail).toMatchObject({ taskId: task.id, taskType: 1, taskStatus: TaskStatus.ToReview, checkout: null, assignments: [], transcript: null });
    expect(detail.pages).toEqual([{ pageNumber: 1, imageUrl: `${REVIEW_PREFIX}/tasks/${task.id}/pages/1.png`, pixelsPerUnit: 2 }]);
    expect(detail.chunks[0].entities[await entityIndex('Total')].keyValues[0].content).toBe('12.50 EUR');
    const link = new URL(detail.fileUrl);
    const source = await app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(source.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const png = await app.inject({ method: 'GET', url: detail.pages[0].imageUrl, headers: h });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expectProblem(await app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks/${task.id}/pages/2.png`, headers: h }), 404);
    expectProblem(await app.inject({ method: 'GET', url: detail.pages[0].imageUrl, headers: t.headers }), 401);
  });

  it('rejects edits of entities or key-values the chunk does not have', async () => {
    const task = await seedDocumentTask(ctx, t);
    await review.checkout(h, task.id);
    expectProblem(await review.editEntities(h, task.id, { chunks: [{ chunkNumber: 1, edits: [{ entityIndex: 999, content: 'x' }] }] }), 400);
    expectProblem(await review.editEntities(h, task.id, { chunks: [{ chunkNumber: 1, edits: [{ entityIndex: 0, keyValueIndex: 99, content: 'x' }] }] }), 400);
    expectProblem(await review.editEntities(h, task.id, { chunks: [{ chunkNumber: 7, edits: [{ entityIndex: 0, content: 'x' }] }] }), 400);
    expectProblem(await review.editEntities(h, task.id, { chunks: [{ chunkNumber: 1, edits: [{ entityIndex: 0 }] }] }), 400);
    // An edit that changes nothing records nothing.
    const same = await review.editEntities(h, task.id, await editValue('Total', '12.50 EUR'));
    expect(same.json().chunks[0]).toMatchObject({ version: 1, lastModifiedBy: null });
  });
});

describe('transcript review', () => {
  it('edits segments and annotations, recording who, and the transcript export shows them', async () => {
    const t = await createTestTenant(ctx, { defaultTemplate: TemplateType.Transcripts });
    const user = await createUser(ctx, t);
    const h = await userHeaders(app, user);
    const task = await seedTranscriptTask(ctx, t);

    const detail = (await review.get(h, task.id)).json();
    expect(detail).toMatchObject({ taskType: 2, chunks: [], pages: [], transcript: { version: 1, totalTimeInSeconds: 10 } });
    expect(detail.transcript.speakers.map((s: { speakerId: string }) => s.speakerId)).toEqual(['speaker-1', 'agent']);

    await review.checkout(h, task.id);
    expectProblem(await review.editTranscript(h, task.id, { segments: [{ index: 1, speakerId: 'nobody' }] }), 400);
    expectProblem(await review.editTranscript(h, task.id, { annotations: [{ content: 'x', start: 5, end: 11 }] }), 400);
    expectProblem(await review.editEntities(h, task.id, await editValue('Total', 'x')), 400, 'NotADocumentTask');

    const res = await review.editTranscript(h, task.id, {
      version: 1,
      segments: [{ index: 1, displayText: 'how may I help', speakerId: 'agent' }],
      annotations: [{ content: 'greeting', start: 0.5, end: 1.5 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json();
    expect(edited.version).toBe(2);
    expect(edited.transcripts[1]).toMatchObject({ speakerId: 'agent', displayText: 'how may I help' });
    expect(edited.transcripts[1].displayWords.map((w: { text: string; confidence: number }) => [w.text, w.confidence])).toEqual([
      ['how', 0.8],
      ['may', 1],
      ['I', 0.8],
      ['help', 0.8],
    ]);
    expect(edited.transcripts[1].originalWords[1].text).toBe('can');
    const [annotation] = edited.annotations;
    expect(annotation).toMatchObject({ content: 'greeting', createdBy: user.id, createdByUserName: user.name, modifiedBy: null });

    const changed = await review.editTranscript(h, task.id, { annotations: [{ uniqueId: annotation.uniqueId, content: 'greeting!', start: 0.5, end: 2 }] });
    expect(changed.json().annotations[0]).toMatchObject({ createdBy: user.id, modifiedBy: user.id, modifiedByUserName: user.name, modifiedOn: expect.any(String) });
    expectProblem(await review.editTranscript(h, task.id, { version: 1, segments: [{ index: 0, displayText: 'hi' }] }), 409, 'StaleTranscript');

    expect((await review.complete(h, task.id)).json()).toMatchObject({ reviewComplete: true });
    const exported = await app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/Transcript/${task.id}`, headers: t.headers });
    const body: TranscriptExportResponse = exported.json();
    expect(body.transcript.transcripts[1]).toMatchObject({ speakerId: 'agent', displayText: 'how may I help' });
    expect(body.transcript.annotations).toEqual([expect.objectContaining({ content: 'greeting!', createdBy: user.id, createdByUserName: user.name, modifiedBy: user.id })]);
    expect(body).toMatchObject({ lastCheckedOutBy: user.id, lastCheckoutByUserName: user.name });
  });
});

describe('split tasks', () => {
  it('makes the original ExportCompleted when all its parts are, and hands the parts over with it', async () => {
    const t = await createTestTenant(ctx);
    const h = await userHeaders(app, await createUser(ctx, t));
    const original = await seedDocumentTask(ctx, t, { data: { taskStatus: TaskStatus.Split } });
    const parts = [
      await seedDocumentTask(ctx, t, { data: { parentTaskId: original.id, partNumber: 1 } }),
      await seedDocumentTask(ctx, t, { data: { parentTaskId: original.id, partNumber: 2 } }),
    ];
    // A part of an earlier run (reprocessed since) does not count.
    await seedDocumentTask(ctx, t, { data: { parentTaskId: original.id, partNumber: 1, taskStatus: TaskStatus.Deleted } });

    await reviewAs(h, parts[0]!.id);
    expect((await taskRow(original.id)).taskStatus).toBe(TaskStatus.Split);
    await reviewAs(h, parts[1]!.id);
    expect(await taskRow(original.id)).toMatchObject({ taskStatus: TaskStatus.ExportCompleted, integrationStatus: IntegrationStatus.Queued });

    expect(await markHandedOver(ctx.prisma, t.tenantId, original.id)).toBe(true);
    for (const id of [original.id, ...parts.map((p) => p.id)]) {
      expect(await taskRow(id)).toMatchObject({ taskStatus: TaskStatus.Processed, integrationStatus: IntegrationStatus.Successful });
    }
  });
});

describe('concurrent completions', () => {
  it('of the last two parts of an original by two reviewers make the original ExportCompleted', async () => {
    const t = await createTestTenant(ctx);
    const [h1, h2] = [await userHeaders(app, await createUser(ctx, t)), await userHeaders(app, await createUser(ctx, t))];
    const original = await seedDocumentTask(ctx, t, { data: { taskStatus: TaskStatus.Split } });
    const parts = [
      await seedDocumentTask(ctx, t, { data: { parentTaskId: original.id, partNumber: 1 } }),
      await seedDocumentTask(ctx, t, { data: { parentTaskId: original.id, partNumber: 2 } }),
    ];
    await review.checkout(h1, parts[0]!.id);
    await review.checkout(h2, parts[1]!.id);
    const done = await Promise.all([review.complete(h1, parts[0]!.id), review.complete(h2, parts[1]!.id)]);
    expect(done.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await taskRow(original.id)).taskStatus).toBe(TaskStatus.ExportCompleted);
  });
});

describe('reviewer page and OpenAPI', () => {
  it('serves the page with a strict content security policy', async () => {
    const page = await app.inject({ method: 'GET', url: '/review/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('/review/app.js');
    const script = await app.inject({ method: 'GET', url: '/review/app.js' });
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await app.inject({ method: 'GET', url: '/review/style.css' })).headers['content-type']).toMatch(/^text\/css/);
    expectProblem(await app.inject({ method: 'GET', url: '/review/secrets.txt' }), 404);
  });

  it('documents every reviewer route in a valid OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const documented = new Set(Object.keys(doc.paths).map((p) => p.replace(/\{(\w+)\}/g, ':$1')));
    const reviewRoutes = app.routeCatalog.filter((r) => !r.startsWith('HEAD') && (r.includes(REVIEW_PREFIX) || r.includes(' /review')));
    expect(reviewRoutes.length).toBeGreaterThan(8);
    for (const route of reviewRoutes) expect(documented.has(route.split(' ')[1]!), route).toBe(true);
  });
});
