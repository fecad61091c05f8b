import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { documentExportResponse, simplifiedDocumentExportResponse } from './document-export.schemas.js';
import { getDocumentExport, getSimplifiedDocumentExport } from './document-export.service.js';
import { registerExport } from './export-routes.js';

/** Spec endpoints 7 and 8. */
export const documentExportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  registerExport(app, deps, {
    base: '/sdtask/GetExportData',
    suffix: '',
    operationId: 'getDocumentExport',
    summary: 'Detected and reviewed data of a document task, chunk by chunk, with geometry',
    response: documentExportResponse,
    load: getDocumentExport,
  });
  registerExport(app, deps, {
    base: '/sdtask/GetExportData',
    suffix: '/simplified',
    operationId: 'getSimplifiedDocumentExport',
    summary: 'Data of a document task, page by page: categories, contents, tables and codes without geometry',
    response: simplifiedDocumentExportResponse,
    load: getSimplifiedDocumentExport,
  });
};
