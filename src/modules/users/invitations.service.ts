import { createHash } from 'node:crypto';
import { inTransaction, type PrismaClient } from '../../db/prisma.js';
import { UserStatus } from '../../domain/enums.js';
import { AppError, BadRequestError } from '../../http/problem.js';
import { hashSecret, randomToken } from '../auth/secret-hash.js';
import { findInvitationByTokenHash, markInvitationAccepted } from './invitations.repository.js';
import { activateInvitedUser } from './users.repository.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Tokens are long random strings, so a fast hash is enough to keep the stored value useless to a
 * reader of the database, and it can be looked up by equality (tokenHash is unique).
 */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh token: the plain one for the link, its hash for the row. */
export function mintInvitationToken(): { token: string; tokenHash: string } {
  const token = randomToken();
  return { token, tokenHash: hashInvitationToken(token) };
}

const alreadyUsed = () => new AppError(410, 'This invitation has already been used; sign in with your email address and password.', { title: 'InvitationUsed' });

/** The invitation behind a link, while it can still be accepted: 400 for an unknown token, 410 once used or expired. */
export async function openInvitation(db: PrismaClient, token: string, now = new Date()) {
  const invitation = await findInvitationByTokenHash(db, hashInvitationToken(token));
  if (!invitation) throw new BadRequestError('This invitation link is not valid.', { title: 'InvalidInvitation' });
  // Only a pending account is set up from a link: an older link must never reset an active account's password.
  if (invitation.acceptedAt || invitation.user.status !== UserStatus.Invited) throw alreadyUsed();
  if (invitation.expiresAt <= now) throw new AppError(410, 'This invitation has expired; ask for a new one.', { title: 'InvitationExpired' });
  return invitation;
}

export interface AcceptInvitation {
  token: string;
  name: string;
  password: string;
}

/** The invitee chooses a name and password: the account becomes Active and can sign in with email + password. */
export async function acceptInvitation(db: PrismaClient, input: AcceptInvitation): Promise<{ email: string }> {
  const invitation = await openInvitation(db, input.token);
  const { user } = invitation;
  const passwordHash = await hashSecret(input.password);
  await inTransaction(db, async (tx) => {
    const activated = await activateInvitedUser(tx, invitation.tenantId, user.id, { name: input.name, userName: user.email, passwordHash });
    if (activated.count === 0) throw alreadyUsed();
    await markInvitationAccepted(tx, invitation.tenantId, invitation.id, new Date());
  });
  return { email: user.email };
}
