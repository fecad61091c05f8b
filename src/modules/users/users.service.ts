import { inTransaction, type Db, type PrismaClient } from '../../db/prisma.js';
import { Roles, UserStatus, type RoleName } from '../../domain/enums.js';
import { AppError, NotFoundError, withInternalError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { findWorkspace } from '../workspaces/workspaces.repository.js';
import { insertInvitation } from './invitations.repository.js';
import { INVITATION_TTL_MS, mintInvitationToken } from './invitations.service.js';
import { listMembers, listUsers, lockOrCreateUser, setTenantRole, upsertMembership } from './users.repository.js';
import type { ExternalUser, UserView } from './users.schemas.js';

/** The spec's 500 for both invite endpoints. */
export const INVITE_FAILED = 'Server error, retry later.';

export interface InviteRequest {
  users: ExternalUser[];
  /** Set for a workspace invitation; absent for the tenant. */
  workspaceId?: number;
}

/**
 * Where an invite hands each invitation's mail to be sent: the pipeline's mail queue, given by the
 * app's wiring (the service knows no queue). Best effort: a failed hand-over is logged, and the
 * sweeper enqueues the mail of any invitation whose job never arrived.
 */
export interface InvitationMails {
  /** `jobKey`: the invitation row's, so its mail job is told apart from an old one of the same id. */
  enqueue(job: { tenantId: number; invitationId: number; jobKey?: string | null }, log?: (err: unknown) => void): Promise<unknown>;
}

/**
 * Invites every user of the request in one transaction, then enqueues one mail per invitation.
 * What a re-invite changes (nothing else is touched; name, password and status never are):
 * - a new address becomes a user, status Invited; a tenant invite gives them the role as their
 *   tenant role, a workspace invite gives them no tenant role (that workspace only);
 * - tenant invite: a user who has not accepted yet, or who has no tenant role (invited to
 *   workspaces only), takes the role and gets an invitation (a notice once Active); a user with a
 *   tenant role who is Active, and any Disabled user, is left alone and gets nothing;
 * - workspace invite: the membership is added, or its role set (an explicit request for that
 *   workspace, so not a silent change), the tenant role untouched; every user but a Disabled one
 *   gets an invitation.
 * Concurrent invitations of one address end as if they had come one after another.
 */
export async function inviteUsers(
  deps: { prisma: PrismaClient; invitationMails: InvitationMails },
  tenantId: number,
  request: InviteRequest,
  log?: (err: unknown) => void,
): Promise<void> {
  const invitations = await withInternalError(
    () => recordInvitations(deps.prisma, tenantId, request),
    (cause) => new AppError(500, INVITE_FAILED, { title: 'Internal Server Error', cause }),
  );
  // After commit, best effort and in parallel (each waits at most a moment for Redis): the
  // invitations are in Postgres, and the sweeper enqueues any whose mail job never arrived.
  await Promise.all(invitations.map(({ id, jobKey }) => deps.invitationMails.enqueue({ tenantId, invitationId: id, jobKey }, log)));
}

function byEmail(a: { email: string }, b: { email: string }): number {
  return a.email < b.email ? -1 : a.email > b.email ? 1 : 0;
}

type RecordedInvitation = { id: number; jobKey: string | null };

async function recordInvitations(prisma: PrismaClient, tenantId: number, request: InviteRequest): Promise<RecordedInvitation[]> {
  const { workspaceId } = request;
  if (workspaceId !== undefined && !(await findWorkspace(prisma, tenantId, workspaceId))) {
    throw new NotFoundError(`Workspace ${workspaceId} was not found`);
  }
  // Addresses are kept in lower case: the request's uniqueness, the (tenantId, email) key and sign-in all ignore case.
  // In address order, every request locks the users it invites in the same order: no deadlock between two of them.
  const invitees = request.users.map((u) => ({ ...u, email: u.email.toLowerCase() })).sort(byEmail);
  return inTransaction(prisma, async (tx) => {
    const recorded: RecordedInvitation[] = [];
    for (const invitee of invitees) {
      const invitation = await inviteOne(tx, tenantId, invitee, workspaceId);
      if (invitation !== undefined) recorded.push(invitation);
    }
    return recorded;
  });
}

async function inviteOne(tx: Db, tenantId: number, invitee: ExternalUser, workspaceId: number | undefined): Promise<RecordedInvitation | undefined> {
  // A workspace invitation grants that workspace only: a user it creates has no tenant role.
  const user = await lockOrCreateUser(tx, tenantId, invitee.email, workspaceId === undefined ? invitee.roleName : null);
  if (workspaceId === undefined) {
    const takesTenantRole = user.status === UserStatus.Invited || (user.status === UserStatus.Active && user.roleName === null);
    if (!takesTenantRole) return undefined;
    if (user.roleName !== invitee.roleName) await setTenantRole(tx, tenantId, user.id, invitee.roleName);
  } else {
    await upsertMembership(tx, tenantId, workspaceId, user.id, invitee.roleName);
    if (user.status === UserStatus.Disabled) return undefined;
  }
  // Nobody holds this token: the mail job mints the one the invitee receives (it cannot read a
  // hash back, and a plain token must not wait in Redis), and restarts the validity then.
  return insertInvitation(tx, {
    tenantId,
    userId: user.id,
    workspaceId: workspaceId ?? null,
    roleName: invitee.roleName,
    tokenHash: mintInvitationToken().tokenHash,
    expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
  });
}

export function availableRoles(): { name: RoleName }[] {
  return Roles.map((name) => ({ name }));
}

type UserRow = Awaited<ReturnType<typeof listUsers>>[number];

function toUserView(user: UserRow, roleName = user.roleName): UserView {
  return {
    id: user.id,
    roleName,
    name: user.name,
    userName: user.userName,
    email: user.email,
    createdAt: toIso(user.createdAt),
    emailConfirmed: user.emailConfirmed,
    status: user.status as UserStatus,
  };
}

export async function tenantUsers(db: Db, tenantId: number): Promise<UserView[]> {
  return (await listUsers(db, tenantId)).map((user) => toUserView(user));
}

/** The workspace's members, each with their role in it; 404 for a workspace of another organization. */
export async function workspaceUsers(db: Db, tenantId: number, workspaceId: number): Promise<UserView[]> {
  if (!(await findWorkspace(db, tenantId, workspaceId))) throw new NotFoundError(`Workspace ${workspaceId} was not found`);
  return (await listMembers(db, tenantId, workspaceId)).map((member) => toUserView(member.user, member.roleName));
}
