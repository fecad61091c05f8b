import type { Db } from '../../db/prisma.js';
import { TaskStatus } from '../../domain/enums.js';
import { expandEntities } from '../../domain/stored-entities.js';
import { livePartsOf } from '../tasks/task-results.repository.js';

const userName = { select: { name: true, userName: true, email: true } } as const;

/** The task with what its export shows besides the chunks: its workspace kind and the people named. */
export function loadExportedTask(db: Db, tenantId: number, taskId: number) {
  return db.task.findFirstOrThrow({
    where: { id: taskId, tenantId },
    include: { workspace: { select: { taskType: true } }, lastCheckedOutBy: userName, lastIntegratedBy: userName },
  });
}
export type ExportedTask = Awaited<ReturnType<typeof loadExportedTask>>;

/**
 * Statuses in which a task has a published result: the detect stage writes a run's chunks in
 * batches while the task is Recognizing and publishes them by moving it to ToReview.
 */
const WITH_RESULT: readonly number[] = [TaskStatus.ToReview, TaskStatus.InReview, TaskStatus.ExportCompleted, TaskStatus.Processed];

/**
 * The task's chunks in order; a split task's are its parts' chunks, part after part (parts of an
 * earlier run were marked Deleted by the reprocess). Only published results, and of each task
 * only the chunks of its current run (restartCount). Entities in the export's shape, whatever form
 * they were stored in (domain/stored-entities.ts).
 */
export async function loadChunks(db: Db, task: ExportedTask) {
  const parts = await db.task.findMany({
    where: livePartsOf(task.tenantId, task.id),
    orderBy: { partNumber: 'asc' },
    select: { id: true, restartCount: true, taskStatus: true },
  });
  const shown = [task, ...parts].filter((t) => WITH_RESULT.includes(t.taskStatus));
  if (shown.length === 0) return [];
  const taskIds = shown.map((t) => t.id);
  const chunks = await db.documentChunk.findMany({
    where: { OR: shown.map((t) => ({ taskId: t.id, restartCount: t.restartCount })), task: { tenantId: task.tenantId } },
    orderBy: { chunkNumber: 'asc' },
  });
  return chunks
    .sort((a, b) => taskIds.indexOf(a.taskId) - taskIds.indexOf(b.taskId))
    .map((row) => ({ ...row, entities: expandEntities(row.entities) }));
}
