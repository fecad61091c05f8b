import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import { profileFieldParams, profileListQuery, profileParams, vendorProfilePage, vendorProfileResponse, workspaceParams } from './vendor-profiles.schemas.js';
import { deleteVendorProfile, deleteVendorProfileField, getVendorProfile, listVendorProfiles } from './vendor-profiles.service.js';

const tags = ['Vendor profiles'];

/**
 * Extension routes beside the spec: the vendor profiles reviewers taught an invoice or
 * receipt workspace, and forgetting one.
 */
export const vendorProfilesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/vendorprofiles/workspaces/:workspaceId',
    {
      schema: {
        operationId: 'listVendorProfiles',
        tags,
        summary: "A workspace's vendor profiles, the most recently refined first",
        description: 'What completed reviews taught the workspace about each vendor: its identity and, per field, the value, its label, its place and format, and how often reviewers confirmed or corrected it.',
        params: workspaceParams,
        querystring: profileListQuery,
        response: { 200: vendorProfilePage, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => listVendorProfiles(deps, callerOf(request).tenantId, request.params.workspaceId, request.query),
  );

  app.get(
    '/vendorprofiles/:profileId',
    {
      schema: {
        operationId: 'getVendorProfile',
        tags,
        summary: 'One vendor profile (the profileId an export names in vendorProfile)',
        params: profileParams,
        response: { 200: vendorProfileResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => getVendorProfile(deps, callerOf(request).tenantId, request.params.profileId),
  );

  app.delete(
    '/vendorprofiles/:profileId',
    {
      schema: {
        operationId: 'deleteVendorProfile',
        tags,
        summary: "Forget a vendor: its next documents are read by the general model alone until a review teaches it again",
        params: profileParams,
        response: { 204: z.null().describe('Deleted'), ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      await deleteVendorProfile(deps, callerOf(request).tenantId, request.params.profileId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/vendorprofiles/:profileId/fields/:field',
    {
      schema: {
        operationId: 'deleteVendorProfileField',
        tags,
        summary: "Forget one field of a vendor's profile (e.g. a place learned wrong): the general model reads it until a review teaches it again",
        params: profileFieldParams,
        response: { 204: z.null().describe('Deleted'), ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      await deleteVendorProfileField(deps, callerOf(request).tenantId, request.params.profileId, request.params.field);
      return reply.code(204).send(null);
    },
  );
};
