import type { FastifySchemaValidationError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { BadRequestError } from '../../http/problem.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import {
  availableRolesResponse,
  inviteTenantUsersBody,
  inviteWorkspaceUsersBody,
  usersResponse,
  workspaceUsersParams,
} from './users.schemas.js';
import { availableRoles, inviteUsers, tenantUsers, workspaceUsers, type InvitationMails } from './users.service.js';

const tags = ['Users'];

/**
 * The spec answers every invalid invite with title `Bad Request` and a human detail (no field
 * list), so schema failures of the invite bodies are reported that way: their messages are the
 * sentences of users.schemas.ts.
 */
function inviteBadRequest(errors: FastifySchemaValidationError[]): Error {
  return new BadRequestError([...new Set(errors.map((e) => e.message))].join(' '));
}

const inviteRoutes = [
  {
    url: '/tenant/inviteusers',
    operationId: 'inviteTenantUsers',
    summary: 'Invite users to the organization',
    description:
      'Re-inviting a user who has not accepted yet sets the new role and sends a new invitation; an active user is left as is, unless invited to workspaces only: such a user takes the role as their organization role.',
    body: inviteTenantUsersBody,
  },
  {
    url: '/sdworkspace/inviteusers',
    operationId: 'inviteWorkspaceUsers',
    summary: 'Invite users to a workspace',
    description:
      'Adds each user to the workspace with the role (or sets their role in it); a user already in the organization keeps their organization role, a new one gets none: the invitation grants this workspace only.',
    body: inviteWorkspaceUsersBody,
  },
] as const;

export const usersRoutes: FastifyPluginAsyncZod<AppDeps & { invitationMails: InvitationMails }> = async (app, deps) => {
  for (const { url, body, ...doc } of inviteRoutes) {
    app.post(
      url,
      {
        schema: {
          ...doc,
          tags,
          body,
          response: { 204: z.null().describe('Invited; an email is sent to each invited user'), ...problemResponses(400, 401, 404, 429, 500, 503) },
        },
        schemaErrorFormatter: inviteBadRequest,
      },
      async (request, reply) => {
        await inviteUsers(deps, callerOf(request).tenantId, request.body, (err) => request.log.warn({ err }, 'invitation mail deferred to the sweeper'));
        return reply.code(204).send(null);
      },
    );
  }

  app.get(
    '/tenant/availableroles',
    {
      schema: {
        operationId: 'listAvailableRoles',
        tags,
        summary: 'The roleName values an invitation accepts',
        response: { 200: availableRolesResponse, ...problemResponses(401, 429, 500, 503) },
      },
    },
    async () => availableRoles(),
  );

  app.get(
    '/tenant/allusers',
    {
      schema: {
        operationId: 'listTenantUsers',
        tags,
        summary: 'Every user of the organization, invited or active',
        response: { 200: usersResponse, ...problemResponses(401, 429, 500, 503) },
      },
    },
    async (request) => tenantUsers(deps.prisma, callerOf(request).tenantId),
  );

  app.get(
    '/sdworkspace/allusers/:workspaceId',
    {
      schema: {
        operationId: 'listWorkspaceUsers',
        tags,
        summary: 'The members of a workspace, with their role in it',
        params: workspaceUsersParams,
        response: { 200: usersResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => workspaceUsers(deps.prisma, callerOf(request).tenantId, request.params.workspaceId),
  );
};
