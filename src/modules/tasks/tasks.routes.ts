import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { requireDateWindow, toPage } from '../../http/list-query.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import { listTaskPage, streamTasks } from './tasks.repository.js';
import {
  createTaskBody,
  createTaskResponse,
  externalIntegrationStatusBody,
  taskListQuery,
  taskPage,
  taskPageQuery,
  taskRefQuery,
  taskStatusResponse,
} from './tasks.schemas.js';
import {
  createTask,
  getTaskStatus,
  reprocessTask,
  setExternalIntegrationStatus,
  toTaskStatusResponse,
} from './tasks.service.js';

const tags = ['Tasks'];

/** The create-task route, registered at the documented path and at the spec samples' alias. */
export function createTaskRoute(operationId: string): FastifyPluginAsyncZod<AppDeps> {
  return async (app, deps) => {
    app.post(
      '/sdtask/process',
      {
        // Idempotency-Key (http/idempotency.ts): the documented path and its alias share keys.
        config: { idempotent: 'createTask' },
        schema: {
          operationId,
          tags,
          summary: 'Create a task from a file URL or an upload location',
          body: createTaskBody,
          response: { 200: createTaskResponse, ...problemResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503) },
        },
      },
      async (request) => createTask(deps, callerOf(request).tenantId, request.body, (err) => request.log.warn({ err }, 'enqueue deferred to the sweeper')),
    );
  };
}

export const tasksRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  await app.register(createTaskRoute('createTask'), deps);

  app.get(
    '/sdtask/status',
    {
      schema: {
        operationId: 'getTaskStatus',
        tags,
        summary: 'Status of one task by taskid or externalId',
        querystring: taskRefQuery,
        response: { 200: taskStatusResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => getTaskStatus(deps.prisma, callerOf(request).tenantId, request.query),
  );

  app.get(
    '/sdtask/statuslistpaginated',
    {
      schema: {
        operationId: 'listTaskStatusesPaginated',
        tags,
        summary: 'Task statuses, one page at a time',
        querystring: taskPageQuery,
        response: { 200: taskPage, ...problemResponses(400, 401, 429, 500, 503) },
      },
    },
    async (request) => {
      const q = request.query;
      requireDateWindow(q);
      const { items, total } = await listTaskPage(deps.prisma, callerOf(request).tenantId, q, q);
      return toPage(items.map(toTaskStatusResponse), total, q.pageNumber, q.pageSize);
    },
  );

  app.get(
    '/sdtask/statuslist',
    {
      // Its own, smaller per-client budget (RATE_LIMIT_HEAVY_PER_MINUTE), applied by app.ts.
      config: { rateLimitBudget: 'heavy' },
      schema: {
        operationId: 'listTaskStatuses',
        tags,
        summary: 'Every matching task status (heavy: streamed; prefer the paginated list)',
        querystring: taskListQuery,
        response: { 200: z.array(taskStatusResponse), ...problemResponses(400, 401, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      requireDateWindow(q);
      const batches = streamTasks(deps.prisma, callerOf(request).tenantId, q);
      // Streamed as one JSON array, batch by batch: memory stays flat however many tasks match.
      async function* json() {
        yield '[';
        let first = true;
        for await (const batch of batches) {
          const text = batch.map((t) => JSON.stringify(toTaskStatusResponse(t))).join(',');
          yield first ? text : `,${text}`;
          first = false;
        }
        yield ']';
      }
      // Fastify pipes streams as they are (no serializer), hence the cast past the response type.
      return reply.type('application/json; charset=utf-8').send(Readable.from(json()) as never);
    },
  );

  app.patch(
    '/sdtask/externalIntegrationStatus',
    {
      schema: {
        operationId: 'setExternalIntegrationStatus',
        tags,
        summary: "Set a task's free-text external integration status",
        querystring: taskRefQuery,
        body: externalIntegrationStatusBody,
        response: { 204: z.null().describe('Stored'), ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      await setExternalIntegrationStatus(deps.prisma, callerOf(request).tenantId, request.query, request.body.externalIntegrationStatus);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/sdtask/restartprocessing',
    {
      schema: {
        operationId: 'reprocessTask',
        tags,
        summary: 'Reprocess a task from its original request (destructive: results and edits are dropped)',
        querystring: taskRefQuery,
        response: { 204: z.null().describe('Queued again'), ...problemResponses(400, 401, 404, 409, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      await reprocessTask(deps, callerOf(request).tenantId, request.query, (err) => request.log.warn({ err }, 'enqueue deferred to the sweeper'));
      return reply.code(204).send(null);
    },
  );
};
