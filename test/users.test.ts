import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Roles, TemplateType } from '../src/domain/enums.js';
import { createMailer, type MailMessage, type Mailer } from '../src/mail/mailer.js';
import { verifySecret } from '../src/modules/auth/secret-hash.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { deliverInvitation } from '../src/pipeline/deliver-invitation.js';
import { jobId, QueueName } from '../src/queues/queues.js';
import { sweep } from '../src/pipeline/sweeper.js';
import { createTestContext, createTestTenant, testConfig, type TestContext, type TestTenant } from './support/context.js';
import { pipelineDeps, startTestWorkers } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { acceptLinkOf, startTestSmtp, type TestSmtp } from './support/smtp.js';

const base = '/api/v1.0/external';
const PASSWORD = 'correct horse battery';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.restoreAllMocks();
});

function post(t: TestTenant, url: string, payload: unknown) {
  return ctx.app.inject({ method: 'POST', url: `${base}${url}`, headers: t.headers, payload: payload as object });
}

function get(t: TestTenant, url: string) {
  return ctx.app.inject({ method: 'GET', url: `${base}${url}`, headers: t.headers });
}

async function inviteToTenant(t: TestTenant, users: { email: string; roleName: string }[]) {
  const res = await post(t, '/tenant/inviteusers', { users });
  expect(res.statusCode, res.body).toBe(204);
}

function invitationsOf(tenantId: number, email: string) {
  return ctx.prisma.invitation.findMany({ where: { tenantId, user: { email } }, orderBy: { id: 'asc' } });
}

/** Runs the mail job of an invitation with a mailer that keeps the message. */
async function mailInvitation(tenantId: number, invitationId: number): Promise<MailMessage[]> {
  const sent: MailMessage[] = [];
  const mailer: Mailer = { send: async (message) => void sent.push(message) };
  await deliverInvitation(pipelineDeps(ctx), mailer, { tenantId, invitationId });
  return sent;
}

function tokenOf(message: MailMessage): string {
  return acceptLinkOf(message.text).searchParams.get('token')!;
}

describe('roles and user lists', () => {
  it('lists the available roles', async () => {
    const t = await createTestTenant(ctx);
    const res = await get(t, '/tenant/availableroles');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(Roles.map((name) => ({ name })));
  });

  it('lists invited users with their status, and workspace members with their role in the workspace', async () => {
    const t = await createTestTenant(ctx);
    await inviteToTenant(t, [{ email: 'Ann@Example.com', roleName: 'Reviewer' }]);
    const res = await post(t, '/sdworkspace/inviteusers', { workspaceId: t.defaultWorkspaceId, users: [{ email: 'bob@example.com', roleName: 'Creator' }] });
    expect(res.statusCode, res.body).toBe(204);

    const all = await get(t, '/tenant/allusers');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual([
      { id: expect.any(Number), roleName: 'Reviewer', name: null, userName: null, email: 'ann@example.com', createdAt: expect.any(String), emailConfirmed: false, status: 'Invited' },
      // Invited to a workspace only: no tenant role.
      { id: expect.any(Number), roleName: null, name: null, userName: null, email: 'bob@example.com', createdAt: expect.any(String), emailConfirmed: false, status: 'Invited' },
    ]);

    const members = await get(t, `/sdworkspace/allusers/${t.defaultWorkspaceId}`);
    expect(members.statusCode, members.body).toBe(200);
    expect(members.json()).toEqual([expect.objectContaining({ email: 'bob@example.com', roleName: 'Creator', status: 'Invited' })]);
  });

  it("answers 404 for another organization's workspace, on invite and on the member list", async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const invite = await post(t, '/sdworkspace/inviteusers', { workspaceId: other.defaultWorkspaceId, users: [{ email: 'eve@example.com', roleName: 'Viewer' }] });
    expectProblem(invite, 404);
    expectProblem(await get(t, `/sdworkspace/allusers/${other.defaultWorkspaceId}`), 404);
    expect(await ctx.prisma.user.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });
});

describe('invite validation', () => {
  /** The spec's invite error: 400 `Bad Request`, a sentence as detail, no field list. */
  async function expectBadRequest(url: string, payload: unknown) {
    const t = await createTestTenant(ctx);
    const body = expectProblem(await post(t, url, payload), 400, 'Bad Request');
    expect(body.errors).toBeUndefined();
    expect(await ctx.prisma.user.count({ where: { tenantId: t.tenantId } })).toBe(0);
    return body.detail as string;
  }

  it.each(['not-an-email', 'a@', '@example.com', 'two words@example.com', ''])('rejects the email %j', async (email) => {
    expect(await expectBadRequest('/tenant/inviteusers', { users: [{ email, roleName: 'Viewer' }] })).toBe('The email address is not valid.');
  });

  it('rejects the same email twice in a request, whatever its case', async () => {
    const detail = await expectBadRequest('/tenant/inviteusers', {
      users: [
        { email: 'ann@example.com', roleName: 'Viewer' },
        { email: 'ANN@example.com', roleName: 'Manager' },
      ],
    });
    expect(detail).toContain('ANN@example.com');
  });

  it('rejects an unknown role, naming it and the valid ones', async () => {
    const detail = await expectBadRequest('/tenant/inviteusers', { users: [{ email: 'ann@example.com', roleName: 'Owner' }] });
    expect(detail).toContain("'Owner'");
    expect(detail).toContain('Administrator, Manager, Creator, Reviewer, Viewer');
  });

  it('rejects a missing users list, an empty one, and a workspace invite without a workspaceId', async () => {
    expect(await expectBadRequest('/tenant/inviteusers', {})).toMatch(/users/);
    expect(await expectBadRequest('/tenant/inviteusers', { users: [] })).toMatch(/at least one/);
    expect(await expectBadRequest('/sdworkspace/inviteusers', { users: [{ email: 'ann@example.com', roleName: 'Viewer' }] })).toMatch(/workspaceId/);
  });

  it("answers an unexpected failure with the spec's 500 and a traceId", async () => {
    const t = await createTestTenant(ctx);
    vi.spyOn(ctx.prisma, '$transaction').mockRejectedValueOnce(new Error('unexpected'));
    const body = expectProblem(await post(t, '/tenant/inviteusers', { users: [{ email: 'ann@example.com', roleName: 'Viewer' }] }), 500, 'Internal Server Error');
    expect(body.detail).toBe('Server error, retry later.');
    expect(body.detail).not.toContain('unexpected');
  });
});

describe('re-inviting', () => {
  it('keeps one user per address; a pending user takes the new role, an active one keeps everything', async () => {
    const t = await createTestTenant(ctx);
    await inviteToTenant(t, [{ email: 'ann@example.com', roleName: 'Reviewer' }]);
    await inviteToTenant(t, [{ email: 'Ann@Example.COM', roleName: 'Manager' }]);
    const users = await ctx.prisma.user.findMany({ where: { tenantId: t.tenantId } });
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: 'ann@example.com', roleName: 'Manager', status: 'Invited' });
    const pending = await invitationsOf(t.tenantId, 'ann@example.com');
    expect(pending).toHaveLength(2);

    const [message] = await mailInvitation(t.tenantId, pending[1]!.id);
    const accepted = await ctx.app.inject({ method: 'POST', url: '/invitations/accept', payload: { token: tokenOf(message!), name: 'Ann', password: PASSWORD } });
    expect(accepted.statusCode, accepted.body).toBe(204);
    const active = await ctx.prisma.user.findUniqueOrThrow({ where: { id: users[0]!.id } });

    await inviteToTenant(t, [{ email: 'ann@example.com', roleName: 'Viewer' }]);
    expect(await ctx.prisma.user.findUniqueOrThrow({ where: { id: active.id } })).toEqual(active);
    expect(await invitationsOf(t.tenantId, 'ann@example.com')).toHaveLength(2);

    // A workspace invite sets the role in that workspace only, and tells the user (no link: the account exists).
    const workspace = await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'Receipts', templateType: TemplateType.Receipts });
    const res = await post(t, '/sdworkspace/inviteusers', { workspaceId: workspace.workspaceId, users: [{ email: 'ann@example.com', roleName: 'Viewer' }] });
    expect(res.statusCode, res.body).toBe(204);
    expect(await ctx.prisma.user.findUniqueOrThrow({ where: { id: active.id } })).toEqual(active);
    expect(await ctx.prisma.workspaceMember.findMany({ where: { userId: active.id } })).toEqual([
      expect.objectContaining({ workspaceId: workspace.workspaceId, roleName: 'Viewer' }),
    ]);
    const notice = await invitationsOf(t.tenantId, 'ann@example.com');
    expect(notice).toHaveLength(3);
    const [mail] = await mailInvitation(t.tenantId, notice[2]!.id);
    expect(mail!.subject).toBe('You now have access to Receipts');
    expect(mail!.text).not.toContain('/invitations/accept');
  });

  it('updates the role of an existing workspace membership', async () => {
    const t = await createTestTenant(ctx);
    const invite = (roleName: string) => post(t, '/sdworkspace/inviteusers', { workspaceId: t.defaultWorkspaceId, users: [{ email: 'bob@example.com', roleName }] });
    expect((await invite('Viewer')).statusCode).toBe(204);
    expect((await invite('Reviewer')).statusCode).toBe(204);
    const members = (await get(t, `/sdworkspace/allusers/${t.defaultWorkspaceId}`)).json();
    expect(members).toEqual([expect.objectContaining({ email: 'bob@example.com', roleName: 'Reviewer' })]);
    // A workspace invitation grants no tenant role.
    expect((await get(t, '/tenant/allusers')).json()).toEqual([expect.objectContaining({ roleName: null })]);
  });
});

describe('the mail job', () => {
  it('sends once: a second delivery of the job sends nothing', async () => {
    const t = await createTestTenant(ctx);
    await inviteToTenant(t, [{ email: 'ann@example.com', roleName: 'Viewer' }]);
    const [invitation] = await invitationsOf(t.tenantId, 'ann@example.com');
    const first = await mailInvitation(t.tenantId, invitation!.id);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ to: 'ann@example.com', subject: expect.stringContaining(`Invitation to `) });
    expect((await ctx.prisma.invitation.findUniqueOrThrow({ where: { id: invitation!.id } })).mailSentAt).toBeInstanceOf(Date);
    expect(await mailInvitation(t.tenantId, invitation!.id)).toEqual([]);
  });

  it('writes .eml files to DATA_DIR/outbox when no SMTP_URL is set', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'docproc-outbox-'));
    try {
      await createMailer(testConfig({ DATA_DIR: dataDir })).send({ to: 'ann@example.com', subject: 'Hello', text: 'text', html: '<p>html</p>' });
      const files = await readdir(path.join(dataDir, 'outbox'));
      expect(files).toEqual([expect.stringMatching(/\.eml$/)]);
      const eml = await readFile(path.join(dataDir, 'outbox', files[0]!), 'utf8');
      expect(eml).toContain('To: ann@example.com');
      expect(eml).toContain('Subject: Hello');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is enqueued again by the sweeper when Redis never got it', async () => {
    const t = await createTestTenant(ctx);
    await inviteToTenant(t, [
      { email: 'lost@example.com', roleName: 'Viewer' },
      { email: 'recent@example.com', roleName: 'Viewer' },
    ]);
    const queue = ctx.queues[QueueName.Mail];
    const [lost] = await invitationsOf(t.tenantId, 'lost@example.com');
    const [recent] = await invitationsOf(t.tenantId, 'recent@example.com');
    expect(await queue.getJobState(jobId.mail({ tenantId: t.tenantId, invitationId: lost!.id, jobKey: lost!.jobKey }))).toBe('waiting');
    await queue.obliterate({ force: true });
    await ctx.prisma.invitation.update({ where: { id: lost!.id }, data: { createdAt: new Date(Date.now() - 2 * 60_000) } });

    const report = await sweep(pipelineDeps(ctx), { tenantId: t.tenantId });
    expect(report.invitations).toEqual([lost!.id]);
    expect(await queue.getJobState(jobId.mail({ tenantId: t.tenantId, invitationId: lost!.id, jobKey: lost!.jobKey }))).toBe('waiting');
    expect(await queue.getJobState(jobId.mail({ tenantId: t.tenantId, invitationId: recent!.id, jobKey: recent!.jobKey }))).toBe('unknown');
    // A job that exists is not added twice.
    expect((await sweep(pipelineDeps(ctx), { tenantId: t.tenantId })).invitations).toEqual([]);
  });
});

describe('accepting an invitation', () => {
  async function invitedToken(t: TestTenant, email: string) {
    await inviteToTenant(t, [{ email, roleName: 'Reviewer' }]);
    const invitation = (await invitationsOf(t.tenantId, email)).at(-1)!;
    const [message] = await mailInvitation(t.tenantId, invitation.id);
    return { token: tokenOf(message!), invitationId: invitation.id };
  }

  const accept = (payload: object) => ctx.app.inject({ method: 'POST', url: '/invitations/accept', payload });

  it('refuses an unknown token (400), a short password (400), an expired invitation (410) and a second use (410)', async () => {
    const t = await createTestTenant(ctx);
    const { token, invitationId } = await invitedToken(t, 'ann@example.com');
    expectProblem(await accept({ token: 'unknown-token', name: 'Ann', password: PASSWORD }), 400, 'InvalidInvitation');
    expectProblem(await accept({ token, name: 'Ann', password: 'short' }), 400);

    await ctx.prisma.invitation.update({ where: { id: invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectProblem(await accept({ token, name: 'Ann', password: PASSWORD }), 410, 'InvitationExpired');
    const expiredPage = await ctx.app.inject({ method: 'GET', url: `/invitations/accept?token=${token}` });
    expect(expiredPage.statusCode).toBe(410);
    expect(expiredPage.headers['content-type']).toMatch(/^text\/html/);
    expect(expiredPage.body).toContain('expired');

    await ctx.prisma.invitation.update({ where: { id: invitationId }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    expect((await accept({ token, name: 'Ann', password: PASSWORD })).statusCode).toBe(204);
    expectProblem(await accept({ token, name: 'Mallory', password: 'another password' }), 410, 'InvitationUsed');
    expect(await ctx.prisma.user.findFirstOrThrow({ where: { tenantId: t.tenantId } })).toMatchObject({ name: 'Ann' });
  });

  it('explains an unusable link on a page to browsers, and in a problem body to clients that prefer JSON', async () => {
    const t = await createTestTenant(ctx);
    const { token, invitationId } = await invitedToken(t, 'ann@example.com');
    const page = (query: string, accept?: string) =>
      ctx.app.inject({ method: 'GET', url: `/invitations/accept?${query}`, headers: accept === undefined ? {} : { accept } });
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const wantsJson = ['application/json', 'application/problem+json', 'application/json, text/plain, */*', 'text/html;q=0.5, application/json', 'application/*'];
    const wantsPage = [undefined, browser, '*/*', 'text/html', 'application/json, text/html', 'application/json;q=0.5, text/html', 'application/json;q=0', 'application/json;q=x, text/html'];

    for (const accept of wantsJson) {
      const res = await page('token=unknown-token', accept);
      expectProblem(res, 400, 'InvalidInvitation');
      expect(res.headers['cache-control'], accept).toBe('no-store');
    }
    for (const accept of wantsPage) {
      const res = await page('token=unknown-token', accept);
      expect(res.statusCode, accept).toBe(400);
      expect(res.headers['content-type'], accept).toMatch(/^text\/html/);
      expect(res.body).toContain('<!doctype html>');
    }
    // A usable link is the form whatever the client prefers: it is a page or nothing.
    const form = await page(`token=${token}`, 'application/json');
    expect(form.statusCode).toBe(200);
    expect(form.headers['content-type']).toMatch(/^text\/html/);

    await ctx.prisma.invitation.update({ where: { id: invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectProblem(await page(`token=${token}`, 'application/json'), 410, 'InvitationExpired');
    expect((await page(`token=${token}`, browser)).headers['content-type']).toMatch(/^text\/html/);
    // The form's own post, sent by a client that prefers JSON, is refused the same way.
    const posted = await ctx.app.inject({
      method: 'POST',
      url: '/invitations/accept',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: new URLSearchParams({ token, name: 'Ann', password: PASSWORD }).toString(),
    });
    expectProblem(posted, 410, 'InvitationExpired');
  });

  it('does not let an older link of an accepted user reset the password', async () => {
    const t = await createTestTenant(ctx);
    const older = await invitedToken(t, 'ann@example.com');
    const newer = await invitedToken(t, 'ann@example.com');
    expect((await accept({ token: newer.token, name: 'Ann', password: PASSWORD })).statusCode).toBe(204);
    expectProblem(await accept({ token: older.token, name: 'Ann', password: 'a new password' }), 410, 'InvitationUsed');
  });
});

describe('invitation email over SMTP, end to end', () => {
  let smtp: TestSmtp;
  let mailCtx: TestContext;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    mailCtx = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'http://docproc.test' });
  });
  afterAll(async () => {
    await mailCtx.close();
    await smtp.close();
  });

  it('delivers the invitation through the mail worker; its link accepts it and the user can sign in with the password', async () => {
    const t = await createTestTenant(mailCtx);
    const invite = await mailCtx.app.inject({
      method: 'POST',
      url: `${base}/sdworkspace/inviteusers`,
      headers: t.headers,
      payload: { workspaceId: t.defaultWorkspaceId, users: [{ email: 'Carol@Example.com', roleName: 'Reviewer' }] },
    });
    expect(invite.statusCode, invite.body).toBe(204);

    const workers = await startTestWorkers(mailCtx);
    let mail;
    try {
      mail = await smtp.waitFor('carol@example.com');
    } finally {
      await workers.close();
    }
    expect(mail.raw).toMatch(/^Subject: Invitation to /m);
    const link = acceptLinkOf(mail.raw, { quotedPrintable: true });
    expect(link.origin).toBe('http://docproc.test');

    const page = await mailCtx.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('carol@example.com');
    expect(page.body).toMatch(/<form method="post" action="accept">/);

    const form = new URLSearchParams({ token: link.searchParams.get('token')!, name: 'Carol Reviewer', password: PASSWORD });
    const done = await mailCtx.app.inject({
      method: 'POST',
      url: link.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['content-type']).toMatch(/^text\/html/);
    expect(done.body).toContain('Your account is active');

    const user = await mailCtx.prisma.user.findFirstOrThrow({ where: { tenantId: t.tenantId, email: 'carol@example.com' } });
    expect(user).toMatchObject({ status: 'Active', emailConfirmed: true, name: 'Carol Reviewer', userName: 'carol@example.com', roleName: null });
    expect(await verifySecret(PASSWORD, user.passwordHash!)).toBe(true);
    expect(await verifySecret('wrong password', user.passwordHash!)).toBe(false);
    const invitation = await mailCtx.prisma.invitation.findFirstOrThrow({ where: { userId: user.id } });
    expect(invitation.mailSentAt).toBeInstanceOf(Date);
    expect(invitation.acceptedAt).toBeInstanceOf(Date);

    const members = await mailCtx.app.inject({ method: 'GET', url: `${base}/sdworkspace/allusers/${t.defaultWorkspaceId}`, headers: t.headers });
    expect(members.json()).toEqual([expect.objectContaining({ email: 'carol@example.com', roleName: 'Reviewer', status: 'Active', emailConfirmed: true, name: 'Carol Reviewer' })]);
  });
});
