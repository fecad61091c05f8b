import type { Db } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { SortSpec } from '../../http/list-query.js';
import type { TaskListQuery, TaskSortField } from './tasks.schemas.js';

export type TaskRow = Prisma.TaskGetPayload<object>;

export function findTaskById(db: Db, tenantId: number, taskId: number) {
  return db.task.findFirst({ where: { tenantId, id: taskId } });
}

export function findTaskByExternalId(db: Db, tenantId: number, externalId: string) {
  return db.task.findUnique({ where: { tenantId_externalId: { tenantId, externalId } } });
}

/** Takes the next taskNumber of a workspace; the row lock serialises concurrent creates, and a
 * rolled-back transaction gives its number back, so numbers have no gaps and no duplicates. */
export async function takeTaskNumber(tx: Db, workspaceId: number): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ taken: number }>>`
    UPDATE "Workspace" SET "nextTaskNumber" = "nextTaskNumber" + 1 WHERE id = ${workspaceId}
    RETURNING "nextTaskNumber" - 1 AS taken`;
  const taken = rows[0]?.taken;
  if (taken === undefined) throw new Error(`workspace ${workspaceId} vanished during task creation`);
  return taken;
}

export function findUsersByEmail(db: Db, tenantId: number, emails: string[]) {
  return db.user.findMany({
    where: { tenantId, email: { in: emails, mode: 'insensitive' } },
    select: { email: true, roleName: true, status: true },
  });
}

const sortColumn: Record<TaskSortField, keyof Prisma.TaskOrderByWithRelationInput> = {
  createdOn: 'createdAt',
  taskId: 'id',
  taskNumber: 'taskNumber',
  displayName: 'displayName',
  taskStatus: 'taskStatus',
  integrationStatus: 'integrationStatus',
  preProcessingStartedOn: 'preProcessingStartedOn',
  totalPages: 'totalPages',
};

export function taskListWhere(tenantId: number, q: TaskListQuery): Prisma.TaskWhereInput {
  return {
    tenantId,
    createdAt: { gte: q.startDate, lt: q.endDate },
    ...(q.taskStatus ? { taskStatus: { in: q.taskStatus } } : {}),
    ...(q.integrationStatus ? { integrationStatus: { in: q.integrationStatus } } : {}),
    ...(q.workspaceId ? { workspaceId: { in: q.workspaceId } } : {}),
    ...(q.externalIntegrationStatus ? { externalIntegrationStatus: { in: q.externalIntegrationStatus } } : {}),
  };
}

/** Sort by the requested property, ties broken by id so pages never repeat or skip rows. */
export function taskListOrder(sort: SortSpec<TaskSortField>): Prisma.TaskOrderByWithRelationInput[] {
  const direction = sort.descending ? 'desc' : 'asc';
  const column = sortColumn[sort.field];
  const primary: Prisma.TaskOrderByWithRelationInput =
    column === 'preProcessingStartedOn'
      ? { preProcessingStartedOn: { sort: direction, nulls: 'first' } }
      : ({ [column]: direction } as Prisma.TaskOrderByWithRelationInput);
  return column === 'id' ? [primary] : [primary, { id: direction }];
}

export async function listTaskPage(db: Db, tenantId: number, q: TaskListQuery, page: { pageNumber: number; pageSize: number }) {
  const where = taskListWhere(tenantId, q);
  const [items, total] = await Promise.all([
    db.task.findMany({ where, orderBy: taskListOrder(q.sort), skip: (page.pageNumber - 1) * page.pageSize, take: page.pageSize }),
    db.task.count({ where }),
  ]);
  return { items, total };
}

/**
 * Every matching task, in batches, without holding them all in memory: keyset pagination on the
 * sort key and id (Prisma's cursor), so each batch is an index range scan.
 */
export async function* streamTasks(db: Db, tenantId: number, q: TaskListQuery, batchSize = 1000): AsyncGenerator<TaskRow[]> {
  const where = taskListWhere(tenantId, q);
  const orderBy = taskListOrder(q.sort);
  let cursor: number | undefined;
  for (;;) {
    const batch = await db.task.findMany({
      where,
      orderBy,
      take: batchSize,
      ...(cursor !== undefined ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    cursor = batch[batch.length - 1]!.id;
  }
}
