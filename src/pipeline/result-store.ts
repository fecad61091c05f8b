import type { Prisma } from '../generated/prisma/client.js';
import type { Db, PrismaClient } from '../db/prisma.js';
import { SpeakerSource, TaskStatus } from '../domain/enums.js';
import { copyWorkspaceSpeakersToTask } from '../modules/speakers/speakers.repository.js';
import { clearTaskResults } from '../modules/tasks/task-results.repository.js';
import type { ModelSummary } from './engine-protocol.js';
import type { TaskJobPayload } from './queues.js';
import { StaleJobError } from './task-transitions.js';

/**
 * A document's result is stored in two steps, so that no transaction grows with its pages:
 * batches of chunks, each one statement of its own while the task is Recognizing, tagged with the
 * run (restartCount) that wrote them; then one small transaction publishes the run's result
 * (publishResult). Readers show a task's chunks of its current run only, once it has a result
 * (exports, the review API), so they never see a batch of a result not yet published, nor one of
 * an earlier or stale run.
 */

/**
 * Stores a batch of the run's chunks (`json`: the JSON text of an array of StoredChunk, passed to
 * Postgres as it is, so the worker's main thread never parses or re-serializes a result). Only
 * while the task is Recognizing in this run: the task row is share-locked for the statement, so
 * a reprocess or the publication of a duplicate job's result waits for it, and a batch arriving
 * after either stores nothing and raises StaleJobError. A retried attempt overwrites its run's
 * rows of the same numbers.
 */
export async function storeChunkBatch(db: Db, job: TaskJobPayload, json: string, count: number, retrievedOn: Date): Promise<void> {
  const stored = await db.$executeRaw`
    WITH run AS (
      SELECT id FROM "Task"
       WHERE id = ${job.taskId} AND "tenantId" = ${job.tenantId} AND "restartCount" = ${job.restartCount} AND "taskStatus" = ${TaskStatus.Recognizing}
         FOR SHARE
    )
    INSERT INTO "DocumentChunk" ("taskId", "restartCount", "chunkNumber", "pageNumber", "retrievedOn", "averageConfidence", "entities")
    SELECT run.id, ${job.restartCount}, c."chunkNumber", c."pageNumber", ${retrievedOn}, c."averageConfidence", c."entities"
      FROM run, jsonb_to_recordset(${json}::jsonb) AS c("chunkNumber" int, "pageNumber" int, "averageConfidence" float8, "entities" jsonb)
    ON CONFLICT ("taskId", "restartCount", "chunkNumber") DO UPDATE
       SET "pageNumber" = EXCLUDED."pageNumber", "retrievedOn" = EXCLUDED."retrievedOn", "averageConfidence" = EXCLUDED."averageConfidence",
           "entities" = EXCLUDED."entities", "version" = 1, "lastModifiedById" = NULL, "lastModifiedByExternal" = NULL, "lastModifiedOn" = NULL`;
  if (stored !== count) throw new StaleJobError(job);
}

/** Drops the chunks a run wrote (a run that failed shows no result). */
export async function dropRunChunks(db: Db, job: TaskJobPayload): Promise<void> {
  await db.documentChunk.deleteMany({ where: { taskId: job.taskId, restartCount: job.restartCount } });
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
  await prisma.$transaction(async (tx) => {
    const moved = await tx.task.updateMany({
      where: { id: job.taskId, restartCount: job.restartCount, taskStatus: TaskStatus.Recognizing },
      data: {
        taskStatus: TaskStatus.ToReview,
        statusChangedAt: new Date(),
        averageConfidence: result.kind === 'document' ? result.averageConfidence : mean(result.items.map((i) => i.confidence)),
        failureReason: null,
        ...(result.kind === 'document' ? { redactedBlobKey: result.redactedBlobKey ?? null } : {}),
      },
    });
    if (moved.count === 0) throw new StaleJobError(job);
    const chunkCount = result.kind === 'document' ? result.chunkCount : 0;
    await clearTaskResults(tx, job.taskId, { restartCount: job.restartCount, chunkCount });
    if (result.kind === 'transcript') {
      await tx.transcript.create({
        data: { taskId: job.taskId, totalTimeInSeconds: result.totalTimeInSeconds, items: result.items as unknown as Prisma.InputJsonValue },
      });
      const existing = new Set((await tx.taskSpeaker.findMany({ where: { taskId: job.taskId }, select: { speakerId: true } })).map((s) => s.speakerId));
      const detected = result.speakers.filter((s) => !existing.has(s.speakerId));
      if (detected.length) {
        await tx.taskSpeaker.createMany({
          data: detected.map((s) => ({ taskId: job.taskId, speakerId: s.speakerId, speakerName: s.speakerName, isDefault: s.isDefault && existing.size === 0, source: SpeakerSource.Detected })),
        });
      }
      // The workspace's known speakers are offered on every transcript of the workspace.
      await copyWorkspaceSpeakersToTask(tx, job.taskId, task.workspaceId);
    }
    await tx.$executeRaw`UPDATE "Tenant" SET "freeVolume" = GREATEST(0, "freeVolume" - ${task.totalPages}) WHERE id = ${job.tenantId} AND "freeVolume" IS NOT NULL`;
  });
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}
