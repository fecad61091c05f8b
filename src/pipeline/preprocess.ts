import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Prisma } from '../generated/prisma/client.js';
import { TaskStatus, TaskType } from '../domain/enums.js';
import { EngineMissingError, errorMessage, InputUnreadableError } from '../engines/errors.js';
import { detectSilences } from '../engines/media.js';
import { BlobNotFoundError, isMissingFile, openFileStream } from '../storage/blob-store.js';
import { cutAudio, planAudioSplit } from '../engines/audio-split.js';
import { uploadIdOf } from '../modules/tasks/task-source.js';
import { inTransaction } from '../db/prisma.js';
import { TAKES_INVOICE_XML } from '../models/einvoice/xml-source.js';
import { changeBatchTotalTasks } from '../modules/batches/batches.repository.js';
import { takeTaskNumber } from '../modules/tasks/tasks.repository.js';
import { formatPageRange, pagesToProcess } from './page-selection.js';
import { type PipelineDeps, type StageDeps } from './pipeline-deps.js';
import { taskBlobKey } from '../storage/task-files.js';
import { uploadFiles } from '../modules/uploads/upload-storage.js';
import { enqueueDetect, taskJob, type TaskJobPayload } from '../queues/queues.js';
import { downloadSource, SourceTooLargeError } from '../net/source-fetch.js';
import { SourceUnreachableError } from '../net/url-guard.js';
import { isMediaSource, UnsupportedFileError, type SourceInspection } from './source-inspection.js';
import { storedTaskRequest, type StoredPartSlice } from './task-request.js';
import { findSplitOriginal, findTaskWorkspace, insertPartTask, moveTaskRun, transitionTask } from './task-pipeline.repository.js';

const IN_PROGRESS = [TaskStatus.PreProcessingInProgress] as const;
/** Pages per part when splitTaskInChunks gives no splitChunkNumberPages. */
export const DEFAULT_SPLIT_PAGES = 10;
/** Spec: splitChunkDurationMinutes defaults to 10; it is the longest a part may be (parts end at a silence before it). */
export const DEFAULT_SPLIT_MINUTES = 10;

export type StepOutcome = 'done' | 'failed' | 'stale';

/** What a step knows of its job's attempt. */
export interface StepAttempt {
  /** No retry follows this attempt: whatever still fails ends the task with its reason. */
  isLast: boolean;
  /** Records how far the job got (BullMQ job progress). */
  reportProgress: (progress: Record<string, number>) => Promise<void>;
}

/** Download failures worth retrying: the server may answer next time. */
function isTransient(err: SourceUnreachableError): boolean {
  if (err.reason === 'timeout' || err.reason === 'network') return true;
  const status = Number(err.reason.replace('http-', ''));
  return status >= 500 || status === 408 || status === 429;
}

/** The task's source file is gone from where it was to be read: retrying cannot bring it back. */
class SourceMissingError extends Error {}

async function fetchSource(deps: PipelineDeps, url: string, key: string): Promise<void> {
  const uploadId = uploadIdOf(url, deps.config);
  if (uploadId !== undefined) {
    // Ownership and completeness were checked at creation, but the upload may have been deleted
    // since. Opened before it is handed on, so a missing file is this rejection, not a stream error.
    const upload = await uploadFiles(deps.blobs, deps.config).openRead(uploadId).catch((err: unknown) => {
      throw err instanceof BlobNotFoundError ? new SourceMissingError('The uploaded file at context.url no longer exists (the upload was deleted or expired).') : err;
    });
    await deps.blobs.put(key, upload);
    return;
  }
  await downloadSource(url, { store: deps.blobs, key }, {
    allowPrivate: deps.config.SOURCE_URL_ALLOW_PRIVATE,
    timeoutMs: deps.config.DOWNLOAD_TIMEOUT_MS,
    maxBytes: deps.config.MAX_SOURCE_BYTES,
  });
}

/**
 * A split part's own file: what the part is processed (and reprocessed) from, instead of the
 * original's URL. Parts made before their request recorded the slice have it only on the row.
 */
function partSourceKey(task: { parentTaskId: number | null; sourceBlobKey: string | null }, part: StoredPartSlice | undefined): string | undefined {
  return part?.sourceBlobKey ?? (task.parentTaskId !== null ? (task.sourceBlobKey ?? undefined) : undefined);
}

/**
 * Pre-processing (DESIGN.md section 5): download, sniff, count, validate, page range, split.
 * Each failure ends in its own status with the reason kept; transient problems are retried by
 * the queue, and whatever still fails on the last attempt ends the task with its reason rather
 * than leaving it in progress.
 */
export async function preprocessTask(deps: StageDeps, job: TaskJobPayload, attempt: StepAttempt): Promise<StepOutcome> {
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
  try {
    return await preprocessSource(deps, job, task, fail, attempt);
  } catch (err) {
    // A file that vanished between steps (the blob store's directory cleaned, a disk swapped).
    if (isMissingFile(err) || err instanceof BlobNotFoundError) {
      log.warn({ err }, 'a file of the task disappeared');
      return fail(TaskStatus.PreProcessingDownloadFailed, "The task's source file disappeared from the blob store during pre-processing.");
    }
    // Retrying cannot install ffmpeg or ffprobe: the task fails now, saying what to install.
    if (err instanceof EngineMissingError) return fail(TaskStatus.PreProcessingFailed, err.message);
    if (attempt.isLast) return fail(TaskStatus.PreProcessingFailed, `pre-processing failed: ${errorMessage(err)}`);
    throw err;
  }
}

type PreprocessedTask = NonNullable<Awaited<ReturnType<typeof transitionTask>>>;
type Fail = (status: TaskStatus, reason: string) => Promise<StepOutcome>;

async function preprocessSource(deps: StageDeps, job: TaskJobPayload, task: PreprocessedTask, fail: Fail, attempt: StepAttempt): Promise<StepOutcome> {
  const request = storedTaskRequest.parse(task.request);
  const partKey = partSourceKey(task, request.part);
  let sourceKey: string;
  if (partKey !== undefined) {
    // A part is its own slice of the original: its file is already in the blob store.
    if (!(await deps.blobs.exists(partKey))) {
      deps.log.warn({ taskId: task.id, key: partKey }, 'the file of a part is missing');
      return fail(TaskStatus.PreProcessingDownloadFailed, 'The file of this part of a split task is missing from the blob store.');
    }
    sourceKey = partKey;
  } else {
    sourceKey = taskBlobKey(task.tenantId, task.id, 'source');
    try {
      await fetchSource(deps, request.context.url, sourceKey);
    } catch (err) {
      if (err instanceof SourceTooLargeError || err instanceof SourceMissingError) return fail(TaskStatus.PreProcessingDownloadFailed, err.message);
      if (err instanceof SourceUnreachableError && (!isTransient(err) || attempt.isLast)) {
        return fail(TaskStatus.PreProcessingDownloadFailed, `${err.message} (${err.reason})`);
      }
      if (attempt.isLast) return fail(TaskStatus.PreProcessingDownloadFailed, `download failed: ${errorMessage(err)}`);
      throw err;
    }
  }

  // The engines read paths: the blob's own file in the local store, a temporary copy of an S3 object.
  const sourceFile = await deps.blobs.localFile(sourceKey);
  try {
    return await processSourceFile(deps, job, task, fail, request, partKey, sourceKey, sourceFile.path);
  } finally {
    await sourceFile.release();
  }
}

async function processSourceFile(
  deps: StageDeps,
  job: TaskJobPayload,
  task: PreprocessedTask,
  fail: Fail,
  request: ReturnType<typeof storedTaskRequest.parse>,
  partKey: string | undefined,
  sourceKey: string,
  sourcePath: string,
): Promise<StepOutcome> {
  let inspected: SourceInspection;
  try {
    // Parsing every page of a PDF for its size is CPU work: an engine thread does it.
    inspected = await deps.engines.inspectSource(sourcePath);
  } catch (err) {
    if (err instanceof UnsupportedFileError) return fail(TaskStatus.PreProcessingFailed, err.message);
    if (err instanceof InputUnreadableError) return fail(TaskStatus.PreProcessingGetPagesFailed, err.message);
    throw err;
  }
  const source = inspected; // a const narrows by kind below

  const workspace = await findTaskWorkspace(deps.prisma, task.tenantId, task.workspaceId);
  const isMedia = isMediaSource(source);
  const wantsMedia = workspace.taskType === TaskType.Transcript;
  if (isMedia !== wantsMedia) {
    return fail(TaskStatus.PreProcessingFailed, wantsMedia ? 'Transcription workspaces take audio or video files' : `This workspace takes documents and images, not ${source.kind}`);
  }
  if (source.kind === 'xml' && !TAKES_INVOICE_XML.has(workspace.templateType)) {
    return fail(TaskStatus.PreProcessingFailed, `Unsupported file type ${source.mimeType}: send a PDF, an image, audio or video (XML invoices are taken by invoice workspaces)`);
  }
  // A part is never split again: it already is its slice.
  const split = request.context.splitTaskInChunks === true && partKey === undefined;

  const succeed = async (data: { totalPages: number; durationSeconds?: number; processedPageRange?: string }): Promise<StepOutcome> => {
    const done = await transitionTask(deps.prisma, job, IN_PROGRESS, TaskStatus.PreProcessingSuccessful, {
      sourceBlobKey: sourceKey,
      sourceMimeType: source.mimeType,
      totalPages: data.totalPages,
      durationSeconds: data.durationSeconds ?? null,
      processedPageRange: data.processedPageRange ?? null,
    });
    if (done) await enqueueDetect(deps.queues, task.priority, taskJob(task), (err) => deps.log.warn({ err, taskId: task.id }, 'detect enqueue deferred to the sweeper'));
    return done ? 'done' : 'stale';
  };

  if (isMediaSource(source)) {
    if (split) {
      const silences = await detectSilences(sourcePath);
      const plan = planAudioSplit(source.durationSeconds, silences, request.context.splitChunkDurationMinutes ?? DEFAULT_SPLIT_MINUTES);
      if (plan.length > 1) {
        const parts = await writeParts(deps, job, plan, 'wav', (part, out) => cutAudio(sourcePath, part.start, part.end, out));
        return createPartTasks(deps, job, workspace.templateType, {
          mimeType: 'audio/wav',
          totalPages: source.minutes,
          durationSeconds: source.durationSeconds,
          parts: parts.map((key, i) => {
            const { start, end } = plan[i]!;
            return { slice: { sourceBlobKey: key, startSeconds: start, endSeconds: end }, totalPages: Math.max(1, Math.ceil((end - start) / 60)), durationSeconds: end - start };
          }),
        });
      }
    }
    return succeed({ totalPages: source.minutes, durationSeconds: source.durationSeconds });
  }

  if (source.dimensionProblem) return fail(TaskStatus.ValidationErrorInvalidDimensions, source.dimensionProblem);
  const chunkPages = request.context.splitChunkNumberPages ?? DEFAULT_SPLIT_PAGES;
  // pageRange and splitting exclude each other (checked at creation): a split takes every page.
  if (split && source.kind === 'pdf' && source.pageCount > chunkPages) {
    const ranges: number[][] = [];
    for (let first = 1; first <= source.pageCount; first += chunkPages) {
      ranges.push(Array.from({ length: Math.min(chunkPages, source.pageCount - first + 1) }, (_, i) => first + i));
    }
    const parts = await writeParts(deps, job, ranges, 'pdf', (range, out) => deps.engines.extractPdfPages(sourcePath, range, out));
    return createPartTasks(deps, job, workspace.templateType, {
      mimeType: source.mimeType,
      totalPages: source.pageCount,
      parts: parts.map((key, i) => ({ slice: { sourceBlobKey: key, pages: formatPageRange(ranges[i]!) }, pageCount: ranges[i]!.length })),
    });
  }
  // Decided here, once: detect processes exactly these pages and free volume counts them.
  const pages = pagesToProcess(request.context.pageRange, source.pageCount, workspace.templateType);
  if (pages.length === 0) {
    return fail(TaskStatus.PreProcessingFailed, `pageRange "${request.context.pageRange}" selects no page of this ${source.pageCount}-page document`);
  }
  return succeed({ totalPages: pages.length, processedPageRange: formatPageRange(pages) });
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
      await deps.blobs.put(key, await openFileStream(out));
      keys.push(key);
    }
    return keys;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

type PartFile = { slice: StoredPartSlice } & ({ pageCount: number } | { totalPages: number; durationSeconds: number });

interface SplitPlan {
  mimeType: string;
  /** Pages (documents) or minutes (recordings) of the whole original. */
  totalPages: number;
  durationSeconds?: number;
  parts: PartFile[];
}

/** What a part's row says of its pages or minutes: a document part's processed pages follow the same rules as any task's. */
function partPages(part: PartFile, templateType: number) {
  if (!('pageCount' in part)) return { totalPages: part.totalPages, durationSeconds: part.durationSeconds, processedPageRange: null };
  const pages = pagesToProcess(undefined, part.pageCount, templateType);
  return { totalPages: pages.length, durationSeconds: null, processedPageRange: formatPageRange(pages) };
}

/**
 * Part tasks of a split (spec: splitTaskInChunks): tasks of their own in the same workspace, with
 * the batch, assignment and metadata of the original and a taskNumber each, already pre-processed.
 * Each part's request records its slice, so reprocessing a part runs on its own file. The original
 * becomes Split until its parts are reviewed. Parts are recorded in order, back to back, so a
 * part's offset in the original is the sum of the earlier parts' durations.
 */
async function createPartTasks(deps: PipelineDeps, job: TaskJobPayload, templateType: number, plan: SplitPlan): Promise<StepOutcome> {
  const original = await findSplitOriginal(deps.prisma, job.tenantId, job.taskId);
  const originalRequest = original.request as Prisma.JsonObject;
  const { url, transcriptLanguage } = storedTaskRequest.parse(originalRequest).context;
  const parts = await inTransaction(deps.prisma, async (tx) => {
    const moved = await moveTaskRun(tx, job, IN_PROGRESS, TaskStatus.Split, {
      totalPages: plan.totalPages,
      durationSeconds: plan.durationSeconds ?? null,
      sourceBlobKey: taskBlobKey(original.tenantId, original.id, 'source'),
      sourceMimeType: plan.mimeType,
      processedPageRange: null,
    });
    if (!moved) return [];
    const created = [];
    for (const [index, partFile] of plan.parts.entries()) {
      const part = await insertPartTask(
        tx,
        {
          tenantId: original.tenantId,
          workspaceId: original.workspaceId,
          batchId: original.batchId,
          taskNumber: await takeTaskNumber(tx, original.tenantId, original.workspaceId),
          displayName: `${original.displayName} (part ${index + 1} of ${plan.parts.length})`,
          description: original.description,
          taskStatus: TaskStatus.PreProcessingSuccessful,
          integrationStatus: original.integrationStatus,
          priority: original.priority,
          request: { ...originalRequest, context: { url, transcriptLanguage }, part: partFile.slice },
          metadata: original.metadata ?? {},
          assignmentOrder: original.assignmentOrder,
          parentTaskId: original.id,
          partNumber: index + 1,
          ...partPages(partFile, templateType),
          preProcessingStartedOn: new Date(),
          sourceBlobKey: partFile.slice.sourceBlobKey,
          sourceMimeType: plan.mimeType,
        },
        original.assignments,
      );
      created.push(part);
    }
    if (original.batchId) await changeBatchTotalTasks(tx, original.tenantId, original.batchId, created.length);
    return created;
  });
  if (parts.length === 0) return 'stale';
  for (const part of parts) {
    await enqueueDetect(deps.queues, part.priority, taskJob(part), (err) =>
      deps.log.warn({ err, taskId: part.id }, 'detect enqueue deferred to the sweeper'),
    );
  }
  deps.log.info({ taskId: original.id, parts: parts.map((p) => p.id) }, 'task split');
  return 'done';
}
