import { ReviewRoles } from '../../domain/enums.js';

/**
 * What a user may do in a workspace is decided by one role: their membership's role there, else
 * their tenant role. A user invited to workspaces only has no tenant role (null), so outside those
 * workspaces they have no role at all. The review API and the reviewer checks of task creation
 * both decide through this module.
 */
export interface UserRoles {
  /** The tenant role; null for a user invited to workspaces only. */
  roleName: string | null;
  /** Workspace id -> the user's role in it. */
  workspaceRoles: ReadonlyMap<number, string>;
}

export function userRolesOf(user: { roleName: string | null; memberships: readonly { workspaceId: number; roleName: string }[] }): UserRoles {
  return { roleName: user.roleName, workspaceRoles: new Map(user.memberships.map((m) => [m.workspaceId, m.roleName])) };
}

/** The user's role in the workspace, or null when they have none there. */
export function roleInWorkspace(user: UserRoles, workspaceId: number): string | null {
  return user.workspaceRoles.get(workspaceId) ?? user.roleName;
}

export function roleMayReview(roleName: string | null): boolean {
  return roleName !== null && ReviewRoles.has(roleName);
}

export function mayReviewIn(user: UserRoles, workspaceId: number): boolean {
  return roleMayReview(roleInWorkspace(user, workspaceId));
}

/** The workspaces where the user may review, as a query needs them: every one but some, or only some. */
export type ReviewScope = { allBut: number[] } | { only: number[] };

export function reviewScope(user: UserRoles): ReviewScope {
  const memberOf = [...user.workspaceRoles.keys()];
  // Workspaces without a membership follow the tenant role; those with one, mayReviewIn.
  return roleMayReview(user.roleName)
    ? { allBut: memberOf.filter((workspaceId) => !mayReviewIn(user, workspaceId)) }
    : { only: memberOf.filter((workspaceId) => mayReviewIn(user, workspaceId)) };
}

/** Whether the user may review in any workspace at all. */
export function mayReviewSomewhere(user: UserRoles): boolean {
  const scope = reviewScope(user);
  return 'allBut' in scope || scope.only.length > 0;
}
