import path from 'node:path';
import { TaskType } from '../../domain/enums.js';
import { BadRequestError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { type ExportDeps } from './export-deps.js';
import { userDisplayName } from '../../domain/user-names.js';
import { signedFileUrl } from '../../storage/file-links.js';
import { findTaskByRef, type TaskRef } from '../tasks/tasks.service.js';
import { markHandedOver } from '../review/review.service.js';
import { loadChunks, loadExportedTask, type ExportedTask } from './document-export.repository.js';
import type { DocumentExportResponse, ExportTaskFields, SimplifiedDocumentExportResponse, SimplifiedEntity } from './document-export.schemas.js';
import type { Chunk, Entity } from '../../domain/entities.js';

type Deps = ExportDeps;

/** Spec endpoint 7: the task and every chunk with its entities as stored (detected, then reviewed). */
export async function getDocumentExport(deps: Deps, tenantId: number, ref: TaskRef): Promise<DocumentExportResponse> {
  const { fields, chunks } = await exportedDocument(deps, tenantId, ref);
  return { ...fields, chunks };
}

/** Spec endpoint 8: the same task fields, and per chunk only what an integration usually reads. */
export async function getSimplifiedDocumentExport(deps: Deps, tenantId: number, ref: TaskRef): Promise<SimplifiedDocumentExportResponse> {
  const { fields, chunks } = await exportedDocument(deps, tenantId, ref);
  return {
    ...fields,
    pages: chunks.map((chunk) => ({ entities: chunk.entities.map(simplify), averageConfidence: chunk.averageConfidence })),
  };
}

async function exportedDocument(deps: Deps, tenantId: number, ref: TaskRef) {
  const found = await findTaskByRef(deps.prisma, tenantId, ref);
  let task = await loadExportedTask(deps.prisma, tenantId, found.id);
  if (task.workspace.taskType === TaskType.Transcript) {
    throw new BadRequestError(`Task ${task.id} is a transcript task: use GetExportData/Transcript/${task.id}`, { title: 'NotADocumentTask' });
  }
  // Reading the export of a reviewed task is its hand-over: the response already shows it.
  if (await markHandedOver(deps.prisma, tenantId, task.id)) task = await loadExportedTask(deps.prisma, tenantId, task.id);
  const chunks: Chunk[] = (await loadChunks(deps.prisma, task)).map((row) => ({
    // Stored by the models and the viewer in the Entity shape; the response schema checks it on the way out.
    entities: row.entities as Entity[],
    version: String(row.version),
    retrievedOn: row.retrievedOn.toISOString(),
    lastModifiedBy: row.lastModifiedById,
    lastModifiedByExternal: row.lastModifiedByExternal,
    lastModifiedOn: toIso(row.lastModifiedOn),
    averageConfidence: row.averageConfidence,
  }));
  return { fields: taskFields(deps, task, chunks), chunks };
}

function taskFields(deps: Deps, task: ExportedTask, chunks: readonly Chunk[]): ExportTaskFields {
  const confidences = chunks.map((c) => c.averageConfidence).filter((c): c is number => c !== null);
  return {
    taskId: task.id,
    workspaceId: task.workspaceId,
    batchId: task.batchId,
    taskNumber: task.taskNumber,
    originalFileUrl: signedFileUrl(deps, task.sourceBlobKey),
    redactedFileUrl: signedFileUrl(deps, task.redactedBlobKey, task.redactedBlobKey ? path.basename(task.redactedBlobKey) : undefined),
    externalId: task.externalId,
    displayName: task.displayName,
    description: task.description,
    totalPages: task.totalPages,
    lastCheckoutByUserName: userDisplayName(task.lastCheckedOutBy),
    lastCheckedOutBy: task.lastCheckedOutById,
    lastCheckedOutUntil: toIso(task.lastCheckedOutUntil),
    lastIntegratedOn: toIso(task.lastIntegratedOn),
    lastIntegratedBy: task.lastIntegratedById,
    lastIntegratedByUserName: userDisplayName(task.lastIntegratedBy),
    // From the chunks as they are now, so reviewed chunks count with their reviewed confidence.
    averageConfidence: confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : null,
    metadata: task.metadata as Record<string, string>,
    failureReason: task.failureReason,
  };
}

/** The simplified entity: its content (the first keyValue, or the code's content) and its table and code without geometry. */
function simplify(entity: Entity): SimplifiedEntity {
  const { table, qrCode } = entity;
  return {
    confidence: entity.confidence,
    category: entity.category,
    content: entity.keyValues[0]?.content ?? qrCode?.qrCodeContent ?? entity.templateBuilderField?.keyValues[0]?.content ?? '',
    pageNumber: entity.pageNumber,
    table: table && {
      rowCount: table.rowCount,
      columnCount: table.columnCount,
      tableHeaders: table.tableHeaders.map(({ columnIndex, category, confidence }) => ({ columnIndex, category, confidence })),
      tableRows: Object.fromEntries(
        Object.entries(table.tableRows).map(([row, cells]) => [
          row,
          cells.map(({ rowIndex, columnIndex, content, confidence }) => ({ rowIndex, columnIndex, content, confidence })),
        ]),
      ),
      tableRowsTableContent: table.tableRowsTableContent,
    },
    qrCode: qrCode && {
      keyValues: qrCode.keyValues.map(({ category, confidence, content }) => ({ category, confidence, content })),
      qrCodeContent: qrCode.qrCodeContent,
    },
  };
}
