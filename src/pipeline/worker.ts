import { Worker, type Job, type Processor } from 'bullmq';
import { createMailer } from '../mail/mailer.js';
import { createQueueRedis } from '../runtime/services.js';
import { deliverInvitation } from './deliver-invitation.js';
import { detectTask } from './detect.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { preprocessTask, type StepOutcome } from './preprocess.js';
import { mailJobPayload, payloadSchemas, QueueName, taskJobPayload, type TaskJobPayload } from './queues.js';
import { sweep } from './sweeper.js';

type TaskStep = (deps: PipelineDeps, job: TaskJobPayload, attempt: { isLast: boolean }) => Promise<StepOutcome>;

/** Validates the payload, tells the step whether this is its last attempt, and rethrows to retry. */
function taskStep(deps: PipelineDeps, step: TaskStep): Processor {
  return async (job: Job) => {
    const payload = taskJobPayload.parse(job.data);
    const isLast = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return step(deps, payload, { isLast });
  };
}

/** The one handler registry: every queue has exactly one handler (checked at start-up). */
export function jobHandlers(deps: PipelineDeps): Record<QueueName, Processor> {
  const mailer = createMailer(deps.config);
  return {
    [QueueName.PreprocessHigh]: taskStep(deps, preprocessTask),
    [QueueName.PreprocessLow]: taskStep(deps, preprocessTask),
    [QueueName.Detect]: taskStep(deps, detectTask),
    [QueueName.Mail]: async (job: Job) => deliverInvitation(deps, mailer, mailJobPayload.parse(job.data)),
    [QueueName.Sweep]: async () => sweep(deps),
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
  close: () => Promise<void>;
}

/**
 * Runs every queue's worker. The two pre-processing lanes have workers of their own, so a backlog
 * of low-priority tasks never delays a high-priority one and high never starves low.
 */
export interface WorkerOptions {
  redisUrl: string;
  prefix?: string;
  sweepEveryMs?: number;
  /** How long a job's lock lasts without renewal: after a crash, its job is taken over once this lapses. */
  lockDurationMs?: number;
  /** Per-queue concurrency overrides. */
  concurrency?: Partial<Record<QueueName, number>>;
}

export async function startWorkers(deps: PipelineDeps, options: WorkerOptions): Promise<WorkerPool> {
  const handlers = jobHandlers(deps);
  assertHandlersComplete(handlers);
  const concurrency: Record<QueueName, number> = {
    [QueueName.PreprocessHigh]: deps.config.PREPROCESS_CONCURRENCY,
    [QueueName.PreprocessLow]: deps.config.PREPROCESS_CONCURRENCY,
    [QueueName.Detect]: deps.config.DETECT_CONCURRENCY,
    [QueueName.Mail]: deps.config.MAIL_CONCURRENCY,
    [QueueName.Sweep]: 1,
    ...options.concurrency,
  };
  const connections = Object.values(QueueName).map(() => createQueueRedis(options.redisUrl));
  const workers = Object.values(QueueName).map((name, index) => {
    const worker = new Worker(name, handlers[name], {
      connection: connections[index]!,
      prefix: options.prefix,
      concurrency: concurrency[name],
      // A worker killed mid-job: the job is handed to another worker once its lock lapses.
      maxStalledCount: 2,
      ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs } : {}),
    });
    worker.on('failed', (job, err) => deps.log.warn({ queue: name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job attempt failed'));
    worker.on('error', (err) => deps.log.error({ queue: name, err }, 'worker error'));
    return worker;
  });
  if (options.sweepEveryMs !== undefined) {
    await deps.queues[QueueName.Sweep].upsertJobScheduler('sweep', { every: options.sweepEveryMs }, { name: 'sweep', data: {} });
  }
  return {
    // Lets active jobs finish; waiting ones stay in Redis for the next worker.
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      for (const connection of connections) connection.disconnect();
    },
  };
}
