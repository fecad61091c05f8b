/**
 * From the webhook outbox to the queue. Triggers write events and pending deliveries in the
 * transaction of the change (migration 20261128130000_webhooks); every worker then, from a timer
 * of its own:
 * - decides batch.finished for the batches a task left processing in (the trigger only notes
 *   them, so a task change never scans its batch);
 * - enqueues every pending delivery no job has been confirmed for (`dispatchedAt` null): new
 *   ones, and retries whose enqueue failed. Job ids are deterministic, so two workers enqueueing
 *   the same delivery make one job.
 * The sweep (sweeper.ts) clears `dispatchedAt` of deliveries whose job Redis lost (a FLUSHALL, a
 * restart without persistence), which brings them back here. Redis down or flushed delays a
 * delivery; it never drops one.
 */
import { TaskStatus } from '../domain/enums.js';
import { inTransaction } from '../db/prisma.js';
import { findBatch } from '../modules/batches/batches.repository.js';
import { taskStatusText } from '../modules/tasks/tasks.service.js';
import {
  anyBatchCheckNotedAcrossTenants,
  clearDispatched,
  countBatchTasksByStatus,
  emitWebhookEvent,
  findOverdueDispatchedDeliveriesAcrossTenants,
  findUndispatchedDeliveriesAcrossTenants,
  isBatchInFlight,
  markDispatchedAcrossTenants,
  pruneWebhookHistoryAcrossTenants,
  takeBatchChecksAcrossTenants,
} from '../modules/webhooks/webhook-outbox.repository.js';
import type { BatchEventData } from '../modules/webhooks/webhooks.schemas.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { enqueueWebhookAttempt, jobId, QueueName } from '../queues/queues.js';
import { repeatRound, type RepeatingRound } from './repeating-round.js';

type Deps = Pick<PipelineDeps, 'prisma' | 'queues' | 'log'>;

const BATCH_CHECKS_PER_ROUND = 200;
const DELIVERIES_PER_ROUND = 500;

export interface DispatchReport {
  enqueued: number;
  batchesFinished: number;
}

/**
 * Which organizations a dispatcher serves: every one (a deployed worker), or only those named (a
 * test sharing its database with other tests, whose outboxes are theirs to dispatch).
 */
export interface DispatchScope {
  tenantIds?: ReadonlySet<number>;
}

/** One round: batch decisions, then the deliveries waiting for a job. */
export async function dispatchWebhooks(deps: Deps, scope: DispatchScope = {}): Promise<DispatchReport> {
  const batchesFinished = await decideFinishedBatches(deps, scope);
  const enqueued = await enqueueUndispatched(deps, scope);
  return { enqueued, batchesFinished };
}

/**
 * Takes the noted batches and emits batch.finished for each that has no task in processing. The
 * notes are consumed in the transaction that emits, so a crash leaves them for the next round.
 * The event's dedupe key names the batch's state (tasks, their runs): notes of the same finish
 * seen in two rounds, or by two workers, emit once; a batch that gets busy again (a task added,
 * a reprocess) and finishes again emits again.
 */
async function decideFinishedBatches(deps: Deps, scope: DispatchScope): Promise<number> {
  // Most rounds find nothing: no transaction for them.
  if (!(await anyBatchCheckNotedAcrossTenants(deps.prisma, scope.tenantIds))) return 0;
  return inTransaction(deps.prisma, async (tx) => {
    const noted = await takeBatchChecksAcrossTenants(tx, BATCH_CHECKS_PER_ROUND, scope.tenantIds);
    let emitted = 0;
    for (const { tenantId, batchId } of noted) {
      if (await isBatchInFlight(tx, tenantId, batchId)) continue;
      const batch = await findBatch(tx, tenantId, batchId);
      if (!batch) continue;
      const byStatus = await countBatchTasksByStatus(tx, tenantId, batchId);
      const state = [
        byStatus.reduce((n, s) => n + s.count, 0),
        byStatus.reduce((n, s) => n + s.restarts, 0),
        Math.max(0, ...byStatus.map((s) => s.lastId)),
      ].join('-');
      const data: BatchEventData = {
        batch: { batchId: batch.id, workspaceId: batch.workspaceId, displayName: batch.displayName, totalTasks: batch.totalTasks },
        // Parts a reprocess superseded are not tasks of the batch any more (as in totalTasks).
        taskStatusCounts: byStatus
          .filter((s) => s.taskStatus !== TaskStatus.Deleted)
          .map((s) => ({ taskStatus: s.taskStatus as BatchEventData['taskStatusCounts'][number]['taskStatus'], taskStatusText: taskStatusText(s.taskStatus), count: s.count })),
      };
      if (await emitWebhookEvent(tx, tenantId, 'batch.finished', data, `batch.finished:${batchId}:${state}`)) emitted += 1;
    }
    return emitted;
  });
}

/** Enqueues the deliveries without a confirmed job, each delayed until its attempt is due. */
async function enqueueUndispatched(deps: Deps, scope: DispatchScope): Promise<number> {
  const waiting = await findUndispatchedDeliveriesAcrossTenants(deps.prisma, DELIVERIES_PER_ROUND, scope.tenantIds);
  const confirmed: Array<{ id: number; attempts: number }> = [];
  for (const d of waiting) {
    const ok = await enqueueWebhookAttempt(deps.queues, { tenantId: d.tenantId, deliveryId: d.id, attempt: d.attempts, jobKey: d.jobKey }, d.nextAttemptAt ?? new Date());
    // Redis is down: the rest would only wait for their timeouts too. The next round tries again.
    if (!ok) break;
    confirmed.push({ id: d.id, attempts: d.attempts });
  }
  if (confirmed.length) await markDispatchedAcrossTenants(deps.prisma, confirmed);
  return confirmed.length;
}

const LIVE_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);
const RECOVERY_BATCH = 500;

/**
 * For the sweep: pending deliveries past their attempt's time (by `graceMs`) whose job is not
 * live any more (Redis lost it, or it failed on our side every time) go back to the dispatcher.
 * Returns their ids.
 */
export async function recoverWebhookDeliveries(deps: Deps, now: Date, graceMs: number, tenantId?: number): Promise<number[]> {
  const recovered: number[] = [];
  const queue = deps.queues[QueueName.Webhook];
  const dueBefore = new Date(now.getTime() - graceMs);
  let afterId = 0;
  for (;;) {
    const overdue = await findOverdueDispatchedDeliveriesAcrossTenants(deps.prisma, { afterId, take: RECOVERY_BATCH, dueBefore, tenantId });
    if (overdue.length === 0) return recovered;
    afterId = overdue[overdue.length - 1]!.id;
    for (const d of overdue) {
      const id = jobId.webhook({ deliveryId: d.id, attempt: d.attempts, jobKey: d.jobKey });
      if (LIVE_JOB_STATES.has(await queue.getJobState(id))) continue;
      // A finished job of the same id would make the new enqueue a no-op.
      await queue.remove(id);
      if (await clearDispatched(deps.prisma, d.tenantId, d.id, d.attempts)) recovered.push(d.id);
    }
  }
}

/** Finished deliveries (and events left without any) older than `days` are deleted, a bounded number per sweep. */
export async function pruneWebhookHistory(deps: Pick<Deps, 'prisma'>, now: Date, days: number): Promise<void> {
  await pruneWebhookHistoryAcrossTenants(deps.prisma, new Date(now.getTime() - days * 86_400_000));
}

/**
 * Runs a dispatch round every `everyMs` from a timer of this process; a round starts only after
 * the previous one ended, and a failed round (Postgres or Redis down) is logged and tried again.
 */
export function scheduleWebhookDispatch(deps: Deps, options: { everyMs: number } & DispatchScope): RepeatingRound {
  const log = deps.log.child({ component: 'webhook-dispatch' });
  let failing = false;
  return repeatRound(options.everyMs, async () => {
    try {
      const report = await dispatchWebhooks(deps, options);
      if (report.enqueued || report.batchesFinished) log.debug(report, 'webhooks dispatched');
      if (failing) log.info('webhook dispatch succeeds again');
      failing = false;
    } catch (err) {
      if (!failing) log.warn({ err, retryInMs: options.everyMs }, 'webhook dispatch failed');
      failing = true;
    }
  });
}
