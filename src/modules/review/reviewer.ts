import type { AppDeps } from '../../app-deps.js';
import { UserStatus } from '../../domain/enums.js';
import { ForbiddenError, UnauthorizedError } from '../../http/problem.js';
import { bearerToken } from '../../http/caller.js';
import { InvalidTokenError } from '../auth/tokens.js';
import { verifyUserToken } from '../auth/user-tokens.js';
import { userDisplayName } from '../../domain/user-names.js';
import { mayReviewSomewhere, userRolesOf, type UserRoles } from '../users/workspace-roles.js';
import { findUserWithMemberships } from './review.repository.js';

/** The logged-in user behind a reviewer API request; what they may review where follows their roles (users/workspace-roles.ts). */
export interface Reviewer extends UserRoles {
  userId: number;
  tenantId: number;
  /** Lower-case, as task assignments store it. */
  email: string;
  displayName: string;
}

/**
 * The reviewer of a Bearer user token. The user is read on every request, so disabling a user or
 * taking away their review role stops their tokens at once.
 */
export async function authenticateReviewer(deps: Pick<AppDeps, 'prisma' | 'keys' | 'config'>, authorization: string | undefined): Promise<Reviewer> {
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError('A Bearer user token (POST /api/v1.0/review/login) is required in the Authorization header');
  const invalid = (detail: string) => new UnauthorizedError(detail, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
  let claims;
  try {
    claims = await verifyUserToken(deps.keys, token, deps.config.JWT_ISSUER);
  } catch (err) {
    if (err instanceof InvalidTokenError) throw invalid(err.message);
    throw err;
  }
  const user = await findUserWithMemberships(deps.prisma, claims.tenantId, claims.userId);
  if (user?.status === UserStatus.Disabled) throw new ForbiddenError('Your account is disabled', { title: 'UserDisabled' });
  if (user?.status !== UserStatus.Active) throw invalid('The user of this token is no longer active');
  const reviewer: Reviewer = {
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email.toLowerCase(),
    displayName: userDisplayName(user)!,
    ...userRolesOf(user),
  };
  if (!mayReviewSomewhere(reviewer)) {
    throw new ForbiddenError('None of your roles has task review permission', { title: 'ReviewNotPermitted' });
  }
  return reviewer;
}
