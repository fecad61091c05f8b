import type { Db } from '../../db/prisma.js';
import { UserStatus } from '../../domain/enums.js';

/** The user of that email in the organization, created Invited with `roleName` when there is none; an existing one is returned untouched. */
export function upsertUser(db: Db, tenantId: number, email: string, roleName: string) {
  return db.user.upsert({
    where: { tenantId_email: { tenantId, email } },
    create: { tenantId, email, roleName, status: UserStatus.Invited },
    update: {},
  });
}

/** Changes the role of an account that has not been accepted yet (an accepted one keeps its role). */
export function setInvitedUserRole(db: Db, tenantId: number, userId: number, roleName: string) {
  return db.user.updateMany({ where: { tenantId, id: userId, status: UserStatus.Invited }, data: { roleName } });
}

/** Membership rows have no tenantId: the service has found both the workspace and the user in the caller's organization. */
export function upsertMembership(db: Db, workspaceId: number, userId: number, roleName: string) {
  return db.workspaceMember.upsert({
    where: { workspaceId_userId: { workspaceId, userId } },
    create: { workspaceId, userId, roleName },
    update: { roleName },
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
