/**
 * The webhook job: one attempt of one delivery. The attempt is claimed in Postgres first (the
 * delivery's attempt count moves on), so a duplicate job, or a job of an attempt already made,
 * changes nothing. The receiver's answer is recorded with the attempt; a failure schedules the
 * next attempt on the configured schedule (a new delayed job), and an endpoint whose every
 * attempt failed for WEBHOOK_DISABLE_AFTER is disabled with the reason. Our own failures (Postgres
 * down) are rethrown for BullMQ to retry; an attempt lost that way is made again by the sweep.
 */
import http from 'node:http';
import https from 'node:https';
import { inTransaction } from '../db/prisma.js';
import { renderEvent } from '../modules/webhooks/webhook-events.js';
import {
  clearEndpointFailing,
  disableEndpoint,
  findDeliveryWithEndpoint,
  insertDeliveryAttempt,
  noteEndpointFailing,
  updatePendingDelivery,
} from '../modules/webhooks/webhook-outbox.repository.js';
import { signDelivery } from '../modules/webhooks/webhook-signature.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { enqueueWebhookAttempt, type WebhookJobPayload } from '../queues/queues.js';
import { assertPublicHttpUrl, pinnedLookup, SourceUnreachableError } from '../net/url-guard.js';

type Deps = Pick<PipelineDeps, 'prisma' | 'config' | 'queues' | 'log'>;

/** The answer kept for the organization's debugging. */
const RESPONSE_BODY_BYTES = 1024;
/** An attempt that never reports (its process died) is made again this long after its timeout. */
const LOST_ATTEMPT_MARGIN_MS = 60_000;

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

/** Postgres text holds no NUL; a receiver may answer anything. */
function storable(text: string): string {
  return text.replaceAll('\u0000', '');
}

function describeFailure(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timeout: no answer within ${timeoutMs} ms`;
  if (err instanceof SourceUnreachableError) return `${err.reason}: ${err.message.replace('The source URL', 'The URL').replace('The host', 'The host of the URL')}`;
  const e = err as { code?: string; message?: string };
  return `network: ${e.code ?? e.message ?? String(err)}`;
}

/**
 * POSTs `body` to `url`: the SSRF guard on every attempt (DNS may have changed since the endpoint
 * was registered), connected to the address it vetted, redirects not followed (a 3xx is a failure).
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<AttemptResult> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const vetted = await assertPublicHttpUrl(url, { allowPrivate: options.allowPrivate, signal: controller.signal });
    const client = vetted.url.protocol === 'https:' ? https : http;
    const answer = await new Promise<{ statusCode: number; responseBody: string }>((resolve, reject) => {
      const request = client.request(vetted.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'docproc-webhooks',
          ...headers,
        },
        lookup: pinnedLookup(vetted),
        // A pooled socket may be connected to an address vetted for another request.
        agent: false,
        signal: controller.signal,
      });
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          response.destroy();
          resolve({ statusCode: response.statusCode ?? 0, responseBody: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES).toString('utf8') });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_BODY_BYTES) finish();
        });
        response.once('end', finish);
        // The status is what counts: an answer cut short after its head is still an answer.
        response.once('error', finish);
      });
      request.on('error', reject);
      request.end(body);
    });
    return { statusCode: answer.statusCode, durationMs: elapsed(), error: null, responseBody: storable(answer.responseBody) || null };
  } catch (err) {
    return { statusCode: null, durationMs: elapsed(), error: storable(describeFailure(err, controller.signal.aborted, options.timeoutMs)), responseBody: null };
  } finally {
    clearTimeout(timer);
  }
}

const isSuccess = (result: AttemptResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

export async function deliverWebhook(deps: Deps, job: WebhookJobPayload): Promise<void> {
  const delivery = await findDeliveryWithEndpoint(deps.prisma, job.tenantId, job.deliveryId);
  // Gone with its endpoint, finished, or this attempt already made: nothing to do.
  if (!delivery || delivery.status !== 'pending' || delivery.attempts !== job.attempt) return;
  const current = { deliveryId: delivery.id, attempts: job.attempt };
  const { endpoint } = delivery;
  if (!endpoint.enabled) {
    await updatePendingDelivery(deps.prisma, job.tenantId, current, {
      status: 'failed',
      nextAttemptAt: null,
      lastError: 'The webhook was disabled before this delivery succeeded',
    });
    return;
  }
  let body: string;
  try {
    body = JSON.stringify(renderEvent(delivery.event, deps.config));
  } catch (err) {
    // Retrying cannot fix an event that cannot be rendered: recorded, not retried forever.
    deps.log.error({ err, deliveryId: delivery.id, eventId: delivery.eventId }, 'webhook event not renderable');
    await updatePendingDelivery(deps.prisma, job.tenantId, current, { status: 'failed', nextAttemptAt: null, lastError: 'The event could not be rendered' });
    return;
  }
  const attemptedAt = new Date();
  const attempt = job.attempt + 1;
  // The running job is the one responsible for the attempt (dispatchedAt): the dispatcher leaves
  // the delivery alone until the outcome is recorded, and the sweep steps in only if it never is.
  const claimed = await updatePendingDelivery(deps.prisma, job.tenantId, current, {
    attempts: attempt,
    lastAttemptAt: attemptedAt,
    dispatchedAt: attemptedAt,
    nextAttemptAt: new Date(attemptedAt.getTime() + deps.config.WEBHOOK_TIMEOUT_MS + LOST_ATTEMPT_MARGIN_MS),
  });
  if (claimed === 0) return;

  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > attemptedAt) secrets.push(endpoint.previousSecret);
  const result = await postWebhook(endpoint.url, body, { ...signDelivery(secrets, delivery.eventId, attemptedAt, body) }, {
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: deps.config.SOURCE_URL_ALLOW_PRIVATE,
  });
  const next = await recordAttempt(deps, { tenantId: job.tenantId, deliveryId: delivery.id, endpointId: endpoint.id, attempt, attemptedAt }, result);
  deps.log.debug({ deliveryId: delivery.id, eventId: delivery.eventId, attempt, statusCode: result.statusCode, error: result.error, next }, 'webhook attempt');
  if (next) {
    const enqueued = await enqueueWebhookAttempt(deps.queues, { tenantId: job.tenantId, deliveryId: delivery.id, attempt, jobKey: delivery.jobKey }, next, (err) =>
      deps.log.warn({ err, deliveryId: delivery.id }, 'webhook retry not enqueued; the dispatcher will'),
    );
    if (enqueued) await updatePendingDelivery(deps.prisma, job.tenantId, { deliveryId: delivery.id, attempts: attempt }, { dispatchedAt: new Date() });
  }
}

/**
 * Stores the attempt and its consequences in one transaction: delivered, or the next attempt's
 * time (returned), or failed for good; the endpoint's run of failures, and its disabling.
 */
async function recordAttempt(
  deps: Deps,
  at: { tenantId: number; deliveryId: number; endpointId: number; attempt: number; attemptedAt: Date },
  result: AttemptResult,
): Promise<Date | null> {
  const now = new Date();
  const last = { lastStatusCode: result.statusCode, lastDurationMs: result.durationMs, lastError: result.error };
  const delay = deps.config.WEBHOOK_RETRY_SCHEDULE[at.attempt - 1];
  const next = !isSuccess(result) && delay !== undefined ? new Date(now.getTime() + delay) : null;
  await inTransaction(deps.prisma, async (tx) => {
    await insertDeliveryAttempt(tx, { deliveryId: at.deliveryId, attempt: at.attempt, attemptedAt: at.attemptedAt, ...result });
    const mine = { deliveryId: at.deliveryId, attempts: at.attempt };
    if (isSuccess(result)) {
      await updatePendingDelivery(tx, at.tenantId, mine, { ...last, status: 'delivered', deliveredAt: now, nextAttemptAt: null });
      await clearEndpointFailing(tx, at.tenantId, at.endpointId);
      return;
    }
    await updatePendingDelivery(
      tx,
      at.tenantId,
      mine,
      // A next attempt has no job yet: enqueued after the commit, or by the dispatcher.
      next ? { ...last, nextAttemptAt: next, dispatchedAt: null } : { ...last, status: 'failed', nextAttemptAt: null },
    );
    const endpoint = await noteEndpointFailing(tx, at.tenantId, at.endpointId, at.attemptedAt);
    if (endpoint?.enabled && now.getTime() - endpoint.failingSince.getTime() >= deps.config.WEBHOOK_DISABLE_AFTER) {
      const answer = result.statusCode !== null ? `HTTP ${result.statusCode}` : result.error;
      await disableEndpoint(
        tx,
        at.tenantId,
        at.endpointId,
        now,
        `Disabled by the service: every delivery attempt failed since ${endpoint.failingSince.toISOString()} (last answer: ${answer}). Fix the receiver, then enable the webhook again and redeliver what failed.`,
      );
      deps.log.info({ endpointId: at.endpointId, failingSince: endpoint.failingSince }, 'webhook endpoint disabled');
    }
  });
  return next;
}
