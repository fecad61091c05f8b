import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TaskStatus, TaskType } from '../domain/enums.js';
import { InputUnreadableError } from '../engines/errors.js';
import { detectSilences } from '../engines/media.js';
import { extractPdfPages } from '../engines/pdf.js';
import { cutAudio, planAudioSplit } from './audio-split.js';
import { uploadIdOf } from '../modules/tasks/task-source.js';
import { takeTaskNumber } from '../modules/tasks/tasks.repository.js';
import { inspectSource, isMediaSource, UnsupportedFileError, type SourceInspection } from './inspect-source.js';
import { selectPages } from './page-selection.js';
import { taskBlobKey, uploadsDir, type PipelineDeps } from './pipeline-deps.js';
import { enqueueDetect, type TaskJobPayload } from './queues.js';
import { downloadSource, SourceTooLargeError } from './source-fetch.js';
import { SourceUnreachableError } from './url-guard.js';
import { storedTaskRequest, type StoredTaskRequest } from './task-request.js';
import { transitionTask } from './task-transitions.js';

const IN_PROGRESS = [TaskStatus.PreProcessingInProgress] as const;
/** Pages per part when splitTaskInChunks gives no splitChunkNumberPages. */
export const DEFAULT_SPLIT_PAGES = 10;
/** Spec: splitChunkDurationMinutes defaults to 10. */
export const DEFAULT_SPLIT_MINUTES = 10;

export type StepOutcome = 'done' | 'failed' | 'stale';

/** Download failures worth retrying: the server may answer next time. */
function isTransient(err: SourceUnreachableError): boolean {
  if (err.reason === 'timeout' || err.reason === 'network') return true;
  const status = Number(err.reason.replace('http-', ''));
  return status >= 500 || status === 408 || status === 429;
}

async function fetchSource(deps: PipelineDeps, url: string, key: string): Promise<void> {
  const uploadId = uploadIdOf(url, deps.config);
  if (uploadId !== undefined) {
    // Ownership and completeness were checked at creation; the upload file is ours to copy.
    await deps.blobs.put(key, createReadStream(path.join(uploadsDir(deps.config), uploadId)));
    return;
  }
  await downloadSource(url, { store: deps.blobs, key }, {
    allowPrivate: deps.config.SOURCE_URL_ALLOW_PRIVATE,
    timeoutMs: deps.config.DOWNLOAD_TIMEOUT_MS,
    maxBytes: deps.config.MAX_SOURCE_BYTES,
  });
}

/**
 * Pre-processing (DESIGN.md section 5): download, sniff, count, validate, page range, split.
 * Each failure ends in its own status with the reason kept; transient download problems are
 * retried by the queue until the last attempt.
 */
export async function preprocessTask(deps: PipelineDeps, job: TaskJobPayload, attempt: { isLast: boolean }): Promise<StepOutcome> {
  const task = await transitionTask(deps.prisma, job, [TaskStatus.QueuedForPreProcessing, TaskStatus.PreProcessingInProgress], TaskStatus.PreProcessingInProgress, {
    preProcessingStartedOn: new Date(),
  });
  if (!task) return 'stale';
  const log = deps.log.child({ taskId: task.id, restartCount: job.restartCount });
  const fail = async (status: TaskStatus, reason: string): Promise<StepOutcome> => {
    log.warn({ status, reason }, 'pre-processing failed');
    await transitionTask(deps.prisma, job, IN_PROGRESS, status, { failureReason: reason });
    return 'failed';
  };
  const request = storedTaskRequest.parse(task.request);

  const sourceKey = taskBlobKey(task.tenantId, task.id, 'source');
  try {
    await fetchSource(deps, request.context.url, sourceKey);
  } catch (err) {
    if (err instanceof SourceTooLargeError) return fail(TaskStatus.PreProcessingDownloadFailed, err.message);
    if (err instanceof SourceUnreachableError && (!isTransient(err) || attempt.isLast)) {
      return fail(TaskStatus.PreProcessingDownloadFailed, `${err.message} (${err.reason})`);
    }
    if (attempt.isLast) return fail(TaskStatus.PreProcessingDownloadFailed, `download failed: ${(err as Error).message}`);
    throw err;
  }

  const sourcePath = deps.blobs.localPath(sourceKey);
  let inspected: SourceInspection;
  try {
    inspected = await inspectSource(sourcePath);
  } catch (err) {
    if (err instanceof UnsupportedFileError) return fail(TaskStatus.PreProcessingFailed, err.message);
    if (err instanceof InputUnreadableError) return fail(TaskStatus.PreProcessingGetPagesFailed, err.message);
    throw err;
  }
  const source = inspected; // a const narrows by kind below

  const workspace = await deps.prisma.workspace.findUniqueOrThrow({ where: { id: task.workspaceId } });
  const isMedia = isMediaSource(source);
  const wantsMedia = workspace.taskType === TaskType.Transcript;
  if (isMedia !== wantsMedia) {
    return fail(TaskStatus.PreProcessingFailed, wantsMedia ? 'Transcription workspaces take audio or video files' : `This workspace takes documents and images, not ${source.kind}`);
  }

  const common = { sourceBlobKey: sourceKey, sourceMimeType: source.mimeType };
  if (isMediaSource(source)) {
    if (request.context.splitTaskInChunks) {
      const silences = await detectSilences(sourcePath);
      const plan = planAudioSplit(source.durationSeconds, silences, request.context.splitChunkDurationMinutes ?? DEFAULT_SPLIT_MINUTES);
      if (plan.length > 1) {
        const parts = await writeParts(deps, job, plan, 'wav', (part, out) => cutAudio(sourcePath, part.start, part.end, out));
        return createPartTasks(deps, job, request, {
          mimeType: 'audio/wav',
          totalPages: source.minutes,
          durationSeconds: source.durationSeconds,
          parts: parts.map((key, i) => ({ key, totalPages: Math.max(1, Math.ceil((plan[i]!.end - plan[i]!.start) / 60)), durationSeconds: plan[i]!.end - plan[i]!.start })),
        });
      }
    }
    const done = await transitionTask(deps.prisma, job, IN_PROGRESS, TaskStatus.PreProcessingSuccessful, {
      ...common,
      totalPages: source.minutes,
      durationSeconds: source.durationSeconds,
    });
    if (done) await enqueueDetect(deps.queues, task.priority, job, (err) => log.warn({ err }, 'detect enqueue deferred to the sweeper'));
    return done ? 'done' : 'stale';
  }

  if (source.dimensionProblem) return fail(TaskStatus.ValidationErrorInvalidDimensions, source.dimensionProblem);
  const pages = selectPages(request.context.pageRange, source.pageCount);
  if (pages.length === 0) {
    return fail(TaskStatus.PreProcessingFailed, `pageRange "${request.context.pageRange}" selects no page of this ${source.pageCount}-page document`);
  }
  const chunkPages = request.context.splitChunkNumberPages ?? DEFAULT_SPLIT_PAGES;
  if (request.context.splitTaskInChunks && source.kind === 'pdf' && pages.length > chunkPages) {
    const ranges: number[][] = [];
    for (let first = 1; first <= source.pageCount; first += chunkPages) {
      ranges.push(Array.from({ length: Math.min(chunkPages, source.pageCount - first + 1) }, (_, i) => first + i));
    }
    const parts = await writeParts(deps, job, ranges, 'pdf', (range, out) => extractPdfPages(sourcePath, range, out));
    return createPartTasks(deps, job, request, {
      mimeType: source.mimeType,
      totalPages: source.pageCount,
      parts: parts.map((key, i) => ({ key, totalPages: ranges[i]!.length })),
    });
  }
  const done = await transitionTask(deps.prisma, job, IN_PROGRESS, TaskStatus.PreProcessingSuccessful, { ...common, totalPages: pages.length });
  if (done) await enqueueDetect(deps.queues, task.priority, job, (err) => log.warn({ err }, 'detect enqueue deferred to the sweeper'));
  return done ? 'done' : 'stale';
}

/**
 * Writes one file per part with `make` and stores it; keys are fixed per run, so a retry after a
 * crash rewrites the same blobs instead of adding new ones.
 */
async function writeParts<P>(
  deps: PipelineDeps,
  job: TaskJobPayload,
  parts: readonly P[],
  extension: string,
  make: (part: P, outPath: string) => Promise<void>,
): Promise<string[]> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'split-'));
  try {
    const keys: string[] = [];
    for (const [index, part] of parts.entries()) {
      const out = path.join(workDir, `part-${index + 1}.${extension}`);
      await make(part, out);
      const key = taskBlobKey(job.tenantId, job.taskId, `run-${job.restartCount}/part-${index + 1}.${extension}`);
      await deps.blobs.put(key, createReadStream(out));
      keys.push(key);
    }
    return keys;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

interface SplitPlan {
  mimeType: string;
  /** Pages (documents) or minutes (recordings) of the whole original. */
  totalPages: number;
  durationSeconds?: number;
  parts: Array<{ key: string; totalPages: number; durationSeconds?: number }>;
}

/**
 * Part tasks of a split (spec: splitTaskInChunks): tasks of their own in the same workspace, with
 * the batch, assignment and metadata of the original and a taskNumber each, already pre-processed.
 * The original becomes Split until its parts are reviewed. Parts are recorded in order, back to
 * back, so a part's offset in the original is the sum of the earlier parts' durations.
 */
async function createPartTasks(deps: PipelineDeps, job: TaskJobPayload, request: StoredTaskRequest, plan: SplitPlan): Promise<StepOutcome> {
  const original = await deps.prisma.task.findUniqueOrThrow({ where: { id: job.taskId }, include: { assignments: true } });
  const partRequest = { ...request, context: { url: request.context.url, transcriptLanguage: request.context.transcriptLanguage } };
  const parts = await deps.prisma.$transaction(async (tx) => {
    const moved = await tx.task.updateMany({
      where: { id: original.id, restartCount: job.restartCount, taskStatus: TaskStatus.PreProcessingInProgress },
      data: {
        taskStatus: TaskStatus.Split,
        statusChangedAt: new Date(),
        totalPages: plan.totalPages,
        durationSeconds: plan.durationSeconds ?? null,
        sourceBlobKey: taskBlobKey(original.tenantId, original.id, 'source'),
        sourceMimeType: plan.mimeType,
      },
    });
    if (moved.count === 0) return [];
    const created = [];
    for (const [index, partFile] of plan.parts.entries()) {
      const part = await tx.task.create({
        data: {
          tenantId: original.tenantId,
          workspaceId: original.workspaceId,
          batchId: original.batchId,
          taskNumber: await takeTaskNumber(tx, original.workspaceId),
          displayName: `${original.displayName} (part ${index + 1} of ${plan.parts.length})`,
          description: original.description,
          taskStatus: TaskStatus.PreProcessingSuccessful,
          integrationStatus: original.integrationStatus,
          priority: original.priority,
          request: partRequest,
          metadata: original.metadata ?? {},
          assignmentOrder: original.assignmentOrder,
          parentTaskId: original.id,
          partNumber: index + 1,
          totalPages: partFile.totalPages,
          durationSeconds: partFile.durationSeconds ?? null,
          preProcessingStartedOn: new Date(),
          sourceBlobKey: partFile.key,
          sourceMimeType: plan.mimeType,
        },
      });
      if (original.assignments.length) {
        await tx.taskAssignment.createMany({ data: original.assignments.map((a) => ({ taskId: part.id, position: a.position, email: a.email })) });
      }
      created.push(part);
    }
    if (original.batchId) await tx.batch.update({ where: { id: original.batchId }, data: { totalTasks: { increment: created.length } } });
    return created;
  });
  if (parts.length === 0) return 'stale';
  for (const part of parts) {
    await enqueueDetect(deps.queues, part.priority, { tenantId: part.tenantId, taskId: part.id, restartCount: 0 }, (err) =>
      deps.log.warn({ err, taskId: part.id }, 'detect enqueue deferred to the sweeper'),
    );
  }
  deps.log.info({ taskId: original.id, parts: parts.map((p) => p.id) }, 'task split');
  return 'done';
}
