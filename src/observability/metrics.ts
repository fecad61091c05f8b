/**
 * The process's Prometheus metrics, one registry per process (the api and the workers of a `dev`
 * process share it). Served by metrics-endpoint.ts (/metrics on the api, or a listener of its own
 * on METRICS_PORT). Recording is always on and costs a few additions; serving is opt-in.
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { receiveThreadCounts } from './thread-counts.js';

export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

export const httpRequestDuration = new Histogram({
  name: 'docproc_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

export const jobDuration = new Histogram({
  name: 'docproc_job_duration_seconds',
  help: 'Job runs by queue and outcome: done, failed (the task ended in a failure status), stale (superseded run), completed (other jobs), error (thrown: retried or given up)',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers,
});

export const tasksCreated = new Counter({
  name: 'docproc_tasks_created_total',
  help: 'Tasks created through sdtask/process',
  registers,
});

export const tasksFinished = new Counter({
  name: 'docproc_tasks_finished_total',
  help: 'Tasks whose processing ended, by the status it ended in (ToReview, Split or a failure status)',
  labelNames: ['status'] as const,
  registers,
});

export const ocrPages = new Counter({
  name: 'docproc_ocr_pages_total',
  help: 'Pages (or images within pages) read by OCR, engine threads included',
  registers,
});

/** Incremented by the webhook delivery job, one per attempt: outcome delivered, failed or disabled. */
export const webhookDeliveries = new Counter({
  name: 'docproc_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome',
  labelNames: ['outcome'] as const,
  registers,
});

export const ocrRereads = new Counter({
  name: 'docproc_ocr_rereads_total',
  help: 'Second OCR readings of images read poorly the first time (another threshold, a sideways page turned), engine threads included',
  registers,
});

// Counts made in engine threads arrive here (thread-counts.ts).
receiveThreadCounts({ ocrPages: (n) => ocrPages.inc(n), ocrRereads: (n) => ocrRereads.inc(n) });

let defaultsStarted = false;
/** Process metrics (CPU, memory, GC, event-loop lag), once per process, when metrics are served. */
export function startProcessMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
