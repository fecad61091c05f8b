import type { Db } from '../../db/prisma.js';
import { TaskStatus } from '../../domain/enums.js';

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
 * The task's chunks in order; a split task's are its parts' chunks, part after part (parts of an
 * earlier run were marked Deleted by the reprocess).
 */
export async function loadChunks(db: Db, task: ExportedTask) {
  const parts = await db.task.findMany({
    where: { tenantId: task.tenantId, parentTaskId: task.id, taskStatus: { not: TaskStatus.Deleted } },
    orderBy: { partNumber: 'asc' },
    select: { id: true },
  });
  const taskIds = [task.id, ...parts.map((p) => p.id)];
  const chunks = await db.documentChunk.findMany({ where: { taskId: { in: taskIds } }, orderBy: { chunkNumber: 'asc' } });
  return chunks.sort((a, b) => taskIds.indexOf(a.taskId) - taskIds.indexOf(b.taskId));
}
