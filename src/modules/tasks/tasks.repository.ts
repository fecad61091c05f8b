import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/prisma.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ReviewState, TaskStatus } from '../../domain/enums.js';
import type { SortSpec } from '../../http/list-query.js';
import { livePartsOf } from './task-results.repository.js';
import type { TaskListQuery, TaskSortField } from './tasks.schemas.js';

export type TaskRow = Prisma.TaskGetPayload<object>;

export function findTaskById(db: Db, tenantId: number, taskId: number) {
  return db.task.findFirst({ where: { tenantId, id: taskId } });
}

export function findTaskByExternalId(db: Db, tenantId: number, externalId: string) {
  return db.task.findUnique({ where: { tenantId_externalId: { tenantId, externalId } } });
}

/** The task, which must exist (read again after a change to it in the same transaction). */
export function findTaskByIdOrThrow(db: Db, tenantId: number, taskId: number) {
  return db.task.findUniqueOrThrow({ where: { id: taskId, tenantId } });
}

/** The task's status alone, for the count of tasks whose processing ended (pipeline/job-observer.ts). */
export function findTaskStatusCode(db: Db, tenantId: number, taskId: number) {
  return db.task.findUnique({ where: { id: taskId, tenantId }, select: { taskStatus: true } });
}

export function setTaskExternalIntegrationStatus(db: Db, tenantId: number, taskId: number, value: string) {
  return db.task.update({ where: { id: taskId, tenantId }, data: { externalIntegrationStatus: value } });
}

/**
 * Starts a new run of the task (reprocess): back to the pre-processing queue, restartCount up,
 * what the earlier run produced on the row itself cleared. A Deleted task (a superseded part) is
 * left alone; returns whether the task restarted.
 */
export async function restartTask(tx: Db, tenantId: number, taskId: number, now: Date): Promise<boolean> {
  const { count } = await tx.task.updateMany({
    where: { id: taskId, tenantId, taskStatus: { not: TaskStatus.Deleted } },
    data: {
      restartCount: { increment: 1 },
      // The new run's jobs get ids of their own (queues.ts jobId).
      jobKey: randomUUID(),
      preProcessingStartedOn: now,
      taskStatus: TaskStatus.QueuedForPreProcessing,
      statusChangedAt: now,
      externalIntegrationStatus: 'never',
      failureReason: null,
      warning: false,
      totalPages: 0,
      pagesProcessed: null,
      processedPageRange: null,
      averageConfidence: null,
      redactedBlobKey: null,
      lastCheckedOutById: null,
      lastCheckedOutUntil: null,
    },
  });
  return count > 0;
}

/** Every assigned reviewer of the task has to review it again. */
export function resetTaskReviews(tx: Db, tenantId: number, taskId: number) {
  return tx.taskAssignment.updateMany({ where: { taskId, task: { tenantId } }, data: { reviewState: ReviewState.Pending, reviewedAt: null } });
}

/** The live parts of a split original with the batch each counts in (task-results.repository.ts, livePartsOf). */
export function findLiveParts(db: Db, tenantId: number, originalId: number) {
  return db.task.findMany({ where: livePartsOf(tenantId, originalId), select: { id: true, batchId: true } });
}

export function markTasksDeleted(tx: Db, tenantId: number, taskIds: number[], now: Date) {
  return tx.task.updateMany({ where: { id: { in: taskIds }, tenantId }, data: { taskStatus: TaskStatus.Deleted, statusChangedAt: now } });
}

/** The columns a task's status answer is made of (GetTaskStatusResponse). */
const STATUS_COLUMNS = [
  'id',
  'workspaceId',
  'batchId',
  'taskNumber',
  'externalId',
  'displayName',
  'description',
  'createdAt',
  'taskStatus',
  'integrationStatus',
  'externalIntegrationStatus',
  'totalPages',
  'pagesProcessed',
  'restartCount',
  'preProcessingStartedOn',
  'warning',
  'failureReason',
] as const satisfies ReadonlyArray<keyof TaskRow>;

export type TaskStatusRow = Pick<TaskRow, (typeof STATUS_COLUMNS)[number]>;

const statusColumnList = Prisma.raw(STATUS_COLUMNS.map((column) => `"${column}"`).join(', '));
/** The same columns for Prisma's select: lists read what a status needs, never the stored request. */
const statusSelect = Object.fromEntries(STATUS_COLUMNS.map((column) => [column, true])) as { [K in (typeof STATUS_COLUMNS)[number]]: true };

/**
 * The status columns of the task with this id and/or externalId (both must match when both are
 * given). Status polling is the API's hottest request, so this is one raw statement: Prisma hands
 * raw queries straight to the driver, while a findFirst goes through its query compiler, which
 * costs more CPU than the indexed lookup itself (bench:api measured 1,206 → 1,560 status req/s).
 */
export async function findTaskStatusRow(db: Db, tenantId: number, ref: { taskId?: number; externalId?: string }): Promise<TaskStatusRow | null> {
  const match = Prisma.join(
    [
      ref.taskId !== undefined ? Prisma.sql`"id" = ${ref.taskId}` : Prisma.empty,
      ref.externalId !== undefined ? Prisma.sql`"externalId" = ${ref.externalId}` : Prisma.empty,
    ].filter((f) => f !== Prisma.empty),
    ' AND ',
  );
  const rows = await db.$queryRaw<TaskStatusRow[]>`
    SELECT ${statusColumnList} FROM "Task" WHERE "tenantId" = ${tenantId} AND ${match} LIMIT 1`;
  return rows[0] ?? null;
}

/** Takes the next taskNumber of a workspace; the row lock serialises concurrent creates, and a
 * rolled-back transaction gives its number back, so numbers have no gaps and no duplicates. */
export async function takeTaskNumber(tx: Db, tenantId: number, workspaceId: number): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ taken: number }>>`
    UPDATE "Workspace" SET "nextTaskNumber" = "nextTaskNumber" + 1 WHERE id = ${workspaceId} AND "tenantId" = ${tenantId}
    RETURNING "nextTaskNumber" - 1 AS taken`;
  const taken = rows[0]?.taken;
  if (taken === undefined) throw new Error(`workspace ${workspaceId} vanished during task creation`);
  return taken;
}

/** What the create rules read of the organization, its workspace and the batch named. */
export interface CreateTaskContext {
  tenant: { licenceExpiresOn: Date | null; freeVolume: number | null; featureHighPriority: boolean; featureCustomFormValues: boolean };
  /** The workspace named, or the default one when none is named; null when there is none. */
  workspace: { id: number; hasPipeline: boolean; workspaceType: number; taskType: number; templateType: number } | null;
  /** The batch named, if it belongs to the organization; null when named and not found. */
  batch: { id: number; workspaceId: number } | null | undefined;
  /** Whether the organization already has a task with this externalId. */
  externalIdTaken: boolean;
}

interface CreateTaskContextRow {
  licenceExpiresOn: Date | null;
  freeVolume: number | null;
  featureHighPriority: boolean;
  featureCustomFormValues: boolean;
  workspaceId: number | null;
  hasPipeline: boolean | null;
  workspaceType: number | null;
  taskType: number | null;
  templateType: number | null;
  batchId: number | null;
  batchWorkspaceId: number | null;
  externalIdTaken: boolean;
}

/**
 * Everything a create checks before it inserts, in one round trip (one statement instead of a
 * query each for the organization, the workspace, the batch and the externalId). Null when the
 * organization does not exist. Every part is read within the organization.
 */
export async function readCreateTaskContext(
  db: Db,
  tenantId: number,
  ref: { workspaceId?: number | null; batchId?: number; externalId?: string },
): Promise<CreateTaskContext | null> {
  const workspaceMatch = ref.workspaceId == null ? Prisma.sql`"isDefault"` : Prisma.sql`id = ${ref.workspaceId}`;
  const batchMatch = ref.batchId === undefined ? Prisma.sql`false` : Prisma.sql`b.id = ${ref.batchId}`;
  const rows = await db.$queryRaw<CreateTaskContextRow[]>`
    SELECT t."licenceExpiresOn", t."freeVolume", t."featureHighPriority", t."featureCustomFormValues",
           w.id AS "workspaceId", w."hasPipeline", w."workspaceType", w."taskType", w."templateType",
           b.id AS "batchId", b."workspaceId" AS "batchWorkspaceId",
           EXISTS (SELECT FROM "Task" x WHERE x."tenantId" = t.id AND x."externalId" = ${ref.externalId ?? null}::text) AS "externalIdTaken"
      FROM "Tenant" t
      LEFT JOIN LATERAL (
        SELECT id, "hasPipeline", "workspaceType", "taskType", "templateType" FROM "Workspace"
         WHERE "tenantId" = t.id AND ${workspaceMatch} ORDER BY id LIMIT 1
      ) w ON true
      LEFT JOIN "Batch" b ON b."tenantId" = t.id AND ${batchMatch}
     WHERE t.id = ${tenantId}`;
  const row = rows[0];
  if (!row) return null;
  return {
    tenant: {
      licenceExpiresOn: row.licenceExpiresOn,
      freeVolume: row.freeVolume,
      featureHighPriority: row.featureHighPriority,
      featureCustomFormValues: row.featureCustomFormValues,
    },
    workspace:
      row.workspaceId === null
        ? null
        : { id: row.workspaceId, hasPipeline: row.hasPipeline!, workspaceType: row.workspaceType!, taskType: row.taskType!, templateType: row.templateType! },
    batch: ref.batchId === undefined ? undefined : row.batchId === null ? null : { id: row.batchId, workspaceId: row.batchWorkspaceId! },
    externalIdTaken: row.externalIdTaken,
  };
}

export interface NewTask {
  tenantId: number;
  workspaceId: number;
  batchId: number | null;
  externalId: string | null;
  displayName: string;
  description: string | null;
  taskStatus: number;
  integrationStatus: number;
  priority: number;
  request: Prisma.InputJsonObject;
  metadata: Prisma.InputJsonObject;
  assignmentOrder: number | null;
  /** Assigned reviewers' emails in list order (positions 0..n-1). */
  assignedEmails: readonly string[];
}

/**
 * Inserts a task with the next taskNumber of its workspace, its assignments and its batch's
 * count, as ONE statement: one round trip, one implicit transaction. The workspace row lock
 * that makes numbers gapless and unique is held only while Postgres runs this statement, never
 * across round trips to Node (a statement-by-statement transaction held it ~6 ms per create and
 * capped creates per workspace). Any failure (a duplicate externalId) rolls everything back,
 * the number included.
 *
 * Lock order: the workspace row, the new task, then (with a batch) the creation day's
 * "TaskDailyCount" row before the batch row. The count row is what the insert trigger updates at
 * the end of the statement; touching it first keeps the order of every other writer of both
 * rows (a reprocess moves its task's count rows, then its batch's total), so they cannot deadlock.
 */
export async function insertTask(db: Db, task: NewTask): Promise<{ id: number; taskNumber: number; jobKey: string | null }> {
  const assigned = task.assignedEmails.length
    ? Prisma.sql`,
      assigned AS (
        INSERT INTO "TaskAssignment" ("taskId", "position", "email")
        SELECT created.id, e.ord - 1, e.email FROM created, unnest(${task.assignedEmails}::text[]) WITH ORDINALITY AS e(email, ord)
      )`
    : Prisma.empty;
  const counted =
    task.batchId !== null
      ? Prisma.sql`,
      day_count AS (
        INSERT INTO "TaskDailyCount" ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus", "count")
        SELECT "tenantId", "createdAt"::date, "workspaceId", "taskStatus", "integrationStatus", 0 FROM created
        ON CONFLICT ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus") DO UPDATE SET "count" = "TaskDailyCount"."count"
        RETURNING 1
      ),
      batch_total AS (
        UPDATE "Batch" SET "totalTasks" = "totalTasks" + 1
         WHERE id = ${task.batchId} AND "tenantId" = ${task.tenantId} AND EXISTS (SELECT FROM day_count)
      )`
      : Prisma.empty;
  const rows = await db.$queryRaw<Array<{ id: number; taskNumber: number; jobKey: string | null }>>`
    WITH number AS (
      UPDATE "Workspace" SET "nextTaskNumber" = "nextTaskNumber" + 1 WHERE id = ${task.workspaceId} AND "tenantId" = ${task.tenantId}
      RETURNING "nextTaskNumber" - 1 AS taken
    ),
    created AS (
      INSERT INTO "Task" ("tenantId", "workspaceId", "batchId", "taskNumber", "externalId", "displayName", "description",
                          "createdAt", "updatedAt", "statusChangedAt", "taskStatus", "integrationStatus",
                          "priority", "request", "metadata", "assignmentOrder")
      SELECT ${task.tenantId}::int, ${task.workspaceId}::int, ${task.batchId}::int, taken, ${task.externalId}::text,
             ${task.displayName}::text, ${task.description}::text,
             -- Stored as UTC like every timestamp Prisma writes, whatever the session's time zone.
             clock.utc, clock.utc, clock.utc, ${task.taskStatus}::int, ${task.integrationStatus}::int,
             ${task.priority}::int, ${JSON.stringify(task.request)}::jsonb, ${JSON.stringify(task.metadata)}::jsonb, ${task.assignmentOrder}::int
        FROM number, (SELECT now() AT TIME ZONE 'UTC' AS utc) AS clock
      RETURNING id, "taskNumber", "jobKey", "tenantId", "workspaceId", "createdAt", "taskStatus", "integrationStatus"
    )${assigned}${counted}
    SELECT id, "taskNumber", "jobKey" FROM created`;
  const row = rows[0];
  if (!row) throw new Error(`workspace ${task.workspaceId} vanished during task creation`);
  return row;
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

/**
 * Sort by the requested property, ties broken by id so pages never repeat or skip rows. Each
 * order is one a (tenantId, column, id) index gives read forwards or backwards; a task not yet
 * pre-processed (preProcessingStartedOn null) sorts as starting after every started one, which is
 * Postgres' own order for nulls in both directions.
 */
export function taskListOrder(sort: SortSpec<TaskSortField>): Prisma.TaskOrderByWithRelationInput[] {
  const direction = sort.descending ? 'desc' : 'asc';
  const column = sortColumn[sort.field];
  const primary = { [column]: direction } as Prisma.TaskOrderByWithRelationInput;
  return column === 'id' ? [primary] : [primary, { id: direction }];
}

/** The list filters as SQL over "Task", the same rows taskListWhere selects. */
function taskListFilterSql(tenantId: number, q: TaskListQuery): Prisma.Sql {
  return Prisma.join(
    [
      Prisma.sql`"tenantId" = ${tenantId}`,
      q.startDate ? Prisma.sql`"createdAt" >= ${q.startDate}::timestamp` : Prisma.empty,
      q.endDate ? Prisma.sql`"createdAt" < ${q.endDate}::timestamp` : Prisma.empty,
      q.taskStatus ? Prisma.sql`"taskStatus" IN (${Prisma.join(q.taskStatus)})` : Prisma.empty,
      q.integrationStatus ? Prisma.sql`"integrationStatus" IN (${Prisma.join(q.integrationStatus)})` : Prisma.empty,
      q.workspaceId ? Prisma.sql`"workspaceId" IN (${Prisma.join(q.workspaceId)})` : Prisma.empty,
      q.externalIntegrationStatus ? Prisma.sql`"externalIntegrationStatus" IN (${Prisma.join(q.externalIntegrationStatus)})` : Prisma.empty,
    ].filter((f) => f !== Prisma.empty),
    ' AND ',
  );
}

/** taskListOrder as SQL (column names are from the fixed sortColumn table, never from input). */
function taskListOrderSql(sort: SortSpec<TaskSortField>): Prisma.Sql {
  const direction = sort.descending ? 'DESC' : 'ASC';
  const column = sortColumn[sort.field];
  return Prisma.raw(column === 'id' ? `"id" ${direction}` : `"${column}" ${direction}, "id" ${direction}`);
}

/**
 * The ids of one page, in order. Several statuses are read as one ordered scan per status,
 * merged (Postgres' Merge Append over the per-status indexes), each scan stopping after the
 * page's last row: one scan over all of them could not follow any index's order, and the planner
 * would walk the sort's own index instead, through every task of the other statuses.
 */
function pageIdsSql(tenantId: number, q: TaskListQuery, page: { pageNumber: number; pageSize: number }): Prisma.Sql {
  const order = taskListOrderSql(q.sort);
  const offset = (page.pageNumber - 1) * page.pageSize;
  const statuses = [...new Set(q.taskStatus ?? [])];
  if (statuses.length <= 1) {
    return Prisma.sql`SELECT id FROM "Task" WHERE ${taskListFilterSql(tenantId, q)} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${offset}`;
  }
  const column = sortColumn[q.sort.field];
  const selected = Prisma.raw(column === 'id' ? '"id"' : `"id", "${column}"`);
  const perStatus = statuses.map(
    (status) => Prisma.sql`(SELECT ${selected} FROM "Task" WHERE ${taskListFilterSql(tenantId, { ...q, taskStatus: [status] })}
                           ORDER BY ${order} LIMIT ${offset + page.pageSize})`,
  );
  return Prisma.sql`SELECT id FROM (${Prisma.join(perStatus, ' UNION ALL ')}) AS merged ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${offset}`;
}

/**
 * One page of a task list and the list's total. The page is found first as ids alone, then its
 * rows are read by id (a "deferred join"): the ids come from an index-only scan of an index that
 * holds the status, the sort and createdAt, e.g. (tenantId, taskStatus, displayName, id,
 * createdAt), and skipped rows (OFFSET) are never read from the table. Reading whole rows in sort
 * order instead let the planner walk the primary key or the sort's own index and discard every
 * row of another status: with 80k queued tasks on top, a page of ToReview tasks by -taskId read
 * 83k rows (36-86 ms); the index-only plan is the cheapest by the planner's own estimate too, so
 * it does not depend on where in the table the matching rows sit.
 */
export async function listTaskPage(db: Db, tenantId: number, q: TaskListQuery, page: { pageNumber: number; pageSize: number }) {
  const [items, total] = await Promise.all([
    db.$queryRaw<TaskStatusRow[]>`
      SELECT ${statusColumnList} FROM "Task"
       WHERE "tenantId" = ${tenantId} AND id IN (${pageIdsSql(tenantId, q, page)}) ORDER BY ${taskListOrderSql(q.sort)}`,
    countTasks(db, tenantId, q),
  ]);
  return { items, total };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function startOfUtcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
}

/**
 * The exact number of tasks a list filter matches, without counting every task: whole UTC days
 * of the window come from "TaskDailyCount" (kept by triggers), only the partial first and last
 * day are counted in "Task". A filter on the free-text externalIntegrationStatus is not in the
 * daily counts and is counted directly.
 */
export async function countTasks(db: Db, tenantId: number, q: TaskListQuery): Promise<number> {
  if (q.externalIntegrationStatus) return db.task.count({ where: taskListWhere(tenantId, q) });
  // Whole days: from the first midnight at or after startDate to the last midnight at or before endDate.
  const firstWholeDay = q.startDate ? startOfUtcDay(new Date(q.startDate.getTime() + DAY_MS - 1)) : undefined;
  const endOfWholeDays = q.endDate ? startOfUtcDay(q.endDate) : undefined;
  if (firstWholeDay && endOfWholeDays && firstWholeDay >= endOfWholeDays) {
    return db.task.count({ where: taskListWhere(tenantId, q) });
  }
  const filters = Prisma.join(
    [
      Prisma.sql`"tenantId" = ${tenantId}`,
      q.taskStatus ? Prisma.sql`"taskStatus" IN (${Prisma.join(q.taskStatus)})` : Prisma.empty,
      q.integrationStatus ? Prisma.sql`"integrationStatus" IN (${Prisma.join(q.integrationStatus)})` : Prisma.empty,
      q.workspaceId ? Prisma.sql`"workspaceId" IN (${Prisma.join(q.workspaceId)})` : Prisma.empty,
      firstWholeDay ? Prisma.sql`"day" >= ${firstWholeDay}::date` : Prisma.empty,
      endOfWholeDays ? Prisma.sql`"day" < ${endOfWholeDays}::date` : Prisma.empty,
    ].filter((f) => f !== Prisma.empty),
    ' AND ',
  );
  const [days, head, tail] = await Promise.all([
    db.$queryRaw<Array<{ n: bigint | null }>>`SELECT SUM("count")::bigint AS n FROM "TaskDailyCount" WHERE ${filters}`,
    firstWholeDay && q.startDate! < firstWholeDay ? db.task.count({ where: taskListWhere(tenantId, { ...q, endDate: firstWholeDay }) }) : 0,
    endOfWholeDays && endOfWholeDays < q.endDate! ? db.task.count({ where: taskListWhere(tenantId, { ...q, startDate: endOfWholeDays }) }) : 0,
  ]);
  return Number(days[0]?.n ?? 0) + head + tail;
}

/**
 * Every matching task, in batches, without holding them all in memory: keyset pagination on the
 * sort key and id (Prisma's cursor), so each batch is an index range scan.
 */
export async function* streamTasks(db: Db, tenantId: number, q: TaskListQuery, batchSize = 1000): AsyncGenerator<TaskStatusRow[]> {
  const where = taskListWhere(tenantId, q);
  const orderBy = taskListOrder(q.sort);
  let cursor: number | undefined;
  for (;;) {
    const batch = await db.task.findMany({
      where,
      orderBy,
      take: batchSize,
      select: statusSelect,
      ...(cursor !== undefined ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    cursor = batch[batch.length - 1]!.id;
  }
}
