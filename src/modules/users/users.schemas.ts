import { z } from 'zod';
import { Roles, UserStatus } from '../../domain/enums.js';
import { MAX_ROW_ID, rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';

/**
 * Every message here is a whole sentence: the invite routes answer any invalid body with the
 * spec's 400 `Bad Request` whose detail is these messages (users.routes.ts), not with the
 * field list of a ValidationError.
 */
export const EMAIL_INVALID = 'The email address is not valid.';
const ROLE_LIST = Roles.join(', ');
export const MAX_INVITES_PER_REQUEST = 100;

const roleName = z.enum(Roles, {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `The role '${issue.input}' is not valid; use one of ${ROLE_LIST}.`
      : `Every user needs a roleName: one of ${ROLE_LIST}.`,
});

const externalUser = z
  .object(
    {
      email: z.email({ error: EMAIL_INVALID }).max(254, { error: EMAIL_INVALID }).describe('Unique in the request (case-insensitive)'),
      roleName: roleName.describe('A name returned by GET tenant/availableroles'),
    },
    { error: 'Every entry of users needs an email and a roleName.' },
  )
  .meta({ id: 'ExternalUserModel' });
export type ExternalUser = z.infer<typeof externalUser>;

const users = z
  .array(externalUser, { error: 'users must be a list of {email, roleName}.' })
  .min(1, { error: 'users must name at least one user.' })
  .max(MAX_INVITES_PER_REQUEST, { error: `At most ${MAX_INVITES_PER_REQUEST} users can be invited at once.` })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [index, user] of list.entries()) {
      const email = user.email.toLowerCase();
      if (seen.has(email)) ctx.addIssue({ code: 'custom', path: [index, 'email'], message: `The email address ${user.email} appears more than once.` });
      seen.add(email);
    }
  });

const bodyError = { error: 'The body must be a JSON object with a users list.' };
const workspaceIdError = { error: 'workspaceId must be the id of a workspace.' };

export const inviteTenantUsersBody = z.object({ users }, bodyError).meta({ id: 'InviteUsersRequest' });

export const inviteWorkspaceUsersBody = z
  .object(
    {
      users,
      workspaceId: z.int(workspaceIdError).min(1, workspaceIdError).max(MAX_ROW_ID, workspaceIdError),
    },
    bodyError,
  )
  .meta({ id: 'InviteWorkspaceUsersRequest' });

export const availableRolesResponse = z.array(z.object({ name: z.enum(Roles) }).meta({ id: 'RoleModel' }));

const userView = z
  .object({
    id: z.number().int(),
    roleName: z
      .string()
      .nullable()
      .describe('The tenant role, null for a user invited to workspaces only; on a workspace list, the role in that workspace'),
    name: z.string().nullable().describe('Set when the invitation is accepted'),
    userName: z.string().nullable(),
    email: z.string(),
    createdAt: isoDateTime,
    emailConfirmed: z.boolean(),
    status: z.enum(Object.values(UserStatus)),
  })
  .meta({ id: 'ExternalUserViewModel' });
export type UserView = z.infer<typeof userView>;

export const usersResponse = z.array(userView);

export const workspaceUsersParams = z.object({ workspaceId: rowId });
