import type { Db } from '../../db/prisma.js';

export function insertInvitation(
  db: Db,
  data: { tenantId: number; userId: number; workspaceId: number | null; roleName: string; tokenHash: string; expiresAt: Date },
) {
  return db.invitation.create({ data, select: { id: true, jobKey: true } });
}

/** With what its mail says: the invitee's address and status, and the organization's name. */
export function findInvitationToMail(db: Db, tenantId: number, invitationId: number) {
  return db.invitation.findFirst({
    where: { tenantId, id: invitationId },
    include: { user: { select: { email: true, status: true, tenant: { select: { name: true } } } } },
  });
}

export function setInvitationToken(db: Db, tenantId: number, invitationId: number, tokenHash: string, expiresAt: Date) {
  return db.invitation.updateMany({ where: { tenantId, id: invitationId }, data: { tokenHash, expiresAt } });
}

export function markInvitationMailed(db: Db, tenantId: number, invitationId: number, at: Date) {
  return db.invitation.updateMany({ where: { tenantId, id: invitationId }, data: { mailSentAt: at } });
}

/** By its token, across organizations: the token alone identifies the invitation (the accept page has no other credential). */
export function findInvitationByTokenHash(db: Db, tokenHash: string) {
  return db.invitation.findUnique({
    where: { tokenHash },
    include: { user: { select: { id: true, email: true, status: true, tenant: { select: { name: true } } } } },
  });
}

export function markInvitationAccepted(db: Db, tenantId: number, invitationId: number, at: Date) {
  return db.invitation.updateMany({ where: { tenantId, id: invitationId }, data: { acceptedAt: at } });
}

/** Unsent invitations of every organization (or one), created before `createdBefore` and still valid, in id order. */
export function listUnsentInvitations(
  db: Db,
  q: { createdBefore: Date; validAt: Date; afterId: number; take: number; tenantId?: number },
) {
  return db.invitation.findMany({
    where: {
      ...(q.tenantId === undefined ? {} : { tenantId: q.tenantId }),
      id: { gt: q.afterId },
      mailSentAt: null,
      createdAt: { lt: q.createdBefore },
      expiresAt: { gt: q.validAt },
    },
    orderBy: { id: 'asc' },
    take: q.take,
    select: { id: true, tenantId: true, jobKey: true },
  });
}
