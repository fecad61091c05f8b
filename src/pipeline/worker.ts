import { Worker, type Job, type Processor } from 'bullmq';
import { useBundledMediaTools } from '../engines/media-tools.js';
import { createMailer } from '../mail/mailer.js';
import { observeJob } from './job-observer.js';
import { deliverInvitation } from './deliver-invitation.js';
import { detectTask } from './detect.js';
import { createEnginePool } from './engine-pool.js';
import type { PipelineDeps, StageDeps } from './pipeline-deps.js';
import { createQueueRedis } from '../queues/queue-connection.js';
import { preprocessTask, type StepAttempt, type StepOutcome } from './preprocess.js';
import { mailJobPayload, payloadSchemas, QueueName, taskJobPayload, webhookJobPayload, type TaskJobPayload } from '../queues/queues.js';
import { scheduleSweeps, type SweepScheduleOptions } from './sweep-schedule.js';
import { deliverWebhook } from './webhook-delivery.js';
import { scheduleWebhookDispatch, type DispatchScope } from './webhook-dispatch.js';

type TaskStep = (deps: StageDeps, job: TaskJobPayload, attempt: StepAttempt) => Promise<StepOutcome>;

/** Validates the payload, tells the step whether this is its last attempt, and rethrows to retry. */
function taskStep(deps: StageDeps, step: TaskStep): Processor {
  return async (job: Job) => {
    const payload = taskJobPayload.parse(job.data);
    const isLast = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return step(deps, payload, { isLast, reportProgress: (progress) => job.updateProgress(progress) });
  };
}

/** The one handler registry: every queue has exactly one handler (checked at start-up). */
export function jobHandlers(deps: StageDeps): Record<QueueName, Processor> {
  const mailer = createMailer(deps.config);
  return {
    [QueueName.PreprocessHigh]: taskStep(deps, preprocessTask),
    [QueueName.PreprocessLow]: taskStep(deps, preprocessTask),
    [QueueName.Detect]: taskStep(deps, detectTask),
    [QueueName.Mail]: async (job: Job) => deliverInvitation(deps, mailer, mailJobPayload.parse(job.data)),
    [QueueName.Webhook]: async (job: Job) => deliverWebhook(deps, webhookJobPayload.parse(job.data)),
  };
}

export function assertHandlersComplete(handlers: Partial<Record<string, Processor>>): void {
  const queues = Object.values(QueueName);
  const missing = queues.filter((q) => typeof handlers[q] !== 'function');
  const unknown = Object.keys(handlers).filter((q) => !queues.includes(q as QueueName));
  const unvalidated = queues.filter((q) => !(q in payloadSchemas));
  if (missing.length || unknown.length || unvalidated.length) {
    throw new Error(`job registry mismatch: missing handlers ${missing}, unknown handlers ${unknown}, no payload schema ${unvalidated}`);
  }
}

export interface WorkerPool {
  /** The BullMQ workers, one per queue (for watching their events). */
  workers: readonly Worker[];
  close: () => Promise<void>;
}

/**
 * Runs every queue's worker. The two pre-processing lanes have workers of their own, so a backlog
 * of low-priority tasks never delays a high-priority one and high never starves low.
 */
export interface WorkerOptions {
  redisUrl: string;
  prefix?: string;
  /** Sweeps from a timer of this process (see sweep-schedule.ts); none when absent. */
  sweep?: SweepScheduleOptions;
  /** How long a job's lock lasts without renewal: after a crash, its job is taken over once this lapses. */
  lockDurationMs?: number;
  /** Per-queue concurrency overrides. */
  concurrency?: Partial<Record<QueueName, number>>;
  /**
   * Hands the webhook outbox to the queue from a timer of this process (webhook-dispatch.ts).
   * Default: every WEBHOOK_DISPATCH_INTERVAL_MS in a process that sweeps (a deployed worker), off otherwise.
   */
  webhookDispatch?: { everyMs: number } & DispatchScope;
}

/**
 * Locks: BullMQ renews each active job's lock from this thread's event loop every half
 * lockDuration (30 s by default). Engine work runs in the engine threads (engine-pool.ts), so the
 * longest this thread is ever busy is a database or Redis round trip, far below it; a long job
 * reports its progress batch by batch. A lock lost (renewal failed, a job found stalled, a job
 * finished without its lock) means another worker may run the job again: logged as an error,
 * never routine.
 */
export async function startWorkers(deps: PipelineDeps, options: WorkerOptions): Promise<WorkerPool> {
  // This thread cuts recordings into parts; the engine threads are told through the pool.
  useBundledMediaTools(deps.config.BUNDLED_MEDIA_TOOLS);
  const engines = createEnginePool({
    threads: deps.config.ENGINE_THREADS,
    threadMaxMemoryMb: deps.config.ENGINE_THREAD_MAX_MEMORY_MB,
    ocrProcesses: deps.config.OCR_PROCESSES,
    idleReleaseSeconds: deps.config.ENGINE_IDLE_RELEASE_SECONDS,
    detectorBandPixels: deps.config.PPOCR_DETECTOR_BAND_PIXELS,
    asr: { ASR_URL: deps.config.ASR_URL, ASR_API_KEY: deps.config.ASR_API_KEY, ASR_MODEL: deps.config.ASR_MODEL },
    bundledMediaTools: deps.config.BUNDLED_MEDIA_TOOLS,
    log: deps.log,
  });
  const handlers = jobHandlers({ ...deps, engines });
  assertHandlersComplete(handlers);
  const concurrency: Record<QueueName, number> = {
    [QueueName.PreprocessHigh]: deps.config.PREPROCESS_CONCURRENCY,
    [QueueName.PreprocessLow]: deps.config.PREPROCESS_CONCURRENCY,
    [QueueName.Detect]: deps.config.DETECT_CONCURRENCY,
    [QueueName.Mail]: deps.config.MAIL_CONCURRENCY,
    [QueueName.Webhook]: deps.config.WEBHOOK_CONCURRENCY,
    ...options.concurrency,
  };
  const connections = Object.values(QueueName).map(() => createQueueRedis(options.redisUrl));
  const workers = Object.values(QueueName).map((name, index) => {
    const worker = new Worker(name, observeJob(name, handlers[name], deps), {
      connection: connections[index]!,
      prefix: options.prefix,
      concurrency: concurrency[name],
      // A worker killed mid-job: the job is handed to another worker once its lock lapses.
      maxStalledCount: 2,
      ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs } : {}),
    });
    worker.on('failed', (job, err) => deps.log.warn({ queue: name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job attempt failed'));
    worker.on('error', (err) => deps.log.error({ queue: name, err }, /lock/i.test(err.message) ? 'job lock lost' : 'worker error'));
    worker.on('lockRenewalFailed', (jobIds) => deps.log.error({ queue: name, jobIds }, 'job lock lost: renewal failed'));
    worker.on('stalled', (jobId) => deps.log.error({ queue: name, jobId }, 'job lock lost: the job stalled and goes back to the queue'));
    return worker;
  });
  const sweeps = options.sweep ? scheduleSweeps(deps, options.sweep) : undefined;
  const webhookDispatch = options.webhookDispatch ?? (options.sweep ? { everyMs: deps.config.WEBHOOK_DISPATCH_INTERVAL_MS } : undefined);
  const webhooks = webhookDispatch ? scheduleWebhookDispatch(deps, webhookDispatch) : undefined;
  return {
    workers,
    // Lets active jobs finish; waiting ones stay in Redis for the next worker.
    close: async () => {
      await sweeps?.stop();
      await webhooks?.stop();
      await Promise.all(workers.map((w) => w.close()));
      await engines.close();
      for (const connection of connections) connection.disconnect();
    },
  };
}
