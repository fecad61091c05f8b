import type { Db } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { SpeakerSource, TaskStatus } from '../../domain/enums.js';

/**
 * The rules about a task's results and the parts of its split, each in one place: the reprocess
 * (tasks.service.ts), the publication of a run's result (pipeline/result-store.ts), the review
 * workflow and the exports all go through these.
 */

/**
 * The live parts of a split original: its parts of the current run. Parts of an earlier run were
 * marked Deleted by the reprocess that superseded them.
 */
export function livePartsOf(tenantId: number, originalId: number): Prisma.TaskWhereInput {
  return { tenantId, parentTaskId: originalId, taskStatus: { not: TaskStatus.Deleted } };
}

/**
 * Clears a task's results: its chunks, its transcript and the speakers detection found (speakers
 * given by the task or its workspace stay). `keep` spares the chunks of one run up to its chunk
 * count: the run whose result is being published.
 */
export async function clearTaskResults(db: Db, tenantId: number, taskId: number, keep?: { restartCount: number; chunkCount: number }): Promise<void> {
  const ofTask = { taskId, task: { tenantId } };
  await db.documentChunk.deleteMany({
    where: keep ? { ...ofTask, OR: [{ restartCount: { not: keep.restartCount } }, { chunkNumber: { gt: keep.chunkCount } }] } : ofTask,
  });
  await db.transcript.deleteMany({ where: ofTask });
  await db.taskSpeaker.deleteMany({ where: { ...ofTask, source: SpeakerSource.Detected } });
}
