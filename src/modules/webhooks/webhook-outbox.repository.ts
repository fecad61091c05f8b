import type { Db } from '../../db/prisma.js';
import { Prisma } from '../../generated/prisma/client.js';

/**
 * The webhook outbox as the pipeline works it (pipeline/webhook-dispatch.ts, webhook-delivery.ts):
 * batch checks, events, deliveries and their attempts, endpoints' runs of failures. Queries named
 * `...AcrossTenants` serve the dispatcher and the sweep, which work every organization's outbox.
 */

/**
 * The organizations a cross-tenant query is limited to: all (undefined), or only those named (a
 * test sharing its database with other tests). The SQL condition on a table's "tenantId".
 */
function inScope(tenantIds: ReadonlySet<number> | undefined): Prisma.Sql {
  return tenantIds ? Prisma.sql`"tenantId" = ANY(${[...tenantIds]}::int[])` : Prisma.sql`true`;
}

/** Whether any batch check is noted. Across tenants: the dispatcher serves every organization. */
export async function anyBatchCheckNotedAcrossTenants(db: Db, tenantIds?: ReadonlySet<number>): Promise<boolean> {
  const [noted] = await db.$queryRaw<Array<{ any: boolean }>>`SELECT EXISTS (SELECT 1 FROM "WebhookBatchCheck" WHERE ${inScope(tenantIds)}) AS "any"`;
  return noted?.any ?? false;
}

/**
 * Consumes up to `limit` noted batch checks (rows another worker holds are skipped), returning each
 * batch once. Across tenants: the dispatcher serves every organization. Consumed in the caller's
 * transaction, so a crash before it commits leaves them for the next round.
 */
export function takeBatchChecksAcrossTenants(tx: Db, limit: number, tenantIds?: ReadonlySet<number>) {
  return tx.$queryRaw<Array<{ tenantId: number; batchId: number }>>`
    WITH taken AS (
      DELETE FROM "WebhookBatchCheck" WHERE "id" IN (
        SELECT "id" FROM "WebhookBatchCheck" WHERE ${inScope(tenantIds)} ORDER BY "id" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "tenantId", "batchId")
    SELECT DISTINCT "tenantId", "batchId" FROM taken`;
}

/** Whether a task of the batch is still in processing (the statuses the migration's function names). */
export async function isBatchInFlight(db: Db, tenantId: number, batchId: number): Promise<boolean> {
  const [probe] = await db.$queryRaw<Array<{ busy: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM "Task" WHERE "tenantId" = ${tenantId} AND "batchId" = ${batchId} AND "taskStatus" = ANY("webhook_in_flight_statuses"())) AS busy`;
  return probe?.busy ?? false;
}

/** The batch's tasks per status: how many, their runs (restarts) and the newest task id. */
export function countBatchTasksByStatus(db: Db, tenantId: number, batchId: number) {
  return db.$queryRaw<Array<{ taskStatus: number; count: number; restarts: number; lastId: number }>>`
    SELECT "taskStatus", count(*)::int AS count, sum("restartCount")::int AS restarts, max("id") AS "lastId"
    FROM "Task" WHERE "tenantId" = ${tenantId} AND "batchId" = ${batchId} GROUP BY "taskStatus" ORDER BY "taskStatus"`;
}

/**
 * Emits an event with its pending deliveries through the migration's `webhook_emit`; returns the
 * event's id, or null when the dedupe key was emitted before (or no endpoint wants it).
 */
export async function emitWebhookEvent(db: Db, tenantId: number, type: string, data: unknown, dedupeKey: string): Promise<string | null> {
  const [emit] = await db.$queryRaw<Array<{ eventId: string | null }>>`
    SELECT "webhook_emit"(${tenantId}, ${type}, ${JSON.stringify(data)}::jsonb, ${dedupeKey}) AS "eventId"`;
  return emit?.eventId ?? null;
}

/** Pending deliveries no job has been confirmed for, oldest first. Across tenants: the dispatcher serves every organization. */
export function findUndispatchedDeliveriesAcrossTenants(db: Db, limit: number, tenantIds?: ReadonlySet<number>) {
  return db.$queryRaw<Array<{ id: number; tenantId: number; attempts: number; jobKey: string | null; nextAttemptAt: Date | null }>>`
    SELECT "id", "tenantId", "attempts", "jobKey", "nextAttemptAt" FROM "WebhookDelivery"
    WHERE "status" = 'pending' AND "dispatchedAt" IS NULL AND ${inScope(tenantIds)} ORDER BY "id" LIMIT ${limit}`;
}

/**
 * Marks the deliveries whose job was enqueued as dispatched. Across tenants: the ids are those the
 * dispatcher's own query found. Only where the attempt is still the one enqueued: a job that
 * already ran has moved it on.
 */
export async function markDispatchedAcrossTenants(db: Db, enqueued: ReadonlyArray<{ id: number; attempts: number }>): Promise<void> {
  await db.$executeRaw`
    UPDATE "WebhookDelivery" AS d SET "dispatchedAt" = now()
    FROM unnest(${enqueued.map((c) => c.id)}::int[], ${enqueued.map((c) => c.attempts)}::int[]) AS c("id", "attempts")
    WHERE d."id" = c."id" AND d."attempts" = c."attempts" AND d."status" = 'pending' AND d."dispatchedAt" IS NULL`;
}

/**
 * Pending deliveries with a job dispatched whose attempt was due before `dueBefore`, after
 * `afterId` in id order. Across tenants unless `tenantId` is given: the sweep serves every
 * organization.
 */
export function findOverdueDispatchedDeliveriesAcrossTenants(db: Db, page: { afterId: number; take: number; dueBefore: Date; tenantId?: number }) {
  return db.webhookDelivery.findMany({
    where: {
      ...(page.tenantId === undefined ? {} : { tenantId: page.tenantId }),
      id: { gt: page.afterId },
      status: 'pending',
      dispatchedAt: { not: null },
      nextAttemptAt: { lt: page.dueBefore },
    },
    orderBy: { id: 'asc' },
    take: page.take,
    select: { id: true, tenantId: true, attempts: true, jobKey: true },
  });
}

/** Hands a dispatched delivery back to the dispatcher, if it is still at this attempt; whether it was. */
export async function clearDispatched(db: Db, tenantId: number, deliveryId: number, attempts: number): Promise<boolean> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, tenantId, status: 'pending', attempts, dispatchedAt: { not: null } },
    data: { dispatchedAt: null },
  });
  return count > 0;
}

/**
 * Deletes finished deliveries created before `before`, then events left without any, a bounded
 * number of each. Across tenants: history is pruned for every organization by the sweep.
 */
export async function pruneWebhookHistoryAcrossTenants(db: Db, before: Date): Promise<void> {
  await db.$executeRaw`
    DELETE FROM "WebhookDelivery" WHERE "id" IN (
      SELECT "id" FROM "WebhookDelivery" WHERE "createdAt" < ${before} AND "status" <> 'pending' LIMIT 5000)`;
  await db.$executeRaw`
    DELETE FROM "WebhookEvent" WHERE "id" IN (
      SELECT e."id" FROM "WebhookEvent" e
      WHERE e."createdAt" < ${before} AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e."id") LIMIT 5000)`;
}

/** A delivery with its endpoint and event, as a delivery job reads it. */
export function findDeliveryWithEndpoint(db: Db, tenantId: number, deliveryId: number) {
  return db.webhookDelivery.findFirst({
    where: { id: deliveryId, tenantId },
    include: { endpoint: true, event: true },
  });
}

/**
 * Updates a pending delivery only while it is at the attempt count given: a duplicate job, or one
 * of an attempt already made, changes nothing. Returns how many rows changed (0 or 1).
 */
export async function updatePendingDelivery(
  db: Db,
  tenantId: number,
  at: { deliveryId: number; attempts: number },
  data: Prisma.WebhookDeliveryUpdateManyMutationInput,
): Promise<number> {
  const { count } = await db.webhookDelivery.updateMany({ where: { id: at.deliveryId, tenantId, status: 'pending', attempts: at.attempts }, data });
  return count;
}

/**
 * Records one attempt of a delivery. The delivery was read under its organization by the job
 * (findDeliveryWithEndpoint), and the caller's transaction updates it under the organization too.
 */
export async function insertDeliveryAttempt(
  tx: Db,
  attempt: { deliveryId: number; attempt: number; attemptedAt: Date; statusCode: number | null; durationMs: number; error: string | null; responseBody: string | null },
): Promise<void> {
  await tx.webhookDeliveryAttempt.create({ data: attempt });
}

/** The endpoint's run of failures ends (a delivery succeeded). */
export async function clearEndpointFailing(db: Db, tenantId: number, endpointId: number): Promise<void> {
  await db.webhookEndpoint.updateMany({ where: { id: endpointId, tenantId, failingSince: { not: null } }, data: { failingSince: null } });
}

/** The endpoint's run of failures starts at `attemptedAt` unless one runs already; returns the run's start and whether the endpoint is enabled. */
export async function noteEndpointFailing(db: Db, tenantId: number, endpointId: number, attemptedAt: Date) {
  const [endpoint] = await db.$queryRaw<Array<{ failingSince: Date; enabled: boolean }>>`
    UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", ${attemptedAt})
    WHERE "id" = ${endpointId} AND "tenantId" = ${tenantId} RETURNING "failingSince", "enabled"`;
  return endpoint;
}

/** Disables an enabled endpoint with the reason shown to its organization. */
export async function disableEndpoint(db: Db, tenantId: number, endpointId: number, now: Date, reason: string): Promise<void> {
  await db.webhookEndpoint.updateMany({
    where: { id: endpointId, tenantId, enabled: true },
    data: { enabled: false, disabledAt: now, disabledReason: reason },
  });
}
