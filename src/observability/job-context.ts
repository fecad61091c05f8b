import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

/** Who a job works for: every log line written while it runs carries these (logger.ts mixin). */
export interface JobLogFields {
  queue: string;
  jobId?: string;
  tenantId?: number;
  taskId?: number;
}

const current = new AsyncLocalStorage<JobLogFields>();

export function runInJobContext<T>(fields: JobLogFields, work: () => Promise<T>): Promise<T> {
  return current.run(fields, work);
}

/**
 * pino mixin: the running job's fields, except those the logger already binds (a step's
 * `log.child({ taskId })`), so that no line names a field twice.
 */
export function jobLogMixin(_merge: object, _level: number, logger: Logger): object {
  const fields = current.getStore();
  if (!fields) return {};
  const bound = logger.bindings();
  return Object.fromEntries(Object.entries(fields).filter(([name, value]) => value !== undefined && !(name in bound)));
}
