import type { Db } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { TaskStatus } from '../../domain/enums.js';
import type { BatchPageQuery, BatchSortField } from './batches.schemas.js';

export function findBatch(db: Db, tenantId: number, batchId: number) {
  return db.batch.findFirst({ where: { tenantId, id: batchId } });
}

export function insertBatch(db: Db, data: { tenantId: number; workspaceId: number; displayName: string; description: string | null }) {
  return db.batch.create({ data });
}

const sortColumn: Record<BatchSortField, 'createdAt' | 'id' | 'displayName' | 'totalTasks'> = {
  createdOn: 'createdAt',
  batchId: 'id',
  displayName: 'displayName',
  totalTasks: 'totalTasks',
};

export async function listBatchPage(db: Db, tenantId: number, q: BatchPageQuery) {
  const where: Prisma.BatchWhereInput = {
    tenantId,
    createdAt: { gte: q.startDate, lt: q.endDate },
    ...(q.workspaceId ? { workspaceId: { in: q.workspaceId } } : {}),
  };
  const direction = q.sort.descending ? 'desc' : 'asc';
  const column = sortColumn[q.sort.field];
  const orderBy: Prisma.BatchOrderByWithRelationInput[] =
    column === 'id' ? [{ id: direction }] : [{ [column]: direction }, { id: direction }];
  const [items, total] = await Promise.all([
    db.batch.findMany({ where, orderBy, skip: (q.pageNumber - 1) * q.pageSize, take: q.pageSize }),
    db.batch.count({ where }),
  ]);
  return { items, total };
}

/**
 * Tasks in history (the spec's count: tasks handed over, Processed) per batch, counted when asked
 * so the number is always true. Parts a reprocess of their original superseded are Deleted and do
 * not count, even if they had been Processed: their results were dropped with their run, and the
 * history of the batch is what it delivers now (the original's new parts count once processed).
 */
export async function countTasksInHistory(db: Db, tenantId: number, batchIds: number[]): Promise<Map<number, number>> {
  if (batchIds.length === 0) return new Map();
  const rows = await db.task.groupBy({
    by: ['batchId'],
    // Through the batch's organization: the (batchId, taskStatus) index still answers the count alone.
    where: { batchId: { in: batchIds }, batch: { tenantId }, taskStatus: TaskStatus.Processed },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.batchId!, r._count._all]));
}

/**
 * Moves the batch's count of tasks by `change`: up for the parts of a split, down for parts a
 * reprocess of their original supersedes.
 */
export async function changeBatchTotalTasks(tx: Db, tenantId: number, batchId: number, change: number): Promise<void> {
  await tx.batch.update({ where: { id: batchId, tenantId }, data: { totalTasks: { increment: change } } });
}
