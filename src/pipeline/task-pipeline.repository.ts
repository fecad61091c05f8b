import type { Db } from '../db/prisma.js';
import { storable } from '../db/storable.js';
import type { Prisma } from '../generated/prisma/client.js';
import { TaskStatus } from '../domain/enums.js';
import type { TaskJobPayload } from '../queues/queues.js';

/**
 * The queries of the pipeline's steps on a task (pre-processing, detection, the split into parts),
 * each under the organization the job names.
 */

/**
 * Moves a task to `to` only if it is still in the run the job belongs to (restartCount) and in
 * one of the `from` statuses. Every pipeline step goes through here, which makes jobs idempotent:
 * a duplicate, a retry after success, or a job of a run superseded by a reprocess changes nothing.
 * Returns whether the task moved.
 */
export async function moveTaskRun(
  db: Db,
  job: TaskJobPayload,
  from: readonly TaskStatus[],
  to: TaskStatus,
  data: Prisma.TaskUncheckedUpdateManyInput = {},
): Promise<boolean> {
  const { count } = await db.task.updateMany({
    where: { id: job.taskId, tenantId: job.tenantId, restartCount: job.restartCount, taskStatus: { in: [...from] } },
    // A failure reason may quote the document (an engine's error message).
    data: { ...storable(data), taskStatus: to, statusChangedAt: new Date() },
  });
  return count > 0;
}

/** moveTaskRun, then the task as it is now; null when the job is stale. */
export async function transitionTask(
  db: Db,
  job: TaskJobPayload,
  from: readonly TaskStatus[],
  to: TaskStatus,
  data: Prisma.TaskUncheckedUpdateManyInput = {},
) {
  if (!(await moveTaskRun(db, job, from, to, data))) return null;
  return db.task.findUniqueOrThrow({ where: { id: job.taskId, tenantId: job.tenantId } });
}

/**
 * Records how many pages the run's recognition has read, only while the task is Recognizing in
 * that run: a count arriving after the result was published (or a reprocess) changes nothing.
 */
export async function recordPagesProcessed(db: Db, job: TaskJobPayload, pages: number): Promise<void> {
  await db.task.updateMany({
    where: { id: job.taskId, tenantId: job.tenantId, restartCount: job.restartCount, taskStatus: TaskStatus.Recognizing },
    data: { pagesProcessed: pages },
  });
}

/** The workspace of a task in flight (it cannot be gone: deleting a workspace deletes its tasks). */
export function findTaskWorkspace(db: Db, tenantId: number, workspaceId: number) {
  return db.workspace.findUniqueOrThrow({ where: { id: workspaceId, tenantId } });
}

/** The original of a split with its reviewers, whom every part inherits. */
export function findSplitOriginal(db: Db, tenantId: number, taskId: number) {
  return db.task.findUniqueOrThrow({ where: { id: taskId, tenantId }, include: { assignments: true } });
}

/**
 * Creates a part of a split with the original's reviewers. The part's row carries the
 * organization (`data.tenantId`); its assignments belong to the row just created.
 */
export async function insertPartTask(
  tx: Db,
  data: Prisma.TaskUncheckedCreateInput,
  assignments: ReadonlyArray<{ position: number; email: string }>,
) {
  const part = await tx.task.create({ data });
  if (assignments.length) {
    await tx.taskAssignment.createMany({ data: assignments.map((a) => ({ taskId: part.id, position: a.position, email: a.email })) });
  }
  return part;
}

