/**
 * GET /metrics through HTTP: off by default, behind METRICS_TOKEN on the api's port, or on a
 * listener of its own (METRICS_PORT); counts move after requests, creates and queued jobs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../src/observability/metrics-endpoint.js';
import { enqueueDetect, QueueName } from '../src/queues/queues.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { expectProblem } from './support/problem.js';
import { labelSets, sampleValue } from './support/prometheus.js';
import { EXTERNAL } from './support/tenant-objects.js';

const TOKEN = 'metrics-token-0123456789';
const scrapeHeaders = { authorization: `Bearer ${TOKEN}` };

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  ctx = await createTestContext({ METRICS_TOKEN: TOKEN });
  files = await startFileServer({ '/doc.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' } });
});
afterAll(async () => {
  await files?.close();
  await ctx?.close();
});

async function scrape(): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: scrapeHeaders });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

describe('GET /metrics on the api port (METRICS_TOKEN)', () => {
  it('is refused without the token, or with another one (401 problem)', async () => {
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/metrics' }), 401);
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-metrics-token' } }), 401);
    // An organization's access token is no operator credential.
    const t = await createTestTenant(ctx);
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/metrics', headers: t.headers }), 401);
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    const t = await createTestTenant(ctx);
    const route = { method: 'GET', route: '/api/v1.0/external/sdtask/GetExportData/:taskid', status_code: '404' };
    const before = sampleValue(await scrape(), 'docproc_http_request_duration_seconds_count', route) ?? 0;
    const missing = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    const res = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/sdtask/GetExportData/${missing}`, headers: t.headers });
    expect(res.statusCode).toBe(404);
    const after = await scrape();
    expect(sampleValue(after, 'docproc_http_request_duration_seconds_count', route)).toBe(before + 1);
    expect(after).not.toContain(String(missing));
    // Unmatched URLs share one series.
    await ctx.app.inject({ method: 'GET', url: `/no/such/${randomUUID()}` });
    expect(sampleValue(await scrape(), 'docproc_http_request_duration_seconds_count', { method: 'GET', route: '(no route)', status_code: '404' })).toBeGreaterThan(0);
  });

  it('counts created tasks and reports queue depth and the oldest job per queue and lane', async () => {
    const t = await createTestTenant(ctx);
    const before = await scrape();
    const created = sampleValue(before, 'docproc_tasks_created_total') ?? 0;
    const low = sampleValue(before, 'docproc_queue_waiting_jobs', { queue: QueueName.PreprocessLow, lane: 'low' }) ?? 0;
    const high = sampleValue(before, 'docproc_queue_waiting_jobs', { queue: QueueName.PreprocessHigh, lane: 'high' }) ?? 0;
    for (const priority of [1, 3]) {
      const res = await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/sdtask/process`, headers: t.headers, payload: { priority, context: { url: files.url('/doc.pdf') } } });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Detect: one queue, high-priority jobs first; an hour-old low-priority job is its low lane's oldest.
    await enqueueDetect(ctx.queues, 3, { tenantId: t.tenantId, taskId: 1_999_999_001, restartCount: 0 });
    await ctx.queues[QueueName.Detect].add('detect', { tenantId: t.tenantId, taskId: 1_999_999_002, restartCount: 0 }, { priority: 10, timestamp: Date.now() - 3600_000 });

    const after = await scrape();
    expect(sampleValue(after, 'docproc_tasks_created_total')).toBe(created + 2);
    expect(sampleValue(after, 'docproc_queue_waiting_jobs', { queue: QueueName.PreprocessLow, lane: 'low' })).toBe(low + 1);
    expect(sampleValue(after, 'docproc_queue_waiting_jobs', { queue: QueueName.PreprocessHigh, lane: 'high' })).toBe(high + 1);
    expect(sampleValue(after, 'docproc_queue_waiting_jobs', { queue: QueueName.Detect, lane: 'high' })).toBe(1);
    expect(sampleValue(after, 'docproc_queue_waiting_jobs', { queue: QueueName.Detect, lane: 'low' })).toBe(1);
    expect(sampleValue(after, 'docproc_queue_oldest_waiting_job_age_seconds', { queue: QueueName.Detect, lane: 'low' })).toBeGreaterThanOrEqual(3600);
    expect(sampleValue(after, 'docproc_queue_oldest_waiting_job_age_seconds', { queue: QueueName.Detect, lane: 'high' })).toBeLessThan(3600);
    expect(sampleValue(after, 'docproc_queue_oldest_waiting_job_age_seconds', { queue: QueueName.Mail, lane: 'default' })).toBe(0);
    expect(sampleValue(after, 'docproc_queue_jobs', { queue: QueueName.Detect, state: 'active' })).toBe(0);
    expect(sampleValue(after, 'docproc_queue_scrape_success')).toBe(1);
    // Every queue of the registry is reported, one lane or more each.
    expect(new Set(labelSets(after, 'docproc_queue_waiting_jobs').map((l) => l.queue))).toEqual(new Set(Object.values(QueueName)));
  });

  it('includes the process metrics (event-loop lag) and the webhook delivery counter', async () => {
    const text = await scrape();
    expect(sampleValue(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE docproc_webhook_deliveries_total counter');
    expect(text).toContain('# TYPE docproc_job_duration_seconds histogram');
  });

  it('is not in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.includes('metrics'))).toEqual([]);
  });
});

describe('metrics off, or on a port of their own', () => {
  it('does not exist on the api port when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    const plain = await createTestContext();
    try {
      expectProblem(await plain.app.inject({ method: 'GET', url: '/metrics' }), 404);
    } finally {
      await plain.close();
    }
  });

  it('with METRICS_PORT, is served by its own listener (token-checked when METRICS_TOKEN is set) and not by the api port', async () => {
    const separate = await createTestContext({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN });
    const server = await startMetricsServer({ HOST: '127.0.0.1', METRICS_PORT: 0, METRICS_TOKEN: TOKEN }, { queues: separate.queues });
    try {
      expectProblem(await separate.app.inject({ method: 'GET', url: '/metrics', headers: scrapeHeaders }), 404);
      const base = `http://127.0.0.1:${server.port}`;
      const refused = await fetch(`${base}/metrics`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await refused.json()) as { traceId: string };
      expect(body.traceId).toBe(refused.headers.get('x-request-id'));
      const ok = await fetch(`${base}/metrics`, { headers: scrapeHeaders });
      expect(ok.status).toBe(200);
      const text = await ok.text();
      expect(text).toContain('docproc_queue_waiting_jobs{queue="preprocess-high",lane="high"}');
      expect((await fetch(`${base}/other`, { headers: scrapeHeaders })).status).toBe(404);
    } finally {
      await server.close();
      await separate.close();
    }
  });

  it('without METRICS_TOKEN, the listener of METRICS_PORT answers anyone who reaches it', async () => {
    const server = await startMetricsServer({ HOST: '127.0.0.1', METRICS_PORT: 0, METRICS_TOKEN: undefined });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('docproc_tasks_created_total');
    } finally {
      await server.close();
    }
  });
});
