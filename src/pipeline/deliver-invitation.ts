import { UserStatus } from '../domain/enums.js';
import { acceptInvitationUrl, invitationMail } from '../mail/invitation-mail.js';
import type { Mailer } from '../mail/mailer.js';
import { findInvitationToMail, listUnsentInvitations, markInvitationMailed, setInvitationToken } from '../modules/users/invitations.repository.js';
import { INVITATION_TTL_MS, mintInvitationToken } from '../modules/users/invitations.service.js';
import { findWorkspace } from '../modules/workspaces/workspaces.repository.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { enqueueInvitationMail, jobId, QueueName, type MailJobPayload } from '../queues/queues.js';

/**
 * The mail job: sends the invitation once and records it in mailSentAt (a retry or a second
 * delivery of the job after that is a no-op). A failure is rethrown so BullMQ retries it.
 */
export async function deliverInvitation(deps: PipelineDeps, mailer: Mailer, job: MailJobPayload): Promise<void> {
  const invitation = await findInvitationToMail(deps.prisma, job.tenantId, job.invitationId);
  if (!invitation || invitation.mailSentAt) return;
  const { user } = invitation;
  // Disabled after the invite: no mail; the invitation expires unsent.
  if (user.status === UserStatus.Disabled) return;
  const workspace = invitation.workspaceId === null ? null : await findWorkspace(deps.prisma, job.tenantId, invitation.workspaceId);
  let accept: { url: string; expiresAt: Date } | undefined;
  if (user.status === UserStatus.Invited) {
    // The plain token exists only in this message; a retry mints another, so the last mail sent
    // is the one whose link works. Its week of validity starts now, not at the invite.
    const { token, tokenHash } = mintInvitationToken();
    const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
    await setInvitationToken(deps.prisma, job.tenantId, invitation.id, tokenHash, expiresAt);
    accept = { url: acceptInvitationUrl(deps.config, token), expiresAt };
  }
  await mailer.send(
    invitationMail({
      to: user.email,
      organizationName: user.tenant.name,
      workspaceName: workspace?.name,
      roleName: invitation.roleName,
      accept,
    }),
  );
  await markInvitationMailed(deps.prisma, job.tenantId, invitation.id, new Date());
}

/** An invitation this young may still have its job on the way. */
const REDELIVERY_GRACE_MS = 60_000;
const BATCH = 500;

/**
 * Enqueues the mail of every unsent, unexpired invitation whose job Redis does not have (Redis
 * was down at invite time, or lost its data). A job that exists in any state is left alone; one
 * that failed every attempt stays failed (a new invite sends a new invitation).
 */
export async function redeliverUnsentInvitations(deps: PipelineDeps, now: Date, tenantId?: number): Promise<number[]> {
  const redelivered: number[] = [];
  const queue = deps.queues[QueueName.Mail];
  let afterId = 0;
  for (;;) {
    const unsent = await listUnsentInvitations(deps.prisma, {
      tenantId,
      afterId,
      createdBefore: new Date(now.getTime() - REDELIVERY_GRACE_MS),
      validAt: now,
      take: BATCH,
    });
    if (unsent.length === 0) return redelivered;
    afterId = unsent[unsent.length - 1]!.id;
    for (const { id, tenantId: owner, jobKey } of unsent) {
      const payload = { tenantId: owner, invitationId: id, jobKey };
      if ((await queue.getJobState(jobId.mail(payload))) !== 'unknown') continue;
      if (await enqueueInvitationMail(deps.queues, payload)) redelivered.push(id);
    }
  }
}
