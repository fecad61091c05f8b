import { performance } from 'node:perf_hooks';
import type { Job, Processor } from 'bullmq';
import type { Logger } from 'pino';
import type { PrismaClient } from '../db/prisma.js';
import { nameOf, PROCESSING_ENDED_STATUSES, TaskStatus } from '../domain/enums.js';
import { findTaskStatusCode } from '../modules/tasks/tasks.repository.js';
import { runInJobContext, type JobLogFields } from '../observability/job-context.js';
import { jobDuration, tasksFinished } from '../observability/metrics.js';
import { listenToThreadCounts } from '../observability/thread-counts.js';

export interface JobObserverDeps {
  log: Logger;
  prisma: PrismaClient;
}

/** What a task step returns (preprocess.ts StepOutcome); any other result is a plain `completed`. */
const STEP_OUTCOMES = new Set(['done', 'failed', 'stale']);


function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The organization and task a job works for, as far as its payload says (every payload has tenantId). */
function jobFields(queue: string, job: Job): JobLogFields {
  const data = (job.data ?? {}) as Record<string, unknown>;
  return { queue, jobId: job.id, tenantId: positiveInt(data.tenantId), taskId: positiveInt(data.taskId) };
}

async function countFinishedTask(deps: JobObserverDeps, tenantId: number, taskId: number): Promise<void> {
  const task = await findTaskStatusCode(deps.prisma, tenantId, taskId);
  if (task && PROCESSING_ENDED_STATUSES.has(task.taskStatus)) tasksFinished.inc({ status: nameOf(TaskStatus, task.taskStatus) ?? String(task.taskStatus) });
}

/**
 * The one wrapper around every job handler (worker.ts): runs it in the job's log context (every
 * line it logs names the queue, job, organization and task), records its run time and outcome per
 * queue, counts the tasks whose processing it finished, and writes one line when it ends. A
 * thrown error is rethrown untouched, so BullMQ retries as before.
 */
export function observeJob(queue: string, handler: Processor, deps: JobObserverDeps): Processor {
  listenToThreadCounts();
  return (job, token) => {
    const fields = jobFields(queue, job);
    return runInJobContext(fields, async () => {
      const started = performance.now();
      const attempt = job.attemptsMade + 1;
      const elapsed = () => (performance.now() - started) / 1000;
      try {
        const result: unknown = await handler(job, token);
        const outcome = typeof result === 'string' && STEP_OUTCOMES.has(result) ? result : 'completed';
        const seconds = elapsed();
        jobDuration.observe({ queue, outcome }, seconds);
        deps.log.info({ outcome, attempt, durationMs: Math.round(seconds * 1000) }, 'job finished');
        if (fields.tenantId !== undefined && fields.taskId !== undefined && (outcome === 'done' || outcome === 'failed')) {
          // A metric only: its failure must not turn a finished job into a retried one.
          await countFinishedTask(deps, fields.tenantId, fields.taskId).catch((err: unknown) => deps.log.warn({ err }, 'finished task not counted'));
        }
        return result;
      } catch (err) {
        const seconds = elapsed();
        jobDuration.observe({ queue, outcome: 'error' }, seconds);
        deps.log.warn({ err, outcome: 'error', attempt, durationMs: Math.round(seconds * 1000) }, 'job finished');
        throw err;
      }
    });
  };
}
