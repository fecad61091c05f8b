import type { Prisma } from '../generated/prisma/client.js';
import { inTransaction, type Db, type PrismaClient } from '../db/prisma.js';
import { TaskStatus } from '../domain/enums.js';
import { copyWorkspaceSpeakersToTask } from '../modules/speakers/speakers.repository.js';
import { clearTaskResults } from '../modules/tasks/task-results.repository.js';
import type { ModelSummary } from './engine-protocol.js';
import type { TaskJobPayload } from '../queues/queues.js';
import { consumeFreeVolume, findTaskSpeakerIds, insertDetectedSpeakers, insertRunChunks, insertTranscript } from './result-store.repository.js';
import { moveTaskRun } from './task-pipeline.repository.js';
import { StaleJobError } from './task-transitions.js';

const RECOGNIZING = [TaskStatus.Recognizing] as const;

/**
 * A document's result is stored in two steps, so that no transaction grows with its pages:
 * batches of chunks, each one statement of its own while the task is Recognizing, tagged with the
 * run (restartCount) that wrote them; then one small transaction publishes the run's result
 * (publishResult). Readers show a task's chunks of its current run only, once it has a result
 * (exports, the review API), so they never see a batch of a result not yet published, nor one of
 * an earlier or stale run.
 */

/**
 * Stores a batch of the run's chunks (result-store.repository.ts, insertRunChunks: only while the
 * task is Recognizing in this run). A batch arriving after a reprocess or the publication of a
 * duplicate job's result stores nothing and raises StaleJobError.
 */
export async function storeChunkBatch(db: Db, job: TaskJobPayload, json: string, count: number, retrievedOn: Date): Promise<void> {
  const stored = await insertRunChunks(db, job, json, retrievedOn);
  if (stored !== count) throw new StaleJobError(job);
}

/**
 * Publishes the run's result in one small transaction: the task moves to ToReview (only if still
 * Recognizing in this run), chunks of other runs and any of this run beyond its result (left by an
 * earlier attempt) go, a transcript replaces the earlier one, and the organization's free volume
 * is consumed, once per run.
 */
export async function publishResult(
  prisma: PrismaClient,
  job: TaskJobPayload,
  task: { totalPages: number; workspaceId: number },
  result: ModelSummary,
): Promise<void> {
  await inTransaction(prisma, async (tx) => {
    const moved = await moveTaskRun(tx, job, RECOGNIZING, TaskStatus.ToReview, {
      averageConfidence: result.kind === 'document' ? result.averageConfidence : mean(result.items.map((i) => i.confidence)),
      failureReason: null,
      // Every page of the task was read (the counts written while reading lag behind).
      ...(result.kind === 'document' ? { redactedBlobKey: result.redactedBlobKey ?? null, pagesProcessed: task.totalPages } : {}),
    });
    if (!moved) throw new StaleJobError(job);
    const chunkCount = result.kind === 'document' ? result.chunkCount : 0;
    await clearTaskResults(tx, job.tenantId, job.taskId, { restartCount: job.restartCount, chunkCount });
    if (result.kind === 'transcript') {
      await insertTranscript(tx, job.taskId, { totalTimeInSeconds: result.totalTimeInSeconds, items: result.items as unknown as Prisma.InputJsonValue });
      const existing = await findTaskSpeakerIds(tx, job.tenantId, job.taskId);
      const detected = result.speakers.filter((s) => !existing.has(s.speakerId));
      if (detected.length) await insertDetectedSpeakers(tx, job.taskId, detected.map((s) => ({ ...s, isDefault: s.isDefault && existing.size === 0 })));
      // The workspace's known speakers are offered on every transcript of the workspace.
      await copyWorkspaceSpeakersToTask(tx, job.tenantId, job.taskId, task.workspaceId);
    }
    await consumeFreeVolume(tx, job.tenantId, task.totalPages);
  });
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}
