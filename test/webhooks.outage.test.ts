/**
 * Webhook deliveries survive Redis losing their jobs: the outbox in Postgres is the truth, and the
 * worker's own sweep hands a delivery whose job vanished back to the dispatcher. Faults are made
 * on a Postgres and a redis-server of this file's own (never the machine's shared ones).
 */
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { jobId, QueueName } from '../src/queues/queues.js';
import { startWorkers, type WorkerPool } from '../src/pipeline/worker.js';
import { createServices, type Services } from '../src/runtime/services.js';
import { breakableConfig, startBreakableInfra, type BreakableInfra } from './support/breakable-infra.js';
import { createTestTenant, type TestTenant } from './support/context.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { waitFor } from './support/processes.js';
import { completeUpload, subscribeWebhook } from './support/tenant-objects.js';
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from './support/webhook-receiver.js';

/** Long enough to flush Redis while the retry's job waits in it. */
const RETRY_DELAY = '3s';

let infra: BreakableInfra;
let services: Services;
let app: FastifyInstance;
let workers: WorkerPool;
let receiver: WebhookReceiver;

beforeAll(async () => {
  infra = await startBreakableInfra('docproc_webhooks');
  receiver = await startWebhookReceiver();
  const config = breakableConfig(infra, { WEBHOOK_RETRY_SCHEDULE: RETRY_DELAY });
  services = await createServices(config, { databaseUrl: infra.postgres.url, redisUrl: infra.redis.url });
  app = await buildApp(services);
  await app.ready();
  workers = await startWorkers(
    { ...services, log: pino({ level: 'silent' }) },
    {
      redisUrl: infra.redis.url,
      // As deployed: the worker's own timer sweeps (and so dispatches webhooks); a short grace so a
      // lost job is found within a second instead of the production 30 s.
      sweep: { everyMs: 300, databaseUrl: infra.postgres.url, redeliveryGraceMs: 300 },
      webhookDispatch: { everyMs: 100 },
    },
  );
});

afterAll(async () => {
  await workers?.close();
  await app?.close();
  await services?.close();
  await receiver?.close();
  await infra?.close();
});

async function createHook(t: TestTenant, name: string) {
  const hookPath = `/${name}`;
  return { ...(await subscribeWebhook({ app }, t, receiver.url(hookPath), ['upload.completed'])), path: hookPath };
}

async function onlyDelivery(webhookId: number) {
  const rows = await services.prisma.webhookDelivery.findMany({ where: { endpointId: webhookId } });
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('Redis losing the jobs', () => {
  it('delays a delivery flushed between the commit and the first attempt; the sweep gets it delivered', async () => {
    const t = await createTestTenant({ app, prisma: services.prisma });
    const hook = await createHook(t, 'flushed-before-first-attempt');
    // The queue paused: nothing takes the job, so the flush surely comes between its enqueue and its attempt.
    const queue = services.queues[QueueName.Webhook];
    await queue.pause();
    try {
      const uploadId = await completeUpload({ app }, t, await numberedPagesPdf(1));
      const queued = await waitFor(async () => {
        const d = await onlyDelivery(hook.webhookId);
        return d.dispatchedAt ? d : undefined;
      }, 'the delivery to be handed to the queue');
      expect(await queue.getJobState(jobId.webhook({ deliveryId: queued.id, attempt: 0, jobKey: queued.jobKey }))).toMatch(/^(waiting|paused)$/);
      // The flush takes the job, and the pause with it.
      await infra.redis.flushAll();
      expect(await queue.getJobState(jobId.webhook({ deliveryId: queued.id, attempt: 0, jobKey: queued.jobKey }))).toBe('unknown');
      const [request] = await receiver.waitForRequests(hook.path, 1);
      const event = verifiedEvent(request!, hook.secret);
      expect(event.type === 'upload.completed' && event.data.upload.uploadId).toBe(uploadId);
      expect(event.id).toBe(queued.eventId);
      await waitFor(async () => ((await onlyDelivery(hook.webhookId)).status === 'delivered' ? true : undefined), 'the delivery to be recorded');
    } finally {
      await queue.resume();
    }
  });

  it("delays a retry whose delayed job the flush took; the sweep gets it delivered", async () => {
    const t = await createTestTenant({ app, prisma: services.prisma });
    const hook = await createHook(t, 'flushed-while-retrying');
    receiver.script(hook.path, [{ status: 503, body: 'busy' }]);
    await completeUpload({ app }, t, await numberedPagesPdf(1));
    const waiting = await waitFor(async () => {
      const d = await onlyDelivery(hook.webhookId);
      return d.attempts === 1 && d.dispatchedAt && d.lastStatusCode === 503 ? d : undefined;
    }, 'the retry to wait in Redis');
    const queue = services.queues[QueueName.Webhook];
    expect(await queue.getJobState(jobId.webhook({ deliveryId: waiting.id, attempt: 1, jobKey: waiting.jobKey }))).toBe('delayed');
    await infra.redis.flushAll();
    const requests = await receiver.waitForRequests(hook.path, 2);
    expect(requests.map((r) => r.status)).toEqual([503, 200]);
    expect(requests[1]!.headers['webhook-id']).toBe(waiting.eventId);
    verifiedEvent(requests[1]!, hook.secret);
    const delivered = await waitFor(async () => {
      const d = await onlyDelivery(hook.webhookId);
      return d.status === 'delivered' ? d : undefined;
    }, 'the retry to be recorded');
    expect(delivered.attempts).toBe(2);
  });
});
