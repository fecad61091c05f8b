import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Prisma } from '../generated/prisma/client.js';
import { SpeakerSource, TaskStatus, TemplateType } from '../domain/enums.js';
import { errorMessage } from '../engines/errors.js';
import { imageInfo } from '../engines/image.js';
import { pdfInfo } from '../engines/pdf.js';
import { sniffFile } from '../engines/file-type.js';
import { ModelRejectedInputError, type ModelResult } from '../models/model.js';
import { OCR_PAGE_LIMIT, selectPages } from './page-selection.js';
import { taskBlobKey, type PipelineDeps } from './pipeline-deps.js';
import type { StepOutcome } from './preprocess.js';
import type { TaskJobPayload } from './queues.js';
import { storedTaskRequest } from './task-request.js';
import { copyWorkspaceSpeakersToTask } from '../modules/speakers/speakers.repository.js';
import { StaleJobError, transitionTask } from './task-transitions.js';

const RECOGNIZING = [TaskStatus.Recognizing] as const;

/** Pages the model processes: the pageRange selection, capped at 200 except for Labelling (no OCR). */
async function pagesToProcess(sourcePath: string, kind: string, pageRange: string | undefined, templateType: number): Promise<number[]> {
  if (kind !== 'pdf' && kind !== 'image' && kind !== 'tiff') return [];
  const pageCount = kind === 'pdf' ? (await pdfInfo(sourcePath)).pageCount : (await imageInfo(sourcePath)).pages;
  const pages = selectPages(pageRange, pageCount);
  return templateType === TemplateType.Labelling ? pages : pages.slice(0, OCR_PAGE_LIMIT);
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/**
 * The detect stage: runs the workspace's model and stores its result in place of any earlier
 * one, moves the task to ToReview and consumes the organization's free volume, all in one
 * transaction guarded by the run (a reprocess meanwhile makes the result stale, and it is dropped).
 */
export async function detectTask(deps: PipelineDeps, job: TaskJobPayload, attempt: { isLast: boolean }): Promise<StepOutcome> {
  const task = await transitionTask(deps.prisma, job, [TaskStatus.PreProcessingSuccessful, TaskStatus.Recognizing], TaskStatus.Recognizing);
  if (!task) return 'stale';
  const log = deps.log.child({ taskId: task.id, restartCount: job.restartCount });
  const fail = async (reason: string): Promise<StepOutcome> => {
    log.warn({ reason }, 'recognition failed');
    await transitionTask(deps.prisma, job, RECOGNIZING, TaskStatus.RecognitionFailed, { failureReason: reason });
    return 'failed';
  };
  if (!task.sourceBlobKey) return fail('The task has no pre-processed source file');
  const workspace = await deps.prisma.workspace.findUniqueOrThrow({ where: { id: task.workspaceId } });
  const request = storedTaskRequest.parse(task.request);
  const sourcePath = deps.blobs.localPath(task.sourceBlobKey);
  const sniffed = await sniffFile(sourcePath);
  const workDir = await mkdtemp(path.join(os.tmpdir(), `detect-${task.id}-`));
  let result: ModelResult;
  try {
    result = await deps.models(workspace.templateType as TemplateType)({
      tenantId: task.tenantId,
      taskId: task.id,
      templateType: workspace.templateType as TemplateType,
      sourcePath,
      kind: sniffed.kind,
      mimeType: sniffed.mime,
      pages: await pagesToProcess(sourcePath, sniffed.kind, request.context.pageRange, workspace.templateType),
      language: request.context.transcriptLanguage ?? (sniffed.kind === 'audio' || sniffed.kind === 'video' ? workspace.transcriptLanguage : undefined),
      useHigherQuality: request.useHigherQuality,
      templateFields: workspace.templateFields,
      workDir,
      saveOutput: async (name, localPath) => {
        const key = taskBlobKey(task.tenantId, task.id, `run-${job.restartCount}/${name}`);
        await deps.blobs.put(key, createReadStream(localPath));
        return key;
      },
    });
  } catch (err) {
    if (err instanceof ModelRejectedInputError || attempt.isLast) return fail(errorMessage(err));
    throw err;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }

  try {
    await storeResult(deps, job, task, result);
  } catch (err) {
    if (err instanceof StaleJobError) return 'stale';
    throw err;
  }
  log.info({ kind: result.kind }, 'recognized');
  return 'done';
}

async function storeResult(deps: PipelineDeps, job: TaskJobPayload, task: { totalPages: number; workspaceId: number }, result: ModelResult): Promise<void> {
  const volume = task.totalPages;
  await deps.prisma.$transaction(async (tx) => {
    const now = new Date();
    const averageConfidence =
      result.kind === 'document'
        ? mean(result.chunks.map((c) => c.averageConfidence).filter((c): c is number => c !== null))
        : mean(result.items.map((i) => i.confidence));
    const moved = await tx.task.updateMany({
      where: { id: job.taskId, restartCount: job.restartCount, taskStatus: TaskStatus.Recognizing },
      data: {
        taskStatus: TaskStatus.ToReview,
        statusChangedAt: now,
        averageConfidence,
        failureReason: null,
        ...(result.kind === 'document' ? { redactedBlobKey: result.redactedBlobKey ?? null } : {}),
      },
    });
    if (moved.count === 0) throw new StaleJobError(job);
    // Replaced, never appended: a retried job leaves exactly one result.
    await tx.documentChunk.deleteMany({ where: { taskId: job.taskId } });
    await tx.transcript.deleteMany({ where: { taskId: job.taskId } });
    await tx.taskSpeaker.deleteMany({ where: { taskId: job.taskId, source: SpeakerSource.Detected } });
    if (result.kind === 'document') {
      await tx.documentChunk.createMany({
        data: result.chunks.map((chunk, index) => ({
          taskId: job.taskId,
          chunkNumber: index + 1,
          pageNumber: chunk.pageNumber,
          retrievedOn: now,
          averageConfidence: chunk.averageConfidence,
          entities: chunk.entities as Prisma.InputJsonValue,
        })),
      });
    } else {
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
    // Free volume is consumed once per run, inside the transaction that records the result.
    await tx.$executeRaw`UPDATE "Tenant" SET "freeVolume" = GREATEST(0, "freeVolume" - ${volume}) WHERE id = ${job.tenantId} AND "freeVolume" IS NOT NULL`;
  });
}
