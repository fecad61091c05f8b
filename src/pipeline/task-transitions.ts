import type { Db } from '../db/prisma.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { TaskStatus } from '../domain/enums.js';
import type { TaskJobPayload } from './queues.js';

/**
 * Moves a task to `to` only if it is still in the run the job belongs to (restartCount) and in
 * one of the `from` statuses. Every pipeline step goes through here, which makes jobs idempotent:
 * a duplicate, a retry after success, or a job of a run superseded by a reprocess changes nothing.
 * Returns the updated task, or null when the job is stale.
 */
export async function transitionTask(
  db: Db,
  job: TaskJobPayload,
  from: readonly TaskStatus[],
  to: TaskStatus,
  data: Prisma.TaskUncheckedUpdateManyInput = {},
) {
  const { count } = await db.task.updateMany({
    where: { id: job.taskId, tenantId: job.tenantId, restartCount: job.restartCount, taskStatus: { in: [...from] } },
    data: { ...data, taskStatus: to, statusChangedAt: new Date() },
  });
  return count === 0 ? null : db.task.findUniqueOrThrow({ where: { id: job.taskId } });
}

/** Thrown inside a transaction to abandon it when the task moved on under the job. */
export class StaleJobError extends Error {
  constructor(job: TaskJobPayload) {
    super(`task ${job.taskId} run ${job.restartCount} moved on; job dropped`);
    this.name = 'StaleJobError';
  }
}
