import type { TaskJobPayload } from '../queues/queues.js';

/**
 * A job's run moved on under it: a reprocess, or a duplicate job that got there first. Every step
 * moves its task only within the job's run (task-pipeline.repository.ts, moveTaskRun); this is
 * thrown inside a transaction to abandon it when the task moved on under the job.
 */
export class StaleJobError extends Error {
  constructor(job: TaskJobPayload) {
    super(`task ${job.taskId} run ${job.restartCount} moved on; job dropped`);
    this.name = 'StaleJobError';
  }
}
