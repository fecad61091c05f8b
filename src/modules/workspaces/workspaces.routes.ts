import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../http/caller.js';
import { problemResponses } from '../../http/schemas.js';
import type { AppDeps } from '../../app-deps.js';
import { currentWorkspaces } from './workspaces.service.js';
import { workspaceResponse } from './workspaces.schemas.js';

export const workspacesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/sdworkspace/CurrentWorkspaces',
    {
      schema: {
        operationId: 'listCurrentWorkspaces',
        tags: ['Workspaces'],
        summary: "The organization's workspaces",
        response: { 200: z.array(workspaceResponse), ...problemResponses(401, 429, 500, 503) },
      },
    },
    async (request) => currentWorkspaces(deps.prisma, callerOf(request).tenantId),
  );
};
