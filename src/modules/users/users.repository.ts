import type { Db } from '../../db/prisma.js';
import { UserStatus } from '../../domain/enums.js';

export interface InvitedUser {
  id: number;
  roleName: string | null;
  status: string;
}

/**
 * The user of that email in the organization, created Invited with `roleName` (null: no tenant
 * role) when there is none; an existing one is returned untouched. Either way the row stays
 * locked until the transaction ends, so concurrent invitations of one address take turns instead
 * of racing to insert it (a unique violation) or deciding on a state another one is changing.
 */
export async function lockOrCreateUser(db: Db, tenantId: number, email: string, roleName: string | null): Promise<InvitedUser> {
  const rows = await db.$queryRaw<InvitedUser[]>`
    INSERT INTO "User" ("tenantId", email, "roleName", status) VALUES (${tenantId}, ${email}, ${roleName}, ${UserStatus.Invited})
    ON CONFLICT ("tenantId", email) DO UPDATE SET email = EXCLUDED.email
    RETURNING id, "roleName", status`;
  return rows[0]!;
}

/** Gives the user their tenant role (the service decides when: a pending account, or one without a tenant role). */
export function setTenantRole(db: Db, tenantId: number, userId: number, roleName: string) {
  return db.user.updateMany({ where: { tenantId, id: userId }, data: { roleName } });
}

/** Membership rows have no tenantId: a member is added only when both the workspace and the user are the organization's. */
export function upsertMembership(db: Db, tenantId: number, workspaceId: number, userId: number, roleName: string) {
  return db.$executeRaw`
    INSERT INTO "WorkspaceMember" ("workspaceId", "userId", "roleName")
    SELECT w.id, u.id, ${roleName} FROM "Workspace" w, "User" u
     WHERE w.id = ${workspaceId} AND w."tenantId" = ${tenantId} AND u.id = ${userId} AND u."tenantId" = ${tenantId}
    ON CONFLICT ("workspaceId", "userId") DO UPDATE SET "roleName" = EXCLUDED."roleName"`;
}

/** The users of those emails in the organization, with their membership of the workspace (if any): what their role there is made of. */
export function findUsersWithRolesIn(db: Db, tenantId: number, workspaceId: number, emails: string[]) {
  return db.user.findMany({
    where: { tenantId, email: { in: emails, mode: 'insensitive' } },
    select: { email: true, roleName: true, status: true, memberships: { where: { workspaceId }, select: { workspaceId: true, roleName: true } } },
  });
}

export function listUsers(db: Db, tenantId: number) {
  return db.user.findMany({ where: { tenantId }, orderBy: { id: 'asc' } });
}

export function listMembers(db: Db, tenantId: number, workspaceId: number) {
  return db.workspaceMember.findMany({
    where: { workspaceId, workspace: { tenantId } },
    include: { user: true },
    orderBy: { userId: 'asc' },
  });
}

/** Sets the account up from an accepted invitation; none is changed when it is no longer Invited (a concurrent accept won). */
export function activateInvitedUser(db: Db, tenantId: number, userId: number, account: { name: string; userName: string; passwordHash: string }) {
  return db.user.updateMany({
    where: { tenantId, id: userId, status: UserStatus.Invited },
    data: { ...account, status: UserStatus.Active, emailConfirmed: true },
  });
}

export function findUserByEmail(db: Db, tenantId: number, email: string) {
  return db.user.findUnique({ where: { tenantId_email: { tenantId, email } } });
}

/** An account set up directly, without an invitation (the demo seed's reviewer): created with the tenant role, or brought in line. */
export function upsertActiveUser(
  db: Db,
  tenantId: number,
  email: string,
  roleName: string,
  account: { name: string; userName: string; status: string; emailConfirmed: boolean; passwordHash: string },
) {
  return db.user.upsert({
    where: { tenantId_email: { tenantId, email } },
    create: { tenantId, email, roleName, ...account },
    update: account,
  });
}
