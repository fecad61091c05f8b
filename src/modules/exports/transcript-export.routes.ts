import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../auth/auth.plugin.js';
import { exportByQuery, exportPathParams, exportQuery } from './document-export.schemas.js';
import { simplifiedTranscriptExportResponse, transcriptExportResponse } from './transcript-export.schemas.js';
import { getSimplifiedTranscriptExport, getTranscriptExport } from './transcript-export.service.js';

const tags = ['Exports'];
const errors = problemResponses(400, 401, 404, 429, 500, 503);

/**
 * Spec endpoints 9 and 10. The task is named by the path id, optionally with an externalId query
 * parameter that must name the same task; the paths without an id take taskid and/or externalId
 * from the query (DESIGN.md section 4).
 */
export const transcriptExportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/sdtask/GetExportData/Transcript/:taskid',
    {
      schema: {
        operationId: 'getTranscriptExport',
        tags,
        summary: 'Transcript of a task: items with words, speakers and annotations',
        params: exportPathParams,
        querystring: exportQuery,
        response: { 200: transcriptExportResponse, ...errors },
      },
    },
    async (request) =>
      getTranscriptExport(deps, callerOf(request).tenantId, { taskId: request.params.taskid, externalId: request.query.externalId }),
  );

  app.get(
    '/sdtask/GetExportData/Transcript/:taskid/simplified',
    {
      schema: {
        operationId: 'getSimplifiedTranscriptExport',
        tags,
        summary: 'Transcript of a task without word lists and annotations',
        params: exportPathParams,
        querystring: exportQuery,
        response: { 200: simplifiedTranscriptExportResponse, ...errors },
      },
    },
    async (request) =>
      getSimplifiedTranscriptExport(deps, callerOf(request).tenantId, { taskId: request.params.taskid, externalId: request.query.externalId }),
  );

  app.get(
    '/sdtask/GetExportData/Transcript',
    {
      schema: {
        operationId: 'getTranscriptExportByQuery',
        tags,
        summary: 'Transcript of the task named by taskid and/or externalId in the query',
        querystring: exportByQuery,
        response: { 200: transcriptExportResponse, ...errors },
      },
    },
    async (request) =>
      getTranscriptExport(deps, callerOf(request).tenantId, { taskId: request.query.taskid, externalId: request.query.externalId }),
  );

  app.get(
    '/sdtask/GetExportData/Transcript/simplified',
    {
      schema: {
        operationId: 'getSimplifiedTranscriptExportByQuery',
        tags,
        summary: 'Simplified transcript of the task named by taskid and/or externalId in the query',
        querystring: exportByQuery,
        response: { 200: simplifiedTranscriptExportResponse, ...errors },
      },
    },
    async (request) =>
      getSimplifiedTranscriptExport(deps, callerOf(request).tenantId, { taskId: request.query.taskid, externalId: request.query.externalId }),
  );
};
