import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TaskStatus, TemplateType } from '../domain/enums.js';
import { EngineMissingError, errorMessage } from '../engines/errors.js';
import { sniffFile } from '../engines/file-type.js';
import { BlobNotFoundError, isMissingFile, openFileStream, type LocalFile } from '../storage/blob-store.js';
import { LEARNING_TEMPLATES } from '../modules/vendor-profiles/vendor-profile-learning.js';
import { loadVendorProfiles } from '../modules/vendor-profiles/vendor-profile-snapshots.js';
import { ModelRejectedInputError } from '../models/model.js';
import type { ModelSummary } from './engine-protocol.js';
import type { Engines, ModelHost } from './engine-pool.js';
import { pagesOfRange, pagesToProcess } from './page-selection.js';
import { type StageDeps } from './pipeline-deps.js';
import { taskBlobKey } from '../storage/task-files.js';
import type { StepAttempt, StepOutcome } from './preprocess.js';
import type { TaskJobPayload } from '../queues/queues.js';
import { publishResult, storeChunkBatch } from './result-store.js';
import { deleteRunChunks } from './result-store.repository.js';
import { isMediaSource } from './source-inspection.js';
import { storedTaskRequest } from './task-request.js';
import { findTaskWorkspace, recordPagesProcessed, transitionTask } from './task-pipeline.repository.js';
import { StaleJobError } from './task-transitions.js';

const RECOGNIZING = [TaskStatus.Recognizing] as const;

/**
 * The pages the model processes: the ones pre-processing chose and stored (pageRange, then the
 * OCR cap). Tasks pre-processed before the choice was stored get it worked out from the file
 * by the same rule.
 */
async function taskPages(
  engines: Engines,
  task: { processedPageRange: string | null },
  sourcePath: string,
  kind: string,
  pageRange: string | undefined,
  templateType: number,
): Promise<number[]> {
  if (kind === 'xml') return [1];
  if (kind !== 'pdf' && kind !== 'image' && kind !== 'tiff') return [];
  if (task.processedPageRange !== null) return pagesOfRange(task.processedPageRange);
  const source = await engines.inspectSource(sourcePath);
  return isMediaSource(source) ? [] : pagesToProcess(pageRange, source.pageCount, templateType);
}

/**
 * The detect stage: runs the workspace's model in an engine thread, stores its chunks batch by
 * batch as the thread hands them over (tagged with the run), then publishes the result in one
 * small transaction that moves the task to ToReview and consumes the organization's free volume
 * (result-store.ts). Everything is guarded by the run: a reprocess meanwhile makes the result
 * stale, and it is dropped.
 */
export async function detectTask(deps: StageDeps, job: TaskJobPayload, attempt: StepAttempt): Promise<StepOutcome> {
  // Each attempt reads the pages from the first again: its progress starts over.
  const task = await transitionTask(deps.prisma, job, [TaskStatus.PreProcessingSuccessful, TaskStatus.Recognizing], TaskStatus.Recognizing, {
    pagesProcessed: null,
  });
  if (!task) return 'stale';
  const log = deps.log.child({ taskId: task.id, restartCount: job.restartCount });
  const fail = async (reason: string): Promise<StepOutcome> => {
    log.warn({ reason }, 'recognition failed');
    // A failed run shows no result: what its attempts stored goes (only if the task is still this run's).
    if (await transitionTask(deps.prisma, job, RECOGNIZING, TaskStatus.RecognitionFailed, { failureReason: reason })) await deleteRunChunks(deps.prisma, job);
    return 'failed';
  };
  if (!task.sourceBlobKey) return fail('The task has no pre-processed source file');
  // Retrying cannot bring a lost file back: the task fails now, with the reason.
  if (!(await deps.blobs.exists(task.sourceBlobKey))) {
    log.warn({ key: task.sourceBlobKey }, 'the source file is missing');
    return fail("The task's source file is missing from the blob store.");
  }
  const workspace = await findTaskWorkspace(deps.prisma, task.tenantId, task.workspaceId);
  const templateType = workspace.templateType as TemplateType;
  const request = storedTaskRequest.parse(task.request);
  const workDir = await mkdtemp(path.join(os.tmpdir(), `detect-${task.id}-`));
  let result: ModelSummary;
  // The blob's own file in the local store, a temporary copy of an S3 object.
  let source: LocalFile | undefined;
  try {
    source = await deps.blobs.localFile(task.sourceBlobKey);
    const sourcePath = source.path;
    const sniffed = await sniffFile(sourcePath);
    const retrievedOn = new Date();
    let storedChunks = 0;
    let pagesProcessed = 0;
    const host: ModelHost = {
      saveOutput: async ({ name, localPath }) => {
        // The model writes its outputs into its own scratch directory; nothing else is read from here.
        const relative = path.relative(workDir, localPath);
        if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`model output ${localPath} is outside the run's work directory`);
        const key = taskBlobKey(task.tenantId, task.id, `run-${job.restartCount}/${name}`);
        await deps.blobs.put(key, await openFileStream(localPath));
        return key;
      },
      storeChunks: async ({ json, count }) => {
        await storeChunkBatch(deps.prisma, job, json, count, retrievedOn);
        storedChunks += count;
        await attempt.reportProgress({ storedChunks, pagesProcessed });
      },
      recordPagesRead: async ({ pages }) => {
        pagesProcessed = pages;
        await recordPagesProcessed(deps.prisma, job, pages);
        await attempt.reportProgress({ storedChunks, pagesProcessed });
      },
    };
    result = await deps.engines.runModel(
      templateType,
      {
        tenantId: task.tenantId,
        taskId: task.id,
        templateType,
        sourcePath,
        kind: sniffed.kind,
        mimeType: sniffed.mime,
        pages: await taskPages(deps.engines, task, sourcePath, sniffed.kind, request.context.pageRange, workspace.templateType),
        language: request.context.transcriptLanguage ?? (sniffed.kind === 'audio' || sniffed.kind === 'video' ? workspace.transcriptLanguage : undefined),
        useHigherQuality: request.useHigherQuality,
        templateFields: workspace.templateFields,
        // Invoice and receipt workspaces: the vendor profiles as they are now (a reprocess reads them again).
        ...(LEARNING_TEMPLATES.has(templateType) ? { vendorProfiles: await loadVendorProfiles(deps.prisma, task.tenantId, task.workspaceId) } : {}),
        workDir,
      },
      host,
    );
  } catch (err) {
    if (err instanceof StaleJobError) return 'stale';
    // A file gone mid-run will not be there on a retry either (its path stays in the log, not the reason).
    if (isMissingFile(err) || err instanceof BlobNotFoundError) {
      log.warn({ err }, 'a file of the task disappeared');
      return fail('A file of the task disappeared from the blob store during recognition.');
    }
    // Neither an input the model refuses nor a missing engine changes on a retry.
    if (err instanceof ModelRejectedInputError || err instanceof EngineMissingError || attempt.isLast) return fail(errorMessage(err));
    throw err;
  } finally {
    await source?.release();
    await rm(workDir, { recursive: true, force: true });
  }

  try {
    await publishResult(deps.prisma, job, task, result);
  } catch (err) {
    if (err instanceof StaleJobError) return 'stale';
    throw err;
  }
  log.info({ kind: result.kind }, 'recognized');
  return 'done';
}
