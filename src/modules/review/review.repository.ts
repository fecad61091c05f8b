import { Prisma, type Db } from '../../db/prisma.js';
import { storable } from '../../db/storable.js';
import { TaskStatus, UserStatus } from '../../domain/enums.js';
import type { Entity } from '../../domain/entities.js';
import { compactEntities, expandEntities } from '../../domain/stored-entities.js';
import type { ReviewScope } from '../users/workspace-roles.js';
import { REVIEW_STATUSES, ReviewState } from './review-rules.js';
import { livePartsOf } from '../tasks/task-results.repository.js';

/**
 * Login looks a user up by email across organizations (the only query here without a tenantId):
 * the same person may belong to several, and the password decides which accounts are theirs.
 */
export function findActiveUsersByEmail(db: Db, email: string, tenantId: number | undefined) {
  return db.user.findMany({
    where: { email: { equals: email, mode: 'insensitive' }, status: UserStatus.Active, ...(tenantId === undefined ? {} : { tenantId }) },
    select: { id: true, tenantId: true, passwordHash: true, tenant: { select: { name: true } } },
    orderBy: { tenantId: 'asc' },
  });
}

export function findUserWithMemberships(db: Db, tenantId: number, userId: number) {
  return db.user.findFirst({
    where: { id: userId, tenantId },
    include: { memberships: { select: { workspaceId: true, roleName: true } } },
  });
}

const checkedOutBy = { select: { name: true, userName: true, email: true } } as const;

/** The task with its assignments: what the review rules read. One relation, so safe in a transaction. */
export function findAssignedTask(db: Db, tenantId: number, taskId: number) {
  return db.task.findFirst({ where: { id: taskId, tenantId }, include: { assignments: { orderBy: { position: 'asc' } } } });
}
export type AssignedTaskRow = NonNullable<Awaited<ReturnType<typeof findAssignedTask>>>;

/**
 * The task with its assignments, workspace kind and checkout holder. Not inside a transaction:
 * Prisma loads the relations concurrently, which one transaction connection cannot serve.
 */
export function findReviewTask(db: Db, tenantId: number, taskId: number) {
  return db.task.findFirst({
    where: { id: taskId, tenantId },
    include: {
      assignments: { orderBy: { position: 'asc' } },
      workspace: { select: { taskType: true } },
      lastCheckedOutBy: checkedOutBy,
    },
  });
}
export type ReviewTask = NonNullable<Awaited<ReturnType<typeof findReviewTask>>>;

export interface ReviewListFilter {
  tenantId: number;
  email: string;
  /** Where the user may review (users/workspace-roles.ts, reviewScope). */
  workspaces: ReviewScope;
}

/**
 * Tasks in review the user may review now, as SQL: unassigned ones, and those with a pending
 * assignment of theirs that is not waiting, in a Sequential (or unordered) list, for an earlier
 * pending one. Same rules as reviewRefusal in review-rules.ts.
 */
function reviewableWhere(filter: ReviewListFilter): Prisma.Sql {
  const scope =
    'only' in filter.workspaces
      ? filter.workspaces.only.length
        ? Prisma.sql`t."workspaceId" IN (${Prisma.join(filter.workspaces.only)})`
        : Prisma.sql`FALSE`
      : filter.workspaces.allBut.length
        ? Prisma.sql`t."workspaceId" NOT IN (${Prisma.join(filter.workspaces.allBut)})`
        : Prisma.sql`TRUE`;
  return Prisma.sql`
    t."tenantId" = ${filter.tenantId} AND t."taskStatus" IN (${Prisma.join(REVIEW_STATUSES)}) AND ${scope}
    AND (
      NOT EXISTS (SELECT 1 FROM "TaskAssignment" a WHERE a."taskId" = t.id)
      OR EXISTS (
        SELECT 1 FROM "TaskAssignment" mine
        WHERE mine."taskId" = t.id AND mine.email = ${filter.email} AND mine."reviewState" = ${ReviewState.Pending}
          AND (COALESCE(t."assignmentOrder", 1) <> 1 OR NOT EXISTS (
            SELECT 1 FROM "TaskAssignment" earlier
            WHERE earlier."taskId" = t.id AND earlier."reviewState" = ${ReviewState.Pending} AND earlier.position < mine.position))))`;
}

/** One page of the reviewable tasks, oldest first, and how many there are in all. */
export async function listReviewableTasks(db: Db, filter: ReviewListFilter, page: { pageNumber: number; pageSize: number }) {
  const where = reviewableWhere(filter);
  const [rows, counted] = await Promise.all([
    db.$queryRaw<Array<{ id: number }>>`
      SELECT t.id FROM "Task" t WHERE ${where} ORDER BY t."createdAt", t.id
      LIMIT ${page.pageSize} OFFSET ${(page.pageNumber - 1) * page.pageSize}`,
    db.$queryRaw<Array<{ n: bigint }>>`SELECT COUNT(*) AS n FROM "Task" t WHERE ${where}`,
  ]);
  const ids = rows.map((r) => r.id);
  const tasks = await db.task.findMany({
    where: { id: { in: ids }, tenantId: filter.tenantId },
    include: { workspace: { select: { taskType: true } }, lastCheckedOutBy: checkedOutBy },
  });
  tasks.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  return { tasks, total: Number(counted[0]?.n ?? 0) };
}

/** Locks the task row until the transaction ends: completions of one task (or of one original's parts) run one at a time. */
export async function lockTask(tx: Db, tenantId: number, taskId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Task" WHERE id = ${taskId} AND "tenantId" = ${tenantId} FOR UPDATE`;
}

/**
 * Takes (or extends) the checkout unless another user holds it; guarded by the status read, so
 * a task that moved on meanwhile is not taken. Returns whether it was taken.
 */
export async function takeCheckout(
  db: Db,
  task: { id: number; tenantId: number; taskStatus: number },
  userId: number,
  now: Date,
  until: Date,
): Promise<boolean> {
  const { count } = await db.task.updateMany({
    where: {
      id: task.id,
      tenantId: task.tenantId,
      taskStatus: task.taskStatus,
      OR: [{ lastCheckedOutById: userId }, { lastCheckedOutUntil: null }, { lastCheckedOutUntil: { lte: now } }],
    },
    data: {
      taskStatus: TaskStatus.InReview,
      lastCheckedOutById: userId,
      lastCheckedOutUntil: until,
      ...(task.taskStatus === TaskStatus.InReview ? {} : { statusChangedAt: now }),
    },
  });
  return count === 1;
}

export function markAssignmentReviewed(db: Db, tenantId: number, taskId: number, email: string, now: Date) {
  return db.taskAssignment.updateMany({
    where: { taskId, task: { tenantId }, email, reviewState: ReviewState.Pending },
    data: { reviewState: ReviewState.Reviewed, reviewedAt: now },
  });
}

/** Moves the organization's task (or an original's parts) while still in status `from`; returns how many moved. */
export async function moveTasks(
  db: Db,
  tenantId: number,
  which: { id: number } | { parentTaskId: number },
  from: number,
  data: Prisma.TaskUncheckedUpdateManyInput,
): Promise<number> {
  const { count } = await db.task.updateMany({ where: { tenantId, ...which, taskStatus: from }, data });
  return count;
}

/** Statuses of an original's parts of the current run (parts of an earlier run were marked Deleted by the reprocess). */
export function partStatuses(db: Db, tenantId: number, parentTaskId: number) {
  return db.task.findMany({ where: livePartsOf(tenantId, parentTaskId), select: { taskStatus: true } });
}

/**
 * The chunks of the task's current run (a run's chunks are written in batches; others are stale),
 * their entities in the export's shape whatever form they were stored in (domain/stored-entities.ts).
 */
export async function findChunks(db: Db, tenantId: number, taskId: number) {
  const task = await db.task.findUnique({ where: { id: taskId, tenantId }, select: { restartCount: true } });
  if (!task) return [];
  const rows = await db.documentChunk.findMany({ where: { taskId, task: { tenantId }, restartCount: task.restartCount }, orderBy: { chunkNumber: 'asc' } });
  return rows.map((row) => ({ ...row, entities: expandEntities(row.entities) }));
}
export type ChunkRow = Awaited<ReturnType<typeof findChunks>>[number];

/** Stores a chunk's edited entities if nobody saved it since it was read (its version); returns whether it was stored. */
export async function saveChunkEdits(
  db: Db,
  tenantId: number,
  chunk: ChunkRow,
  entities: readonly Entity[],
  userId: number,
  now: Date,
): Promise<boolean> {
  const { count } = await db.documentChunk.updateMany({
    where: { id: chunk.id, task: { tenantId }, version: chunk.version },
    data: { entities: storable(compactEntities(entities)) as Prisma.InputJsonValue, version: { increment: 1 }, lastModifiedById: userId, lastModifiedByExternal: null, lastModifiedOn: now },
  });
  return count === 1;
}

export function findTranscript(db: Db, tenantId: number, taskId: number) {
  return db.transcript.findUnique({ where: { taskId, task: { tenantId } } });
}
export type TranscriptRow = NonNullable<Awaited<ReturnType<typeof findTranscript>>>;

export function findTaskSpeakers(db: Db, tenantId: number, taskId: number) {
  return db.taskSpeaker.findMany({
    where: { taskId, task: { tenantId } },
    select: { speakerId: true, speakerName: true, speakerPrefix: true, speakerSuffix: true },
    orderBy: { id: 'asc' },
  });
}

/** Stores an edited transcript if nobody saved it since it was read (its version); returns whether it was stored. */
export async function saveTranscriptEdits(
  db: Db,
  tenantId: number,
  transcript: TranscriptRow,
  items: Prisma.InputJsonValue,
  annotations: Prisma.InputJsonValue,
): Promise<boolean> {
  const { count } = await db.transcript.updateMany({
    where: { taskId: transcript.taskId, task: { tenantId }, version: transcript.version },
    data: { items: storable(items), annotations: storable(annotations), version: { increment: 1 } },
  });
  return count === 1;
}

/**
 * Vendor-profile learning runs behind a savepoint of the completion's transaction (review.service.ts):
 * set it, release it when learning succeeded, roll back to it when learning failed.
 */
export async function setLearningSavepoint(tx: Db): Promise<void> {
  await tx.$executeRaw`SAVEPOINT vendor_profile_learning`;
}

export async function releaseLearningSavepoint(tx: Db): Promise<void> {
  await tx.$executeRaw`RELEASE SAVEPOINT vendor_profile_learning`;
}

export async function rollBackToLearningSavepoint(tx: Db): Promise<void> {
  await tx.$executeRaw`ROLLBACK TO SAVEPOINT vendor_profile_learning`;
}
