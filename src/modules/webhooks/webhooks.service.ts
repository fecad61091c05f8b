import type { AppDeps } from '../../app-deps.js';
import { toPage, type Page } from '../../http/list-query.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { assertPublicHttpUrl, SourceUnreachableError } from '../../net/url-guard.js';
import { renderEvent } from './webhook-events.js';
import { newWebhookSecret } from './webhook-signature.js';
import {
  countEndpoints,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  insertRedelivery,
  listDeliveryPage,
  listEndpoints,
  replaceEndpointSecret,
  updateEndpoint,
  type DeliveryRow,
  type EndpointRow,
} from './webhooks.repository.js';
import type {
  CreateWebhookBody,
  CreatedWebhookResponse,
  DeliveryQuery,
  DeliveryResponse,
  RotatedSecretResponse,
  UpdateWebhookBody,
  WebhookEventType,
  WebhookResponse,
} from './webhooks.schemas.js';

type Deps = Pick<AppDeps, 'prisma' | 'config'>;

/** Endpoints an organization may have: enough for every integration, and a bound on each event's fan-out. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 20;
/** How long deliveries stay signed with the previous secret after a rotation, so receivers can switch without losing any. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

function toWebhookResponse(e: EndpointRow): WebhookResponse {
  return {
    webhookId: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes as WebhookEventType[],
    enabled: e.enabled,
    disabledOn: toIso(e.disabledAt),
    disabledReason: e.disabledReason,
    failingSince: toIso(e.failingSince),
    previousSecretExpiresOn: e.previousSecretExpiresAt && e.previousSecretExpiresAt > new Date() ? e.previousSecretExpiresAt.toISOString() : null,
    createdOn: e.createdAt.toISOString(),
    updatedOn: e.updatedAt.toISOString(),
  };
}

function toDeliveryResponse(d: DeliveryRow, deps: Deps): DeliveryResponse {
  return {
    deliveryId: d.id,
    webhookId: d.endpointId,
    eventId: d.eventId,
    eventType: d.event.type as WebhookEventType,
    status: d.status as DeliveryResponse['status'],
    attempts: d.attempts,
    nextAttemptOn: d.status === 'pending' ? toIso(d.nextAttemptAt) : null,
    lastAttemptOn: toIso(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastDurationMs: d.lastDurationMs,
    lastError: d.lastError,
    deliveredOn: toIso(d.deliveredAt),
    createdOn: d.createdAt.toISOString(),
    attemptLog: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      attemptedOn: a.attemptedAt.toISOString(),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      responseBody: a.responseBody,
    })),
    payload: renderEvent(d.event, deps.config),
  };
}

const refusals: Record<string, string> = {
  'invalid-url': 'must be an absolute http or https URL',
  'refused-address': 'points to a private, loopback or otherwise non-public address',
  network: 'has a host that could not be resolved',
  timeout: 'has a host that could not be resolved in time',
};

/** The SSRF guard of context.url, at creation for a clear answer; every delivery checks again. */
async function assertReceiverUrl(deps: Deps, url: string): Promise<void> {
  const signal = AbortSignal.timeout(deps.config.SOURCE_URL_CHECK_TIMEOUT_MS);
  try {
    await assertPublicHttpUrl(url, { allowPrivate: deps.config.SOURCE_URL_ALLOW_PRIVATE, signal });
  } catch (err) {
    const reason = err instanceof SourceUnreachableError ? err.reason : signal.aborted ? 'timeout' : undefined;
    if (reason === undefined) throw err;
    const message = refusals[reason] ?? 'cannot be used';
    throw new UnprocessableError(`url: ${message}`, { title: 'WebhookUrlRefused', errors: [{ field: 'url', message }], extensions: { reason }, cause: err });
  }
}

function webhookNotFound(webhookId: number): NotFoundError {
  return new NotFoundError(`Webhook ${webhookId} was not found`);
}

async function requireEndpoint(deps: Deps, tenantId: number, webhookId: number): Promise<EndpointRow> {
  const endpoint = await findEndpoint(deps.prisma, tenantId, webhookId);
  if (!endpoint) throw webhookNotFound(webhookId);
  return endpoint;
}

export async function createWebhook(deps: Deps, tenantId: number, body: CreateWebhookBody): Promise<CreatedWebhookResponse> {
  if ((await countEndpoints(deps.prisma, tenantId)) >= MAX_WEBHOOKS_PER_ORGANIZATION) {
    throw new UnprocessableError(`An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks; delete one first`, { title: 'WebhookLimitReached' });
  }
  await assertReceiverUrl(deps, body.url);
  const endpoint = await insertEndpoint(deps.prisma, {
    tenantId,
    url: body.url,
    eventTypes: body.eventTypes,
    enabled: body.enabled,
    description: body.description ?? null,
    secret: newWebhookSecret(),
  });
  return { ...toWebhookResponse(endpoint), secret: endpoint.secret };
}

export async function listWebhooks(deps: Deps, tenantId: number): Promise<WebhookResponse[]> {
  return (await listEndpoints(deps.prisma, tenantId)).map(toWebhookResponse);
}

export async function getWebhook(deps: Deps, tenantId: number, webhookId: number): Promise<WebhookResponse> {
  return toWebhookResponse(await requireEndpoint(deps, tenantId, webhookId));
}

export async function updateWebhook(deps: Deps, tenantId: number, webhookId: number, body: UpdateWebhookBody): Promise<WebhookResponse> {
  const current = await requireEndpoint(deps, tenantId, webhookId);
  if (body.url !== undefined && body.url !== current.url) await assertReceiverUrl(deps, body.url);
  // Enabling starts afresh (the service's reason and the failure run are cleared); disabling is the organization's own choice, with no reason.
  const enabling = body.enabled === true && !current.enabled;
  const disabling = body.enabled === false && current.enabled;
  const updated = await updateEndpoint(deps.prisma, tenantId, webhookId, {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.eventTypes !== undefined ? { eventTypes: body.eventTypes } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(enabling ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null } : {}),
    ...(disabling ? { enabled: false, disabledAt: new Date(), disabledReason: null } : {}),
  });
  if (!updated) throw webhookNotFound(webhookId);
  return toWebhookResponse(updated);
}

export async function deleteWebhook(deps: Deps, tenantId: number, webhookId: number): Promise<void> {
  if (!(await deleteEndpoint(deps.prisma, tenantId, webhookId))) throw webhookNotFound(webhookId);
}

export async function rotateWebhookSecret(deps: Deps, tenantId: number, webhookId: number): Promise<RotatedSecretResponse> {
  const current = await requireEndpoint(deps, tenantId, webhookId);
  const previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
  const secret = newWebhookSecret();
  // Guarded by the secret read: of two rotations at once, the second fails instead of dropping the first's secret unseen.
  if (!(await replaceEndpointSecret(deps.prisma, tenantId, webhookId, current.secret, { secret, previousSecretExpiresAt }))) {
    throw new ConflictError('The webhook changed during the rotation; rotate again', { title: 'WebhookChanged' });
  }
  return { webhookId, secret, previousSecretExpiresOn: previousSecretExpiresAt.toISOString() };
}

export async function listWebhookDeliveries(deps: Deps, tenantId: number, webhookId: number, q: DeliveryQuery): Promise<Page<DeliveryResponse>> {
  await requireEndpoint(deps, tenantId, webhookId);
  const { items, total } = await listDeliveryPage(deps.prisma, tenantId, webhookId, q);
  return toPage(items.map((d) => toDeliveryResponse(d, deps)), total, q.pageNumber, q.pageSize);
}

/**
 * Delivers a delivery's event to its endpoint again, as a new delivery with a retry schedule of
 * its own (the event keeps its id: receivers that already have it see a duplicate to drop).
 */
export async function redeliverWebhook(deps: Deps, tenantId: number, webhookId: number, deliveryId: number): Promise<DeliveryResponse> {
  const endpoint = await requireEndpoint(deps, tenantId, webhookId);
  const delivery = await findDelivery(deps.prisma, tenantId, webhookId, deliveryId);
  if (!delivery) throw new NotFoundError(`Delivery ${deliveryId} of webhook ${webhookId} was not found`);
  if (!endpoint.enabled) throw new ConflictError(`Webhook ${webhookId} is disabled; enable it first`, { title: 'WebhookDisabled' });
  return toDeliveryResponse(await insertRedelivery(deps.prisma, delivery), deps);
}
