import type { Db } from '../../db/prisma.js';
import { toPage, type Page } from '../../http/list-query.js';
import { NotFoundError } from '../../http/problem.js';
import { resolveWorkspace } from '../workspaces/workspaces.service.js';
import { countTasksInHistory, findBatch, insertBatch, listBatchPage } from './batches.repository.js';
import type { BatchPageQuery, BatchResponse } from './batches.schemas.js';

type BatchRow = NonNullable<Awaited<ReturnType<typeof findBatch>>>;

function toBatchResponse(b: BatchRow, inHistory: number): BatchResponse {
  return {
    batchId: b.id,
    workspaceId: b.workspaceId,
    displayName: b.displayName,
    description: b.description,
    createdOn: b.createdAt.toISOString(),
    // The batch's live tasks. Stored rather than counted so lists sort by it in SQL; kept in the
    // transactions that add tasks (create, split) and that supersede them (a reprocess of a split
    // original takes its Deleted parts out).
    totalTasks: b.totalTasks,
    totalTasksInHistory: inHistory,
  };
}

export async function createBatch(
  db: Db,
  tenantId: number,
  body: { displayName: string; description?: string; workspaceId?: number },
): Promise<BatchResponse> {
  const workspace = await resolveWorkspace(db, tenantId, body.workspaceId);
  const batch = await insertBatch(db, {
    tenantId,
    workspaceId: workspace.id,
    displayName: body.displayName,
    description: body.description ?? null,
  });
  return toBatchResponse(batch, 0);
}

export async function getBatch(db: Db, tenantId: number, batchId: number): Promise<BatchResponse> {
  const batch = await findBatch(db, tenantId, batchId);
  if (!batch) throw new NotFoundError(`Batch ${batchId} was not found`);
  const history = await countTasksInHistory(db, tenantId, [batch.id]);
  return toBatchResponse(batch, history.get(batch.id) ?? 0);
}

export async function listBatches(db: Db, tenantId: number, q: BatchPageQuery): Promise<Page<BatchResponse>> {
  const { items, total } = await listBatchPage(db, tenantId, q);
  const history = await countTasksInHistory(db, tenantId, items.map((b) => b.id));
  return toPage(items.map((b) => toBatchResponse(b, history.get(b.id) ?? 0)), total, q.pageNumber, q.pageSize);
}
