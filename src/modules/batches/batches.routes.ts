import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { requireDateWindow } from '../../http/list-query.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import { batchPage, batchPageQuery, batchResponse, createBatchBody, getBatchQuery } from './batches.schemas.js';
import { createBatch, getBatch, listBatches } from './batches.service.js';

const tags = ['Batches'];

export const batchesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/sdbatch',
    {
      config: { idempotent: 'createBatch' },
      schema: {
        operationId: 'createBatch',
        tags,
        summary: 'Create a batch in a workspace (the default one when none is given)',
        body: createBatchBody,
        response: { 200: batchResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => createBatch(deps.prisma, callerOf(request).tenantId, request.body),
  );

  app.get(
    '/sdbatch',
    {
      schema: {
        operationId: 'getBatch',
        tags,
        summary: 'One batch',
        querystring: getBatchQuery,
        response: { 200: batchResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => getBatch(deps.prisma, callerOf(request).tenantId, request.query.batchId),
  );

  app.get(
    '/sdbatch/paginated',
    {
      schema: {
        operationId: 'listBatchesPaginated',
        tags,
        summary: 'Batches, one page at a time',
        querystring: batchPageQuery,
        response: { 200: batchPage, ...problemResponses(400, 401, 429, 500, 503) },
      },
    },
    async (request) => {
      requireDateWindow(request.query);
      return listBatches(deps.prisma, callerOf(request).tenantId, request.query);
    },
  );
};
