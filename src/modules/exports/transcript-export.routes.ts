import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { registerExport } from './export-routes.js';
import { simplifiedTranscriptExportResponse, transcriptExportResponse } from './transcript-export.schemas.js';
import { getSimplifiedTranscriptExport, getTranscriptExport } from './transcript-export.service.js';

/** Spec endpoints 9 and 10. */
export const transcriptExportRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  registerExport(app, deps, {
    base: '/sdtask/GetExportData/Transcript',
    suffix: '',
    operationId: 'getTranscriptExport',
    summary: 'Transcript of a task: items with words, speakers and annotations',
    response: transcriptExportResponse,
    load: getTranscriptExport,
  });
  registerExport(app, deps, {
    base: '/sdtask/GetExportData/Transcript',
    suffix: '/simplified',
    operationId: 'getSimplifiedTranscriptExport',
    summary: 'Transcript of a task without word lists and annotations',
    response: simplifiedTranscriptExportResponse,
    load: getSimplifiedTranscriptExport,
  });
};
