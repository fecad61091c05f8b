import type { Db } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { DeliveryQuery } from './webhooks.schemas.js';

export type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;

export function countEndpoints(db: Db, tenantId: number) {
  return db.webhookEndpoint.count({ where: { tenantId } });
}

export function insertEndpoint(db: Db, data: { tenantId: number; url: string; eventTypes: string[]; enabled: boolean; description: string | null; secret: string }) {
  return db.webhookEndpoint.create({ data: { ...data, disabledAt: data.enabled ? null : new Date() } });
}

export function listEndpoints(db: Db, tenantId: number) {
  return db.webhookEndpoint.findMany({ where: { tenantId }, orderBy: { id: 'asc' } });
}

export function findEndpoint(db: Db, tenantId: number, endpointId: number) {
  return db.webhookEndpoint.findFirst({ where: { tenantId, id: endpointId } });
}

/** Updates the organization's endpoint; null when it has none with this id. */
export async function updateEndpoint(db: Db, tenantId: number, endpointId: number, data: Prisma.WebhookEndpointUpdateManyMutationInput) {
  const { count } = await db.webhookEndpoint.updateMany({ where: { tenantId, id: endpointId }, data });
  return count === 0 ? null : findEndpoint(db, tenantId, endpointId);
}

/**
 * Replaces the endpoint's secret, keeping the current one as the previous until it expires.
 * Guarded by the secret read (`current`): false when another rotation came first.
 */
export async function replaceEndpointSecret(
  db: Db,
  tenantId: number,
  endpointId: number,
  current: string,
  next: { secret: string; previousSecretExpiresAt: Date },
): Promise<boolean> {
  const { count } = await db.webhookEndpoint.updateMany({
    where: { tenantId, id: endpointId, secret: current },
    data: { secret: next.secret, previousSecret: current, previousSecretExpiresAt: next.previousSecretExpiresAt },
  });
  return count > 0;
}

/** Deletes the endpoint with its deliveries (cascade); false when the organization has none with this id. */
export async function deleteEndpoint(db: Db, tenantId: number, endpointId: number): Promise<boolean> {
  const { count } = await db.webhookEndpoint.deleteMany({ where: { tenantId, id: endpointId } });
  return count > 0;
}

const deliveryInclude = {
  event: true,
  attemptLog: { orderBy: { attempt: 'asc' } },
} as const satisfies Prisma.WebhookDeliveryInclude;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: typeof deliveryInclude }>;

/** One page of an endpoint's deliveries, newest first. */
export async function listDeliveryPage(db: Db, tenantId: number, endpointId: number, q: DeliveryQuery) {
  const where: Prisma.WebhookDeliveryWhereInput = { tenantId, endpointId, ...(q.status ? { status: q.status } : {}) };
  const [items, total] = await Promise.all([
    db.webhookDelivery.findMany({ where, include: deliveryInclude, orderBy: { id: 'desc' }, skip: (q.pageNumber - 1) * q.pageSize, take: q.pageSize }),
    db.webhookDelivery.count({ where }),
  ]);
  return { items, total };
}

export function findDelivery(db: Db, tenantId: number, endpointId: number, deliveryId: number) {
  return db.webhookDelivery.findFirst({ where: { tenantId, endpointId, id: deliveryId }, include: deliveryInclude });
}

/** A new pending delivery of an event already sent (the dispatcher picks it up). */
export function insertRedelivery(db: Db, delivery: { tenantId: number; endpointId: number; eventId: string }) {
  return db.webhookDelivery.create({
    data: { tenantId: delivery.tenantId, endpointId: delivery.endpointId, eventId: delivery.eventId, nextAttemptAt: new Date() },
    include: deliveryInclude,
  });
}
