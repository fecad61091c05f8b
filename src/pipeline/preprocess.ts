import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TaskStatus, TaskType } from '../domain/enums.js';
import { InputUnreadableError } from '../engines/errors.js';
import { extractPdfPages } from '../engines/pdf.js';
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

export type StepOutcome = 'done' | 'failed' | 'stale';

/** Download failures worth retrying: the server may answer next time. */
function isTransient(err: SourceUnreachableError): boolean {
  if (err.reason === 'timeout' || err.reason === 'network') return true;
  const status = Number(err.reason.replace('http-', ''));
  return status >= 500 || status === 408 || status === 429;
}

async function fetchSource(deps: PipelineDeps, task: { id: number; tenantId: number }, url: string, key: string): Promise<void> {
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
    await fetchSource(deps, task, request.context.url, sourceKey);
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
    return splitDocument(deps, job, { sourcePath, mimeType: source.mimeType, pageCount: source.pageCount, chunkPages, request });
  }
  const done = await transitionTask(deps.prisma, job, IN_PROGRESS, TaskStatus.PreProcessingSuccessful, { ...common, totalPages: pages.length });
  if (done) await enqueueDetect(deps.queues, task.priority, job, (err) => log.warn({ err }, 'detect enqueue deferred to the sweeper'));
  return done ? 'done' : 'stale';
}

/**
 * Splits a document into part tasks of at most `chunkPages` pages. Parts are tasks of their own
 * (same workspace, batch, assignment and metadata; a taskNumber each), already pre-processed;
 * the original becomes Split until its parts are reviewed.
 */
async function splitDocument(
  deps: PipelineDeps,
  job: TaskJobPayload,
  input: { sourcePath: string; mimeType: string; pageCount: number; chunkPages: number; request: StoredTaskRequest },
): Promise<StepOutcome> {
  const original = await deps.prisma.task.findUniqueOrThrow({ where: { id: job.taskId }, include: { assignments: true } });
  const ranges: number[][] = [];
  for (let first = 1; first <= input.pageCount; first += input.chunkPages) {
    ranges.push(Array.from({ length: Math.min(input.chunkPages, input.pageCount - first + 1) }, (_, i) => first + i));
  }
  // Part files first (idempotent keys): a retry after a crash rewrites the same blobs.
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'split-'));
  const partKeys: string[] = [];
  try {
    for (const [index, pages] of ranges.entries()) {
      const partPath = path.join(workDir, `part-${index + 1}.pdf`);
      await extractPdfPages(input.sourcePath, pages, partPath);
      const key = taskBlobKey(original.tenantId, original.id, `run-${job.restartCount}/part-${index + 1}.pdf`);
      await deps.blobs.put(key, createReadStream(partPath));
      partKeys.push(key);
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }

  const partRequest = { ...input.request, context: { url: input.request.context.url } };
  const parts = await deps.prisma.$transaction(async (tx) => {
    const moved = await tx.task.updateMany({
      where: { id: original.id, restartCount: job.restartCount, taskStatus: TaskStatus.PreProcessingInProgress },
      data: { taskStatus: TaskStatus.Split, statusChangedAt: new Date(), totalPages: input.pageCount, sourceBlobKey: taskBlobKey(original.tenantId, original.id, 'source'), sourceMimeType: input.mimeType },
    });
    if (moved.count === 0) return [];
    const created = [];
    for (const [index, pages] of ranges.entries()) {
      const part = await tx.task.create({
        data: {
          tenantId: original.tenantId,
          workspaceId: original.workspaceId,
          batchId: original.batchId,
          taskNumber: await takeTaskNumber(tx, original.workspaceId),
          displayName: `${original.displayName} (part ${index + 1} of ${ranges.length})`,
          description: original.description,
          taskStatus: TaskStatus.PreProcessingSuccessful,
          integrationStatus: original.integrationStatus,
          priority: original.priority,
          request: partRequest,
          metadata: original.metadata ?? {},
          assignmentOrder: original.assignmentOrder,
          parentTaskId: original.id,
          partNumber: index + 1,
          totalPages: pages.length,
          preProcessingStartedOn: new Date(),
          sourceBlobKey: partKeys[index]!,
          sourceMimeType: input.mimeType,
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
  deps.log.info({ taskId: original.id, parts: parts.map((p) => p.id) }, 'document split');
  return 'done';
}
