import { z } from 'zod';
import { rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';
import { chunk } from '../../domain/entities.js';

/** The document export answers (full and simplified) around the entities of domain/entities.ts. */

const int = () => z.number().int();
const nullableDateTime = () => isoDateTime.nullable();


/** The task fields both document exports start with. */
const exportTaskFields = {
  taskId: int(),
  workspaceId: int(),
  batchId: int().nullable(),
  taskNumber: int(),
  originalFileUrl: z.string().nullable().describe('Signed, time-limited link to the source file; null before it was downloaded'),
  redactedFileUrl: z
    .string()
    .nullable()
    .describe('Anonymization workspaces: signed, time-limited link to the redacted file (an addition to the spec)'),
  externalId: z.string().nullable(),
  displayName: z.string(),
  description: z.string().nullable(),
  totalPages: int(),
  lastCheckoutByUserName: z.string().nullable(),
  lastCheckedOutBy: int().nullable(),
  lastCheckedOutUntil: nullableDateTime(),
  lastIntegratedOn: nullableDateTime(),
  lastIntegratedBy: int().nullable(),
  lastIntegratedByUserName: z.string().nullable(),
  averageConfidence: z.number().nullable().describe('Mean of the chunks with a confidence'),
  metadata: z.record(z.string(), z.string()),
  failureReason: z
    .string()
    .nullable()
    .describe('Why the task reached a failure status, in words a user can act on; null otherwise (an addition to the spec, as in GET sdtask/status)'),
};
export type ExportTaskFields = z.infer<z.ZodObject<typeof exportTaskFields>>;

export const documentExportResponse = z
  .object({ ...exportTaskFields, chunks: z.array(chunk) })
  .meta({ id: 'DocumentExportResponse' });
export type DocumentExportResponse = z.infer<typeof documentExportResponse>;

export const simplifiedEntity = z
  .object({
    confidence: z.number(),
    category: z.string(),
    content: z.string(),
    pageNumber: int(),
    table: z
      .object({
        rowCount: int(),
        columnCount: int(),
        tableHeaders: z.array(z.object({ columnIndex: int(), category: z.string(), confidence: z.number() })),
        tableRows: z.record(
          z.string(),
          z.array(z.object({ rowIndex: int(), columnIndex: int(), content: z.string(), confidence: z.number() })),
        ),
        tableRowsTableContent: z.record(z.string(), z.string()),
      })
      .nullable(),
    qrCode: z
      .object({
        keyValues: z.array(z.object({ category: z.string(), confidence: z.number(), content: z.string() })),
        qrCodeContent: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'SimplifiedExportEntity' });
export type SimplifiedEntity = z.infer<typeof simplifiedEntity>;

export const simplifiedDocumentExportResponse = z
  .object({
    ...exportTaskFields,
    pages: z.array(z.object({ entities: z.array(simplifiedEntity), averageConfidence: z.number().nullable() })),
  })
  .meta({ id: 'SimplifiedDocumentExportResponse' });
export type SimplifiedDocumentExportResponse = z.infer<typeof simplifiedDocumentExportResponse>;

export const exportPathParams = z.object({ taskid: rowId });

/** With the id in the path, externalId may name the same task; without it, either one names the task. */
export const exportQuery = z.object({
  externalId: z.string().trim().min(1).max(128).optional(),
});
export const exportByQuery = exportQuery.extend({ taskid: rowId.optional() });
