import type { Db } from '../db/prisma.js';
import { TaskStatus } from '../domain/enums.js';

/**
 * The sweep's queries (sweeper.ts). The sweep makes sure no organization's task is lost, so its
 * searches span every organization unless an operator's targeted sweep names one (`tenantId`);
 * what it changes, it changes under the organization of the row it found.
 */

/**
 * Tasks in one of `statuses` since before `changedBefore`, after `afterId` in id order. Across
 * tenants unless `tenantId` is given: the sweep serves every organization.
 */
export function findInFlightTasksAcrossTenants(
  db: Db,
  page: { statuses: readonly number[]; changedBefore: Date; afterId: number; take: number; tenantId?: number },
) {
  return db.task.findMany({
    where: {
      ...(page.tenantId === undefined ? {} : { tenantId: page.tenantId }),
      id: { gt: page.afterId },
      taskStatus: { in: [...page.statuses] },
      statusChangedAt: { lt: page.changedBefore },
    },
    orderBy: { id: 'asc' },
    take: page.take,
    select: { id: true, tenantId: true, restartCount: true, jobKey: true, taskStatus: true, priority: true, statusChangedAt: true },
  });
}

/**
 * Moves a task whose job died to a failure status with the warning mark, only if it is still in
 * the run and status the sweep saw; whether it moved.
 */
export async function recoverDeadTask(
  db: Db,
  task: { id: number; tenantId: number; restartCount: number; taskStatus: number },
  recovery: { to: TaskStatus; now: Date; failureReason: string },
): Promise<boolean> {
  const { count } = await db.task.updateMany({
    where: { id: task.id, tenantId: task.tenantId, restartCount: task.restartCount, taskStatus: task.taskStatus },
    data: {
      taskStatus: recovery.to,
      statusChangedAt: recovery.now,
      warning: true,
      externalIntegrationStatus: 'never',
      failureReason: recovery.failureReason,
    },
  });
  return count > 0;
}

/**
 * ExportCompleted since before `stuckBefore` becomes Processed with the warning mark; returns how
 * many. Across tenants unless `tenantId` is given: the sweep serves every organization.
 */
export async function settleStuckExportsAcrossTenants(db: Db, stuckBefore: Date, now: Date, tenantId?: number): Promise<number> {
  const { count } = await db.task.updateMany({
    where: { ...(tenantId === undefined ? {} : { tenantId }), taskStatus: TaskStatus.ExportCompleted, statusChangedAt: { lt: stuckBefore } },
    data: { taskStatus: TaskStatus.Processed, statusChangedAt: now, warning: true },
  });
  return count;
}

/** Incomplete uploads past their expiry, up to `take`. Across tenants: expiry is the same rule for every organization. */
export function findExpiredUploadsAcrossTenants(db: Db, now: Date, take: number) {
  return db.upload.findMany({ where: { completedAt: null, expiresAt: { lt: now } }, select: { id: true }, take });
}

/** Deletes the uploads' rows. Across tenants: the ids are those findExpiredUploadsAcrossTenants found. */
export async function deleteUploadsAcrossTenants(db: Db, uploadIds: readonly string[]): Promise<void> {
  await db.upload.deleteMany({ where: { id: { in: [...uploadIds] } } });
}
