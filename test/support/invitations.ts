import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { MailMessage, Mailer } from '../../src/mail/mailer.js';
import { deliverInvitation } from '../../src/pipeline/deliver-invitation.js';
import type { TestContext, TestTenant } from './context.js';
import { pipelineDeps } from './pipeline.js';
import { acceptLinkOf } from './smtp.js';

const base = '/api/v1.0/external';

export interface Invitee {
  email: string;
  roleName: string;
}

/** POST tenant/inviteusers, or sdworkspace/inviteusers when a workspace is named; expects 204. */
export async function invite(app: FastifyInstance, t: TestTenant, users: Invitee[], workspaceId?: number): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: workspaceId === undefined ? `${base}/tenant/inviteusers` : `${base}/sdworkspace/inviteusers`,
    headers: t.headers,
    payload: workspaceId === undefined ? { users } : { users, workspaceId },
  });
  expect(res.statusCode, res.body).toBe(204);
}

/** GET tenant/allusers, or sdworkspace/allusers/{id}, as {email: roleName}. */
export async function rolesListed(app: FastifyInstance, t: TestTenant, workspaceId?: number): Promise<Record<string, string | null>> {
  const url = workspaceId === undefined ? `${base}/tenant/allusers` : `${base}/sdworkspace/allusers/${workspaceId}`;
  const res = await app.inject({ method: 'GET', url, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(res.json().map((u: { email: string; roleName: string | null }) => [u.email, u.roleName]));
}

/** Runs the mail job of the user's latest invitation with a mailer that keeps the message, and returns it. */
export async function mailLatestInvitation(ctx: TestContext, tenantId: number, email: string): Promise<MailMessage> {
  const invitation = await ctx.prisma.invitation.findFirstOrThrow({ where: { tenantId, user: { email } }, orderBy: { id: 'desc' } });
  const sent: MailMessage[] = [];
  const mailer: Mailer = { send: async (message) => void sent.push(message) };
  await deliverInvitation(pipelineDeps(ctx), mailer, { tenantId, invitationId: invitation.id });
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

/** Accepts the user's latest invitation through its link, as the invitee would: the user becomes Active with that password. */
export async function acceptLatestInvitation(ctx: TestContext, tenantId: number, email: string, password: string): Promise<void> {
  const token = acceptLinkOf((await mailLatestInvitation(ctx, tenantId, email)).text).searchParams.get('token')!;
  const res = await ctx.app.inject({ method: 'POST', url: '/invitations/accept', payload: { token, name: email.split('@')[0], password } });
  expect(res.statusCode, res.body).toBe(204);
}
