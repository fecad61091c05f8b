import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../auth/auth.plugin.js';
import {
  documentExportResponse,
  exportByQuery,
  exportPathParams,
  exportQuery,
  simplifiedDocumentExportResponse,
} from './document-export.schemas.js';
import { getDocumentExport, getSimplifiedDocumentExport } from './document-export.service.js';

const tags = ['Exports'];
const errors = problemResponses(400, 401, 404, 429, 500, 503);

/**
 * Spec endpoints 7 and 8. The task is named by the path id, optionally with an externalId query
 * parameter that must name the same task; the paths without an id take taskid and/or externalId
 * from the query (DESIGN.md section 4).
 */
export const documentExportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/sdtask/GetExportData/:taskid',
    {
      schema: {
        operationId: 'getDocumentExport',
        tags,
        summary: 'Detected and reviewed data of a document task, chunk by chunk, with geometry',
        params: exportPathParams,
        querystring: exportQuery,
        response: { 200: documentExportResponse, ...errors },
      },
    },
    async (request) => getDocumentExport(deps, callerOf(request).tenantId, { taskId: request.params.taskid, externalId: request.query.externalId }),
  );

  app.get(
    '/sdtask/GetExportData/:taskid/simplified',
    {
      schema: {
        operationId: 'getSimplifiedDocumentExport',
        tags,
        summary: 'Data of a document task, page by page: categories, contents, tables and codes without geometry',
        params: exportPathParams,
        querystring: exportQuery,
        response: { 200: simplifiedDocumentExportResponse, ...errors },
      },
    },
    async (request) =>
      getSimplifiedDocumentExport(deps, callerOf(request).tenantId, { taskId: request.params.taskid, externalId: request.query.externalId }),
  );

  app.get(
    '/sdtask/GetExportData',
    {
      schema: {
        operationId: 'getDocumentExportByQuery',
        tags,
        summary: 'Data of the document task named by taskid and/or externalId in the query',
        querystring: exportByQuery,
        response: { 200: documentExportResponse, ...errors },
      },
    },
    async (request) => getDocumentExport(deps, callerOf(request).tenantId, { taskId: request.query.taskid, externalId: request.query.externalId }),
  );

  app.get(
    '/sdtask/GetExportData/simplified',
    {
      schema: {
        operationId: 'getSimplifiedDocumentExportByQuery',
        tags,
        summary: 'Simplified data of the document task named by taskid and/or externalId in the query',
        querystring: exportByQuery,
        response: { 200: simplifiedDocumentExportResponse, ...errors },
      },
    },
    async (request) =>
      getSimplifiedDocumentExport(deps, callerOf(request).tenantId, { taskId: request.query.taskid, externalId: request.query.externalId }),
  );
};
