import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { isHighPriority } from '../domain/priority.js';

/**
 * The one job registry: queue names, zod payloads, deterministic job ids and retry policy.
 * Payloads always carry tenantId and the id of their row (taskId, invitationId); new fields must
 * be optional so jobs already queued survive a deploy.
 */
export const QueueName = {
  PreprocessHigh: 'preprocess-high',
  PreprocessLow: 'preprocess-low',
  Detect: 'detect',
  Mail: 'mail',
  Webhook: 'webhook',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/**
 * The row's job key (Task.jobKey, Invitation.jobKey, WebhookDelivery.jobKey): issued by the
 * database, random, in the job's id. Absent on jobs queued before job keys, null on the jobs of rows
 * written before them.
 */
const jobKey = z.string().min(1).max(64).nullish();

export const taskJobPayload = z.object({
  tenantId: z.number().int().positive(),
  taskId: z.number().int().positive(),
  /** The processing run the job belongs to: a job of an older run (before a reprocess) is dropped. */
  restartCount: z.number().int().min(0),
  jobKey,
});
export type TaskJobPayload = z.infer<typeof taskJobPayload>;

export const mailJobPayload = z.object({
  tenantId: z.number().int().positive(),
  invitationId: z.number().int().positive(),
  jobKey,
});
export type MailJobPayload = z.infer<typeof mailJobPayload>;

export const webhookJobPayload = z.object({
  tenantId: z.number().int().positive(),
  deliveryId: z.number().int().positive(),
  /** Attempts the delivery had made when the job was added: a job of an attempt already made is dropped. */
  attempt: z.number().int().min(0),
  jobKey,
});
export type WebhookJobPayload = z.infer<typeof webhookJobPayload>;

export const payloadSchemas = {
  [QueueName.PreprocessHigh]: taskJobPayload,
  [QueueName.PreprocessLow]: taskJobPayload,
  [QueueName.Detect]: taskJobPayload,
  [QueueName.Mail]: mailJobPayload,
  [QueueName.Webhook]: webhookJobPayload,
} as const satisfies Record<QueueName, z.ZodType>;

const retrying: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  // Finished jobs are not kept forever, but long enough to make a re-add of the same id a no-op.
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export const jobOptions: Record<QueueName, JobsOptions> = {
  [QueueName.PreprocessHigh]: retrying,
  [QueueName.PreprocessLow]: retrying,
  [QueueName.Detect]: retrying,
  // A mail server may be down for a while: 8 attempts from 10 s doubling span about 20 minutes.
  [QueueName.Mail]: { ...retrying, attempts: 8, backoff: { type: 'exponential', delay: 10_000 } },
  // The receiver's failures are retried on the delivery's own schedule (a new job per attempt,
  // webhook-delivery.ts); these retries are for our own failures only (Postgres down).
  [QueueName.Webhook]: retrying,
};

/**
 * Deterministic ids (BullMQ forbids ':' in them): a second enqueue of the same run is a no-op. The
 * row's job key makes them unique to this database's life of the row: a finished job Redis still
 * keeps from another database, or from this one before it was restored from a backup, never has
 * the id of a job of this one, so the new job is added and the sweep does not take the old one for it.
 */
export const jobId = {
  preprocess: (p: TaskJobPayload) => keyed(`pre-${p.taskId}-${p.restartCount}`, p.jobKey),
  detect: (p: TaskJobPayload) => keyed(`det-${p.taskId}-${p.restartCount}`, p.jobKey),
  mail: (p: MailJobPayload) => keyed(`mail-${p.invitationId}`, p.jobKey),
  webhook: (p: Pick<WebhookJobPayload, 'deliveryId' | 'attempt' | 'jobKey'>) => keyed(`whd-${p.deliveryId}-${p.attempt}`, p.jobKey),
};

// Without a key (a row written before job keys), the id the row's jobs were queued under then.
const keyed = (id: string, key: string | null | undefined) => (key == null ? id : `${id}-${key}`);

/** The payload of a job of the task's current run, from its row. */
export function taskJob(task: { id: number; tenantId: number; restartCount: number; jobKey: string | null }): TaskJobPayload {
  return { tenantId: task.tenantId, taskId: task.id, restartCount: task.restartCount, jobKey: task.jobKey };
}

export type Queues = Record<QueueName, Queue>;

export function createQueues(connection: Redis, prefix?: string): Queues {
  const make = (name: QueueName) => {
    const queue = new Queue(name, { connection, prefix, defaultJobOptions: jobOptions[name] });
    // Outages surface through /ready and enqueue results; unhandled 'error' events would only add noise.
    queue.on('error', () => undefined);
    return queue;
  };
  return {
    [QueueName.PreprocessHigh]: make(QueueName.PreprocessHigh),
    [QueueName.PreprocessLow]: make(QueueName.PreprocessLow),
    [QueueName.Detect]: make(QueueName.Detect),
    [QueueName.Mail]: make(QueueName.Mail),
    [QueueName.Webhook]: make(QueueName.Webhook),
  };
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}

export function preprocessQueueFor(priority: number): QueueName {
  return isHighPriority(priority) ? QueueName.PreprocessHigh : QueueName.PreprocessLow;
}

/** How long an enqueue may wait for Redis before the caller moves on (the sweeper delivers later). */
const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * Adds a job, but never lets a Redis outage fail or stall the request that committed the task:
 * Postgres already holds the task, and the sweeper enqueues tasks that have no job.
 * Returns false when the job could not be confirmed.
 */
export async function enqueueBestEffort(
  queue: Queue,
  name: string,
  data: object,
  id: string,
  log?: (err: unknown) => void,
  options: JobsOptions = {},
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queue.add(name, data, { ...options, jobId: id }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not confirm job ${id} within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch (err) {
    log?.(err);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function enqueueDetect(queues: Queues, priority: number, payload: TaskJobPayload, log?: (err: unknown) => void) {
  // Within the one detect queue, high-priority tasks are taken first (BullMQ: lower number first).
  const queue = queues[QueueName.Detect];
  const data = taskJobPayload.parse(payload);
  return enqueueBestEffort(queue, 'detect', data, jobId.detect(payload), log, { priority: isHighPriority(priority) ? 1 : 10 });
}

export async function enqueuePreprocess(queues: Queues, priority: number, payload: TaskJobPayload, log?: (err: unknown) => void) {
  const queue = queues[preprocessQueueFor(priority)];
  return enqueueBestEffort(queue, 'preprocess', taskJobPayload.parse(payload), jobId.preprocess(payload), log);
}

/** The invitation's mail; an invitation whose job never reached Redis is enqueued by the sweeper. */
export async function enqueueInvitationMail(queues: Queues, payload: MailJobPayload, log?: (err: unknown) => void) {
  return enqueueBestEffort(queues[QueueName.Mail], 'mail', mailJobPayload.parse(payload), jobId.mail(payload), log);
}

/** The next attempt of a webhook delivery, delayed until it is due. */
export async function enqueueWebhookAttempt(queues: Queues, payload: WebhookJobPayload, dueAt: Date, log?: (err: unknown) => void) {
  const data = webhookJobPayload.parse(payload);
  return enqueueBestEffort(queues[QueueName.Webhook], 'webhook', data, jobId.webhook(payload), log, { delay: Math.max(0, dueAt.getTime() - Date.now()) });
}
