import type { AppDeps } from '../../app.js';
import { UserStatus } from '../../domain/enums.js';
import { ForbiddenError, UnauthorizedError } from '../../http/problem.js';
import { bearerToken } from '../auth/auth.plugin.js';
import { InvalidTokenError } from '../auth/tokens.js';
import { verifyUserToken } from '../auth/user-tokens.js';
import { userDisplayName } from '../exports/export-links.js';
import { findUserWithMemberships } from './review.repository.js';
import { reviewRoleAllows } from './review-rules.js';

/** The logged-in user behind a reviewer API request. */
export interface Reviewer {
  userId: number;
  tenantId: number;
  /** Lower-case, as task assignments store it. */
  email: string;
  displayName: string;
  roleName: string;
  /** Roles of workspace invitations; they override `roleName` in their workspace. */
  workspaceRoles: ReadonlyMap<number, string>;
}

export function mayReviewIn(reviewer: Reviewer, workspaceId: number): boolean {
  return reviewRoleAllows(reviewer.workspaceRoles.get(workspaceId) ?? reviewer.roleName);
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
    roleName: user.roleName,
    workspaceRoles: new Map(user.memberships.map((m) => [m.workspaceId, m.roleName])),
  };
  if (!reviewRoleAllows(reviewer.roleName) && ![...reviewer.workspaceRoles.values()].some(reviewRoleAllows)) {
    throw new ForbiddenError(`The role ${user.roleName} has no task review permission`, { title: 'ReviewNotPermitted' });
  }
  return reviewer;
}
