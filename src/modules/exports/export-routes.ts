import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import type { TaskRef } from '../tasks/tasks.service.js';
import { exportByQuery, exportPathParams, exportQuery } from './document-export.schemas.js';

const tags = ['Exports'];
const errors = problemResponses(400, 401, 404, 429, 500, 503);

export interface ExportEndpoint {
  /** Path before the task id, e.g. /sdtask/GetExportData/Transcript. */
  base: string;
  /** After the task id: '' or '/simplified'. */
  suffix: '' | '/simplified';
  operationId: string;
  summary: string;
  /** The export's response schema: every reply is validated against it by the serializer. */
  response: z.ZodType;
  load: (deps: AppDeps, tenantId: number, ref: TaskRef) => Promise<unknown>;
}

/**
 * One export in both forms (DESIGN.md section 4): `{base}/{taskid}{suffix}` with an optional
 * externalId query parameter that must name the same task, and `{base}{suffix}` with taskid
 * and/or externalId in the query.
 */
export function registerExport(app: FastifyInstance, deps: AppDeps, endpoint: ExportEndpoint): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const load = (request: Parameters<typeof callerOf>[0], ref: TaskRef) => endpoint.load(deps, callerOf(request).tenantId, ref);
  routes.get(
    `${endpoint.base}/:taskid${endpoint.suffix}`,
    {
      schema: {
        operationId: endpoint.operationId,
        tags,
        summary: endpoint.summary,
        params: exportPathParams,
        querystring: exportQuery,
        response: { 200: endpoint.response, ...errors },
      },
    },
    async (request) => load(request, { taskId: request.params.taskid, externalId: request.query.externalId }),
  );
  routes.get(
    `${endpoint.base}${endpoint.suffix}`,
    {
      schema: {
        operationId: `${endpoint.operationId}ByQuery`,
        tags,
        summary: `${endpoint.summary} (the task named by taskid and/or externalId in the query)`,
        querystring: exportByQuery,
        response: { 200: endpoint.response, ...errors },
      },
    },
    async (request) => load(request, { taskId: request.query.taskid, externalId: request.query.externalId }),
  );
}
