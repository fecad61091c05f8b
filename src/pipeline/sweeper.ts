import { TaskStatus } from '../domain/enums.js';
import { redeliverUnsentInvitations } from './deliver-invitation.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { purgeUploadFiles } from '../modules/uploads/upload-storage.js';
import { deleteUploadsAcrossTenants, findExpiredUploadsAcrossTenants, findInFlightTasksAcrossTenants, recoverDeadTask, settleStuckExportsAcrossTenants } from './sweep.repository.js';
import { enqueueDetect, enqueuePreprocess, jobId, preprocessQueueFor, QueueName, taskJob } from '../queues/queues.js';
import { pruneWebhookHistory, recoverWebhookDeliveries } from './webhook-dispatch.js';

/** A task younger than this in its status is left alone: its job may simply not be visible yet. */
const DEFAULT_REDELIVERY_GRACE_MS = 30_000;
const BATCH = 500;

/** Statuses a job is responsible for, the queue of that job, and where a dead task is recovered to. */
const IN_FLIGHT: Record<number, { stage: 'preprocess' | 'detect'; recoverTo: TaskStatus }> = {
  [TaskStatus.QueuedForPreProcessing]: { stage: 'preprocess', recoverTo: TaskStatus.PreProcessingFailed },
  [TaskStatus.PreProcessingInProgress]: { stage: 'preprocess', recoverTo: TaskStatus.PreProcessingFailed },
  [TaskStatus.PreProcessingSuccessful]: { stage: 'detect', recoverTo: TaskStatus.RecognitionFailed },
  [TaskStatus.Recognizing]: { stage: 'detect', recoverTo: TaskStatus.RecognitionFailed },
};
const IN_FLIGHT_STATUSES = Object.keys(IN_FLIGHT).map(Number);
const LIVE_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export interface SweepReport {
  redelivered: number[];
  recovered: number[];
  /** Invitations whose mail job was enqueued again. */
  invitations: number[];
  /** Webhook deliveries whose job was gone, handed back to the dispatcher. */
  webhookDeliveries: number[];
}

/**
 * Makes sure every task reaches a final status (DESIGN.md section 7):
 * - a task in flight whose job is gone (Redis flushed or restarted, api crashed between commit and
 *   enqueue) gets its job again: the same run delivered again, not a reprocess;
 * - a task whose job ended without moving it (a worker killed on its last attempt), or that sat
 *   past STUCK_TASK_MINUTES with no live job, moves to the nearest failure status with a warning
 *   mark and externalIntegrationStatus "never";
 * - ExportCompleted stuck past the threshold moves to Processed with a warning mark;
 * - an invitation whose mail job never reached Redis gets it;
 * - a webhook delivery whose job Redis lost goes back to the dispatcher (webhook-dispatch.ts).
 * The service never reprocesses on its own.
 */
export interface SweepOptions {
  now?: Date;
  /** Only this organization's tasks and invitations (an operator's targeted sweep; tests). */
  tenantId?: number;
  /** How long a task must have been in its status before its missing job is delivered again (default 30 s). */
  redeliveryGraceMs?: number;
}

export async function sweep(deps: PipelineDeps, options: SweepOptions = {}): Promise<SweepReport> {
  const now = options.now ?? new Date();
  const report: SweepReport = { redelivered: [], recovered: [], invitations: [], webhookDeliveries: [] };
  const stuckBefore = new Date(now.getTime() - deps.config.STUCK_TASK_MINUTES * 60_000);
  const redeliverBefore = new Date(now.getTime() - (options.redeliveryGraceMs ?? DEFAULT_REDELIVERY_GRACE_MS));
  // Every candidate is visited, in id order by batches: tasks waiting behind a long backlog of live
  // jobs must not hide the ones whose job is gone.
  let afterId = 0;
  for (;;) {
    const candidates = await findInFlightTasksAcrossTenants(deps.prisma, {
      statuses: IN_FLIGHT_STATUSES,
      changedBefore: redeliverBefore,
      afterId,
      take: BATCH,
      tenantId: options.tenantId,
    });
    if (candidates.length === 0) break;
    afterId = candidates[candidates.length - 1]!.id;
    await sweepBatch(deps, candidates, now, stuckBefore, report);
  }
  const exported = await settleStuckExportsAcrossTenants(deps.prisma, stuckBefore, now, options.tenantId);
  report.invitations = await redeliverUnsentInvitations(deps, now, options.tenantId);
  report.webhookDeliveries = await recoverWebhookDeliveries(deps, now, options.redeliveryGraceMs ?? DEFAULT_REDELIVERY_GRACE_MS, options.tenantId);
  if (report.redelivered.length || report.recovered.length || report.invitations.length || report.webhookDeliveries.length || exported) {
    deps.log.info({ ...report, exportedToProcessed: exported }, 'sweep');
  }
  await deleteExpiredUploads(deps, now);
  await pruneWebhookHistory(deps, now, deps.config.WEBHOOK_HISTORY_DAYS);
  return report;
}

type Candidate = { id: number; tenantId: number; restartCount: number; jobKey: string | null; taskStatus: number; priority: number; statusChangedAt: Date };

async function sweepBatch(deps: PipelineDeps, candidates: Candidate[], now: Date, stuckBefore: Date, report: SweepReport): Promise<void> {
  for (const task of candidates) {
    const flight = IN_FLIGHT[task.taskStatus]!;
    // The id of this run's job (its job key in it): a job Redis keeps from another database, or
    // from this one before a restore, is not found under it.
    const payload = taskJob(task);
    const queue = deps.queues[flight.stage === 'preprocess' ? preprocessQueueFor(task.priority) : QueueName.Detect];
    const id = flight.stage === 'preprocess' ? jobId.preprocess(payload) : jobId.detect(payload);
    const state = await queue.getJobState(id);
    if (LIVE_JOB_STATES.has(state)) continue;
    if (state === 'unknown') {
      // A job that finished and was removed cannot exist for a task still in flight; re-adding is safe
      // because every step checks the task's status and run before it acts.
      const enqueued =
        flight.stage === 'preprocess'
          ? await enqueuePreprocess(deps.queues, task.priority, payload)
          : await enqueueDetect(deps.queues, task.priority, payload);
      if (enqueued) report.redelivered.push(task.id);
      continue;
    }
    if (state === 'failed' || task.statusChangedAt < stuckBefore) {
      const recovered = await recoverDeadTask(deps.prisma, task, {
        to: flight.recoverTo,
        now,
        failureReason: `Recovered automatically: the ${flight.stage} job ${state === 'failed' ? 'failed without recording a result' : 'stopped making progress'}`,
      });
      if (recovered) report.recovered.push(task.id);
    }
  }
}

/**
 * Incomplete uploads past their expiry: row and partial file (on S3: the open multipart upload,
 * its trailing part and its info object). Completed uploads stay (reprocessing replays them).
 */
async function deleteExpiredUploads(deps: PipelineDeps, now: Date): Promise<void> {
  const expired = await findExpiredUploadsAcrossTenants(deps.prisma, now, BATCH);
  if (!expired.length) return;
  for (const { id } of expired) {
    await purgeUploadFiles(deps.blobs, deps.config, id);
  }
  await deleteUploadsAcrossTenants(deps.prisma, expired.map((u) => u.id));
}
