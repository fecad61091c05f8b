/**
 * Webhooks through HTTP against the real Postgres and Redis, with real workers and a real receiver
 * that checks every signature with the Standard Webhooks reference library.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../src/config.js';
import { TaskStatus } from '../src/domain/enums.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventPayload } from '../src/modules/webhooks/webhooks.schemas.js';
import { postWebhook } from '../src/pipeline/webhook-delivery.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { waitFor } from './support/processes.js';
import { createUser, seedDocumentTask, userHeaders } from './support/review.js';
import { completeUpload, EXTERNAL, subscribeWebhook } from './support/tenant-objects.js';
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from './support/webhook-receiver.js';
import { createTask } from './support/tasks.js';

const WEBHOOKS = `${EXTERNAL}/webhooks`;
/** Short, so retries and disabling happen within a test; the schedule itself is the production code path. */
const RETRY_DELAY_MS = 200;
const SCHEDULE = Array<string>(6).fill(`${RETRY_DELAY_MS}ms`);
/**
 * Far longer than the whole schedule (7 attempts, 1.2 s of delays, but each retry waits for a
 * dispatch round and a worker, which on a loaded 2-core machine took it past 2 s): one failed
 * delivery alone does not disable.
 */
const DISABLE_AFTER_MS = 6000;

let ctx: TestContext;
const ourTenants = new Set<number>();
/** An organization of this file, served by its webhook dispatcher. */
async function newTenant(): Promise<TestTenant> {
  const t = await createTestTenant(ctx);
  ourTenants.add(t.tenantId);
  return t;
}
let receiver: WebhookReceiver;
let files: FileServer;
let workers: WorkerPool;
let pdf: Buffer;

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
    WEBHOOK_DISABLE_AFTER: `${DISABLE_AFTER_MS}ms`,
    WEBHOOK_TIMEOUT_MS: '5000',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  receiver = await startWebhookReceiver();
  pdf = await numberedPagesPdf(1);
  files = await startFileServer({
    '/doc.pdf': { body: pdf, type: 'application/pdf' },
    '/notes.txt': { body: Buffer.from('just text, no document'), type: 'text/plain' },
  });
  // This file's organizations only: the database is shared with other test files' outboxes.
  workers = await startTestWorkers(ctx, { webhookDispatch: { everyMs: 100, tenantIds: ourTenants } });
});

afterAll(async () => {
  await workers?.close();
  await receiver?.close();
  await files?.close();
  await ctx?.close();
});

interface CreatedHook {
  webhookId: number;
  secret: string;
  path: string;
}

async function createHook(t: TestTenant, eventTypes: readonly string[] = WEBHOOK_EVENT_TYPES, name = 'hook'): Promise<CreatedHook> {
  const path = `/${name}/${randomUUID()}`;
  return { ...(await subscribeWebhook(ctx, t, receiver.url(path), eventTypes)), path };
}

async function history(t: TestTenant, webhookId: number, query = 'pageSize=100') {
  const res = await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${webhookId}/deliveries?${query}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Array<Record<string, any>>; totalCount: number };
}

function eventsAt(hook: CreatedHook): WebhookEventPayload[] {
  return receiver.at(hook.path).map((r) => verifiedEvent(r, hook.secret));
}

/** Waits until the receiver has an event matching `match` at the hook's path. */
function waitForEvent(hook: CreatedHook, what: string, match: (e: WebhookEventPayload) => boolean): Promise<WebhookEventPayload> {
  return waitFor(async () => eventsAt(hook).find(match), what, 600, 100);
}

type TaskEvent = Extract<WebhookEventPayload, { type: 'task.status_changed' }>;

describe('events of a task going through the pipeline and the review', () => {
  it('are delivered once each, signed, describing every change in order, with the task as GET sdtask/status shows it', async () => {
    const t = await newTenant();
    const hook = await createHook(t);
    const batchId = (await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/sdbatch`, headers: t.headers, payload: { displayName: 'webhooks' } })).json().batchId as number;

    const uploadId = await completeUpload(ctx, t, pdf);
    const good = await createTask(ctx.app, t, `${publicBaseUrl(ctx.config)}/files/${uploadId}`, { batchId });
    const bad = await createTask(ctx.app, t, files.url('/notes.txt'), { batchId });
    const processed = await waitForFinalStatus(ctx, good);
    expect(processed.taskStatus, processed.failureReason ?? '').toBe(TaskStatus.ToReview);
    const failed = await waitForFinalStatus(ctx, bad);
    expect(failed.taskStatus).toBe(TaskStatus.PreProcessingFailed);
    const finished = await waitForEvent(hook, 'batch.finished', (e) => e.type === 'batch.finished');

    // The review, then the hand-over (reading the export).
    const reviewer = await userHeaders(ctx.app, await createUser(ctx, t, { roleName: 'Administrator' }));
    for (const step of ['checkout', 'complete']) {
      const res = await ctx.app.inject({ method: 'POST', url: `/api/v1.0/review/tasks/${good}/${step}`, headers: reviewer });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/sdtask/GetExportData/${good}`, headers: t.headers })).statusCode).toBe(200);
    await waitForEvent(hook, 'the hand-over', (e) => e.type === 'task.status_changed' && e.data.task.taskId === good && e.data.task.taskStatus === TaskStatus.Processed);

    const requests = receiver.at(hook.path);
    const events = eventsAt(hook);
    for (const [i, event] of events.entries()) {
      expect(requests[i]!.headers['webhook-id']).toBe(event.id);
      expect(requests[i]!.headers['content-type']).toBe('application/json');
      expect(event.organizationId).toBe(t.tenantId);
    }
    expect(new Set(events.map((e) => e.id)).size, 'each event delivered once').toBe(events.length);

    // upload.completed names the upload location a task can be created from.
    const upload = events.find((e) => e.type === 'upload.completed');
    expect(upload?.type === 'upload.completed' && upload.data.upload).toMatchObject({
      uploadId,
      workspaceId: t.defaultWorkspaceId,
      fileType: 'application/pdf',
      size: pdf.length,
      location: `${publicBaseUrl(ctx.config)}/files/${uploadId}`,
    });

    // Every status the task went through, each change once, in order.
    const changes = events.filter((e): e is TaskEvent => e.type === 'task.status_changed' && e.data.task.taskId === good);
    const chain: Array<number | null> = [null];
    let previous: number | null = null;
    const ordered = [...changes].sort((x, y) => x.timestamp.localeCompare(y.timestamp));
    for (const change of ordered) {
      expect(change.data.previousTaskStatus, `${change.data.previousTaskStatusText} -> ${change.data.task.taskStatusText}`).toBe(previous);
      previous = change.data.task.taskStatus;
      chain.push(previous);
    }
    expect(chain).toEqual([
      null,
      TaskStatus.QueuedForPreProcessing,
      TaskStatus.PreProcessingInProgress,
      TaskStatus.PreProcessingSuccessful,
      TaskStatus.Recognizing,
      TaskStatus.ToReview,
      TaskStatus.InReview,
      TaskStatus.ExportCompleted,
      TaskStatus.Processed,
    ]);
    const status = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/sdtask/status?taskId=${good}`, headers: t.headers });
    expect(ordered.at(-1)!.data.task).toEqual(status.json());

    const ready = events.filter((e) => e.type === 'task.ready_for_review');
    expect(ready.map((e) => e.type === 'task.ready_for_review' && [e.data.task.taskId, e.data.previousTaskStatus])).toEqual([[good, TaskStatus.Recognizing]]);
    const exported = events.filter((e) => e.type === 'task.export_completed');
    expect(exported.map((e) => e.type === 'task.export_completed' && [e.data.task.taskId, e.data.task.taskStatus])).toEqual([[good, TaskStatus.ExportCompleted]]);

    const failures = events.filter((e) => e.type === 'task.failed');
    expect(failures).toHaveLength(1);
    const failure = failures[0]!;
    expect(failure.type === 'task.failed' && failure.data).toMatchObject({
      previousTaskStatus: TaskStatus.PreProcessingInProgress,
      failureReason: failed.failureReason,
      task: { taskId: bad, batchId, taskStatus: TaskStatus.PreProcessingFailed, taskStatusText: 'PreProcessingFailed' },
    });
    expect(failed.failureReason).toBeTruthy();

    // The batch finished once, when both tasks had left processing.
    expect(events.filter((e) => e.type === 'batch.finished')).toHaveLength(1);
    expect(finished.type === 'batch.finished' && finished.data).toEqual({
      batch: { batchId, workspaceId: t.defaultWorkspaceId, displayName: 'webhooks', totalTasks: 2 },
      taskStatusCounts: [
        { taskStatus: TaskStatus.ToReview, taskStatusText: 'ToReview', count: 1 },
        { taskStatus: TaskStatus.PreProcessingFailed, taskStatusText: 'PreProcessingFailed', count: 1 },
      ],
    });

    // The history over the API: every delivery delivered at the first attempt, with what was sent.
    // The receiver answers before the worker records the outcome: wait for the last records.
    const { items, totalCount } = await waitFor(async () => {
      const recorded = await history(t, hook.webhookId);
      return recorded.items.some((item) => item.status === 'pending') ? undefined : recorded;
    }, 'every delivery recorded');
    expect(totalCount).toBe(events.length);
    for (const item of items) {
      expect(item).toMatchObject({ webhookId: hook.webhookId, status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptOn: null, lastError: null });
      expect(item.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null, responseBody: 'ok' })]);
      expect(item.payload).toEqual(events.find((e) => e.id === item.eventId));
      expect(item.eventType).toBe(item.payload.type);
    }
  });
});

describe('retries', () => {
  it('delivers to a receiver that fails and then recovers, on the retry schedule, with the same id and bytes each time', async () => {
    const t = await newTenant();
    const hook = await createHook(t, ['upload.completed'], 'flaky');
    receiver.script(hook.path, [
      { status: 503, body: 'busy' },
      { status: 500, body: 'still busy' },
    ]);
    await completeUpload(ctx, t, pdf);
    const requests = await receiver.waitForRequests(hook.path, 3);
    const [delivery] = await waitFor(
      async () => {
        const { items } = await history(t, hook.webhookId);
        return items[0]?.status === 'delivered' ? items : undefined;
      },
      'the delivery to be recorded as delivered',
    );
    expect(requests.map((r) => r.status)).toEqual([503, 500, 200]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const request of requests) verifiedEvent(request, hook.secret);

    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, nextAttemptOn: null });
    const log = delivery!.attemptLog as Array<{ attempt: number; statusCode: number; responseBody: string; attemptedOn: string }>;
    expect(log.map((a) => [a.attempt, a.statusCode, a.responseBody])).toEqual([
      [1, 503, 'busy'],
      [2, 500, 'still busy'],
      [3, 200, 'ok'],
    ]);
    // Each retry waited its delay of the schedule.
    for (let i = 1; i < log.length; i += 1) {
      expect(Date.parse(log[i]!.attemptedOn) - Date.parse(log[i - 1]!.attemptedOn)).toBeGreaterThanOrEqual(RETRY_DELAY_MS);
    }
    const endpoint = (await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers })).json();
    expect(endpoint).toMatchObject({ enabled: true, failingSince: null, disabledReason: null });
  });

  it('gives up after the last attempt of the schedule', async () => {
    const t = await newTenant();
    const hook = await createHook(t, ['upload.completed'], 'gone');
    receiver.always(hook.path, { status: 500, body: 'down' });
    await completeUpload(ctx, t, pdf);
    const [failed] = await waitFor(async () => {
      const { items } = await history(t, hook.webhookId);
      return items[0]?.status === 'failed' ? items : undefined;
    }, 'the delivery to fail');
    expect(failed).toMatchObject({ attempts: SCHEDULE.length + 1, lastStatusCode: 500, nextAttemptOn: null, lastError: null, deliveredOn: null });
    expect(failed!.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual(Array(SCHEDULE.length + 1).fill(500));
    expect(receiver.at(hook.path)).toHaveLength(SCHEDULE.length + 1);
    // Shorter than WEBHOOK_DISABLE_AFTER: failing, not disabled.
    const endpoint = (await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers })).json();
    expect(endpoint).toMatchObject({ enabled: true, disabledReason: null });
    expect(endpoint.failingSince).toBe(failed!.attemptLog[0].attemptedOn);
  });

  it('disables an endpoint failing for WEBHOOK_DISABLE_AFTER, with the reason; enabling and redelivering recovers', async () => {
    const t = await newTenant();
    const hook = await createHook(t, ['upload.completed'], 'down');
    receiver.always(hook.path, { status: 500, body: 'down' });
    const get = async () => (await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers })).json();
    await completeUpload(ctx, t, pdf);
    await waitFor(async () => ((await history(t, hook.webhookId)).items[0]?.status === 'failed' ? true : undefined), 'the first delivery to fail');
    const { failingSince } = await get();
    // An attempt failing once the endpoint has failed for longer than allowed disables it.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(failingSince) + DISABLE_AFTER_MS - Date.now())));
    await completeUpload(ctx, t, pdf);
    const disabled = await waitFor<Record<string, any>>(async () => {
      const shown = await get();
      return shown.enabled === false ? shown : undefined;
    }, 'the endpoint to be disabled');
    expect(disabled).toMatchObject({ failingSince, disabledReason: `Disabled by the service: every delivery attempt failed since ${failingSince} (last answer: HTTP 500). Fix the receiver, then enable the webhook again and redeliver what failed.` });
    expect(disabled.disabledOn).not.toBeNull();
    // The delivery under way stops at its next attempt.
    const [last, first] = await waitFor(async () => {
      const { items } = await history(t, hook.webhookId);
      return items[0]?.status === 'failed' ? items : undefined;
    }, 'the second delivery to stop');
    expect(last!.lastError).toBe('The webhook was disabled before this delivery succeeded');
    expect(last!.attempts).toBeLessThan(SCHEDULE.length + 1);
    const requestsSoFar = receiver.at(hook.path).length;
    expect(requestsSoFar).toBe(first!.attempts + last!.attempts);

    // While disabled: no new deliveries, and redelivery is refused.
    await completeUpload(ctx, t, pdf);
    expect((await history(t, hook.webhookId)).totalCount).toBe(2);
    const redeliver = () => ctx.app.inject({ method: 'POST', url: `${WEBHOOKS}/${hook.webhookId}/deliveries/${first!.deliveryId}/redeliver`, headers: t.headers });
    expectProblem(await redeliver(), 409, 'WebhookDisabled');

    receiver.always(hook.path, null);
    const enabled = await ctx.app.inject({ method: 'PATCH', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers, payload: { enabled: true } });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null, disabledOn: null, failingSince: null });
    const again = await redeliver();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ status: 'pending', attempts: 0, eventId: first!.eventId, attemptLog: [] });
    const [redelivered] = (await receiver.waitForRequests(hook.path, requestsSoFar + 1)).slice(requestsSoFar);
    expect(redelivered!.status).toBe(200);
    expect(redelivered!.headers['webhook-id']).toBe(first!.eventId);
    const latest = await waitFor(async () => {
      const { items } = await history(t, hook.webhookId);
      return items[0]?.status === 'delivered' ? items[0] : undefined;
    }, 'the redelivery to be recorded');
    expect(latest.deliveryId).toBe(again.json().deliveryId);
    expect(latest.payload).toEqual(first!.payload);
  });
});

describe('signatures', () => {
  it('carry the previous secret beside the new one after a rotation, so receivers switch without losing a delivery', async () => {
    const t = await newTenant();
    const hook = await createHook(t, ['upload.completed'], 'rotate');
    const rotated = await ctx.app.inject({ method: 'POST', url: `${WEBHOOKS}/${hook.webhookId}/rotate-secret`, headers: t.headers });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, previousSecretExpiresOn } = rotated.json();
    expect(secret).not.toBe(hook.secret);
    expect(Date.parse(previousSecretExpiresOn) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const shown = (await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers })).json();
    expect(shown.previousSecretExpiresOn).toBe(previousSecretExpiresOn);
    expect(shown).not.toHaveProperty('secret');

    await completeUpload(ctx, t, pdf);
    const [request] = await receiver.waitForRequests(hook.path, 1);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiedEvent(request!, secret).type).toBe('upload.completed');
    expect(verifiedEvent(request!, hook.secret).type).toBe('upload.completed');
    expect(() => verifiedEvent(request!, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow();
    // A body changed on the way fails verification.
    expect(() => verifiedEvent({ ...request!, body: request!.body.replace('upload.completed', 'upload.complete_') }, secret)).toThrow();
  });

  it('are what the reference library computes for the same message', async () => {
    const { signDelivery, newWebhookSecret } = await import('../src/modules/webhooks/webhook-signature.js');
    const secret = newWebhookSecret();
    const sentAt = new Date();
    const body = JSON.stringify({ hello: 'world' });
    const ours = signDelivery([secret], 'evt_1', sentAt, body);
    expect(ours['webhook-signature']).toBe(new Webhook(secret).sign('evt_1', sentAt, body));
  });
});

describe('events from any code path', () => {
  it('come from the database itself: a status changed by hand in SQL is delivered, with the failure reason', async () => {
    const t = await newTenant();
    const hook = await createHook(t, ['task.failed'], 'sql');
    const task = await seedDocumentTask(ctx, t);
    await ctx.prisma.$executeRaw`UPDATE "Task" SET "taskStatus" = ${TaskStatus.RecognitionFailed}, "failureReason" = 'set by hand' WHERE "id" = ${task.id}`;
    const event = await waitForEvent(hook, 'task.failed', (e) => e.type === 'task.failed');
    expect(event.type === 'task.failed' && event.data).toMatchObject({
      previousTaskStatus: TaskStatus.ToReview,
      previousTaskStatusText: 'ToReview',
      failureReason: 'set by hand',
      task: { taskId: task.id, taskStatus: TaskStatus.RecognitionFailed },
    });
  });

  it('tell batch.finished once per finish however many tasks note it, and again when the batch finishes again', async () => {
    const t = await newTenant();
    const hook = await createHook(t, ['batch.finished'], 'batch');
    const batchId = (await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/sdbatch`, headers: t.headers, payload: { displayName: 'three' } })).json().batchId as number;
    // Reprocessed, a task fails fast: its source is a text file.
    const inFlight = { taskStatus: TaskStatus.Recognizing, batchId, request: { context: { url: files.url('/notes.txt') } } };
    const tasks = [];
    for (let i = 0; i < 3; i += 1) tasks.push(await seedDocumentTask(ctx, t, { data: inFlight }));
    // Two leave processing in one statement, the third later: one finish, noted three times.
    await ctx.prisma.$executeRaw`UPDATE "Task" SET "taskStatus" = ${TaskStatus.ToReview} WHERE "id" IN (${tasks[0]!.id}, ${tasks[1]!.id})`;
    await ctx.prisma.$executeRaw`UPDATE "Task" SET "taskStatus" = ${TaskStatus.RecognitionFailed} WHERE "id" = ${tasks[2]!.id}`;
    await waitForEvent(hook, 'batch.finished', (e) => e.type === 'batch.finished');
    // A late note of the same finish (a second worker, a retried round) changes nothing.
    await ctx.prisma.webhookBatchCheck.create({ data: { tenantId: t.tenantId, batchId } });
    await waitFor(async () => ((await ctx.prisma.webhookBatchCheck.count({ where: { batchId } })) === 0 ? true : undefined), 'the note to be read');
    // The round that read it would have written its delivery in the same transaction.
    expect((await history(t, hook.webhookId)).totalCount).toBe(1);

    // Reprocessed, the batch is busy again; finished again, it is told again.
    const reprocess = await ctx.app.inject({ method: 'PATCH', url: `${EXTERNAL}/sdtask/restartprocessing?taskId=${tasks[2]!.id}`, headers: t.headers });
    expect(reprocess.statusCode, reprocess.body).toBe(204);
    await waitForFinalStatus(ctx, tasks[2]!.id);
    const second = await waitFor(async () => (eventsAt(hook).length >= 2 ? eventsAt(hook) : undefined), 'a second batch.finished');
    expect(second).toHaveLength(2);
    expect(second[0]!.id).not.toBe(second[1]!.id);
    expect((await history(t, hook.webhookId)).totalCount).toBe(2);
  });
});

describe('every attempt', () => {
  it('passes the SSRF guard at delivery time: a private address is refused without a request', async () => {
    const path = `/private/${randomUUID()}`;
    const result = await postWebhook(receiver.url(path), '{}', {}, { timeoutMs: 2000, allowPrivate: false });
    expect(result).toMatchObject({ statusCode: null, responseBody: null });
    expect(result.error).toMatch(/^refused-address: /);
    expect(receiver.at(path)).toHaveLength(0);
  });

  it('follows no redirect: a 3xx is a failed attempt and its target gets nothing', async () => {
    const path = `/moved/${randomUUID()}`;
    const target = `/target/${randomUUID()}`;
    receiver.always(path, { status: 307, headers: { location: receiver.url(target) } });
    const result = await postWebhook(receiver.url(path), '{}', {}, { timeoutMs: 2000, allowPrivate: true });
    expect(result.statusCode).toBe(307);
    expect(receiver.at(target)).toHaveLength(0);
  });
});

describe('endpoint management', () => {
  it('creates, lists, updates and deletes endpoints; refuses bad input with problem bodies', async () => {
    const t = await newTenant();
    const post = (payload: unknown) => ctx.app.inject({ method: 'POST', url: WEBHOOKS, headers: t.headers, payload: payload as object });
    expectProblem(await post({ url: receiver.url('/x'), eventTypes: [] }), 400);
    expectProblem(await post({ url: receiver.url('/x'), eventTypes: ['task.deleted'] }), 400);
    expectProblem(await post({ url: 'ftp://example.com/hook', eventTypes: ['task.failed'] }), 400);
    expectProblem(await post({ url: 'not a url', eventTypes: ['task.failed'] }), 400);
    expectProblem(await post({ url: receiver.url('/x'), eventTypes: ['task.failed'], description: 'x'.repeat(501) }), 400);
    expectProblem(await post({ url: 'http://unresolvable.invalid/hook', eventTypes: ['task.failed'] }), 422, 'WebhookUrlRefused');

    const created = await post({ url: receiver.url('/managed'), eventTypes: ['task.failed', 'task.failed', 'batch.finished'], description: 'ops', enabled: false });
    expect(created.statusCode, created.body).toBe(200);
    const hook = created.json();
    expect(hook).toMatchObject({ url: receiver.url('/managed'), eventTypes: ['task.failed', 'batch.finished'], description: 'ops', enabled: false, disabledReason: null });
    expect(hook.disabledOn).not.toBeNull();

    const list = await ctx.app.inject({ method: 'GET', url: WEBHOOKS, headers: t.headers });
    const { secret: _secret, ...shown } = hook;
    expect(list.json()).toEqual([shown]);

    const patch = (payload: unknown, id = hook.webhookId) => ctx.app.inject({ method: 'PATCH', url: `${WEBHOOKS}/${id}`, headers: t.headers, payload: payload as object });
    const updated = await patch({ url: receiver.url('/moved-here'), eventTypes: ['upload.completed'], enabled: true, description: null });
    expect(updated.json()).toMatchObject({ url: receiver.url('/moved-here'), eventTypes: ['upload.completed'], enabled: true, description: null, disabledOn: null });
    expectProblem(await patch({ eventTypes: [] }), 400);
    expectProblem(await patch({ url: 'http://unresolvable.invalid/' }), 422, 'WebhookUrlRefused');
    expectProblem(await patch({ enabled: true }, 2_147_483_000), 404);

    const removed = await ctx.app.inject({ method: 'DELETE', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers });
    expect(removed.statusCode).toBe(204);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${hook.webhookId}`, headers: t.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${WEBHOOKS}/${hook.webhookId}/deliveries`, headers: t.headers }), 404);
    expect((await ctx.app.inject({ method: 'GET', url: WEBHOOKS, headers: t.headers })).json()).toEqual([]);
  });

  it('allows 20 endpoints per organization', async () => {
    const t = await newTenant();
    for (let i = 0; i < 20; i += 1) {
      const res = await ctx.app.inject({ method: 'POST', url: WEBHOOKS, headers: t.headers, payload: { url: receiver.url(`/many/${i}`), eventTypes: ['task.failed'] } });
      expect(res.statusCode, res.body).toBe(200);
    }
    expectProblem(await ctx.app.inject({ method: 'POST', url: WEBHOOKS, headers: t.headers, payload: { url: receiver.url('/many/20'), eventTypes: ['task.failed'] } }), 422, 'WebhookLimitReached');
  });

  it("answers another organization's endpoints and deliveries as missing on every route, and leaves them as they were", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const hook = await createHook(a, ['upload.completed'], 'tenant-a');
    await completeUpload(ctx, a, pdf);
    await receiver.waitForRequests(hook.path, 1);
    const [delivery] = (await history(a, hook.webhookId)).items;
    const own = await createHook(b, ['upload.completed'], 'tenant-b');
    const before = await ctx.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.webhookId }, include: { deliveries: true } });

    const url = (suffix = '') => `${WEBHOOKS}/${hook.webhookId}${suffix}`;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', url()],
      ['PATCH', url(), { enabled: false, url: receiver.url('/stolen') }],
      ['DELETE', url()],
      ['POST', url('/rotate-secret')],
      ['GET', url('/deliveries')],
      ['POST', url(`/deliveries/${delivery!.deliveryId}/redeliver`)],
      ['POST', `${WEBHOOKS}/${own.webhookId}/deliveries/${delivery!.deliveryId}/redeliver`],
    ];
    for (const [method, target, payload] of attempts) {
      const res = await ctx.app.inject({ method: method as 'GET', url: target, headers: b.headers, ...(payload ? { payload: payload as object } : {}) });
      expectProblem(res, 404);
      expect(res.body).not.toContain(hook.path);
    }
    expect((await ctx.app.inject({ method: 'GET', url: WEBHOOKS, headers: b.headers })).json().map((h: { webhookId: number }) => h.webhookId)).toEqual([own.webhookId]);
    const after = await ctx.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.webhookId }, include: { deliveries: true } });
    expect(after).toEqual(before);
  });
});
