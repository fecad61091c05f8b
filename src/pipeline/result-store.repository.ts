import type { Db } from '../db/prisma.js';
import { storable } from '../db/storable.js';
import type { Prisma } from '../generated/prisma/client.js';
import { SpeakerSource, TaskStatus } from '../domain/enums.js';
import type { TaskJobPayload } from '../queues/queues.js';

/**
 * The queries that store a run's result (result-store.ts), each under the organization the job
 * names; the rows of a task's children (chunks, transcript, speakers) through their task.
 */

/**
 * Inserts a batch of the run's chunks (`json`: the JSON text of an array of StoredChunk, passed to
 * Postgres as it is, so the worker's main thread never parses or re-serializes a result). Only
 * while the task is Recognizing in this run: the task row is share-locked for the statement, so
 * a reprocess or the publication of a duplicate job's result waits for it, and a batch arriving
 * after either stores nothing. A retried attempt overwrites its run's rows of the same numbers.
 * Returns how many chunks were stored.
 */
export function insertRunChunks(db: Db, job: TaskJobPayload, json: string, retrievedOn: Date): Promise<number> {
  return db.$executeRaw`
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
}

/** Deletes the chunks the job's run wrote. */
export async function deleteRunChunks(db: Db, job: TaskJobPayload): Promise<void> {
  await db.documentChunk.deleteMany({ where: { taskId: job.taskId, restartCount: job.restartCount, task: { tenantId: job.tenantId } } });
}

/** The task's transcript. The caller has just moved the task under its organization in the same transaction. */
export async function insertTranscript(tx: Db, taskId: number, transcript: { totalTimeInSeconds: number; items: Prisma.InputJsonValue }): Promise<void> {
  await tx.transcript.create({ data: storable({ taskId, ...transcript }) });
}

/** The speaker ids the task has (given, from its workspace, or detected). */
export async function findTaskSpeakerIds(db: Db, tenantId: number, taskId: number): Promise<Set<string>> {
  const speakers = await db.taskSpeaker.findMany({ where: { taskId, task: { tenantId } }, select: { speakerId: true } });
  return new Set(speakers.map((s) => s.speakerId));
}

/** Adds the speakers detection found. The caller has just moved the task under its organization in the same transaction. */
export async function insertDetectedSpeakers(
  tx: Db,
  taskId: number,
  speakers: ReadonlyArray<{ speakerId: string; speakerName: string; isDefault: boolean }>,
): Promise<void> {
  await tx.taskSpeaker.createMany({
    data: storable(speakers.map((s) => ({ taskId, speakerId: s.speakerId, speakerName: s.speakerName, isDefault: s.isDefault, source: SpeakerSource.Detected }))),
  });
}

/** Consumes the organization's free volume (never below zero; none to consume when it has no limit). */
export async function consumeFreeVolume(tx: Db, tenantId: number, pages: number): Promise<void> {
  await tx.$executeRaw`UPDATE "Tenant" SET "freeVolume" = GREATEST(0, "freeVolume" - ${pages}) WHERE id = ${tenantId} AND "freeVolume" IS NOT NULL`;
}
