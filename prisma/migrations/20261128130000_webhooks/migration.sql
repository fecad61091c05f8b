-- Webhooks (DESIGN.md section 8): endpoints per organization, and an outbox of events written by
-- triggers in the transaction of the change that causes them, whatever code path (or hand-written
-- SQL) makes it. The worker dispatches the outbox to a BullMQ queue (src/pipeline/webhook-dispatch.ts)
-- and its sweep enqueues again what Redis lost, so an event is never lost once its change commits.

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "eventTypes" TEXT[] NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" TIMESTAMP(3),
    "failingSince" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "dedupeKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "endpointId" INTEGER NOT NULL,
    "eventId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "dispatchedAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "lastStatusCode" INTEGER,
    "lastDurationMs" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDeliveryAttempt" (
    "id" SERIAL NOT NULL,
    "deliveryId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attemptedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "responseBody" TEXT,

    CONSTRAINT "WebhookDeliveryAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookBatchCheck" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "batchId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookBatchCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_tenantId_idx" ON "WebhookEndpoint"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEvent_tenantId_dedupeKey_key" ON "WebhookEvent"("tenantId", "dedupeKey");

-- CreateIndex
CREATE INDEX "WebhookEvent_createdAt_idx" ON "WebhookEvent"("createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_id_idx" ON "WebhookDelivery"("endpointId", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- The dispatcher's query, every second on every worker: the pending deliveries no job has been
-- confirmed for. Partial, so it stays as small as that backlog.
CREATE INDEX "WebhookDelivery_undispatched_idx" ON "WebhookDelivery"("id") WHERE "status" = 'pending' AND "dispatchedAt" IS NULL;

-- CreateIndex
CREATE INDEX "WebhookDeliveryAttempt_deliveryId_attempt_idx" ON "WebhookDeliveryAttempt"("deliveryId", "attempt");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEvent" ADD CONSTRAINT "WebhookEvent_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDeliveryAttempt" ADD CONSTRAINT "WebhookDeliveryAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Statuses in which the service is still processing a task (a job is responsible for it): a
-- batch is finished when none of its tasks is in one. IMMUTABLE, so a query comparing with it
-- plans an index scan of ("batchId", "taskStatus") per status.
CREATE FUNCTION "webhook_in_flight_statuses"() RETURNS INTEGER[] LANGUAGE sql IMMUTABLE AS $$
  -- Recognizing, Deleting, QueuedForPreProcessing, PreProcessingInProgress, PreProcessingSuccessful
  SELECT ARRAY[1, 19, 30, 31, 34]
$$;

-- Timestamps are stored as UTC without a zone; events carry them as the API writes them.
CREATE FUNCTION "webhook_iso"(at TIMESTAMP) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- The event types any enabled endpoint of the organization wants; NULL when none.
CREATE FUNCTION "webhook_wanted_types"(tenant INTEGER) RETURNS TEXT[] LANGUAGE sql STABLE AS $$
  SELECT array_agg(DISTINCT wanted) FROM "WebhookEndpoint" e, unnest(e."eventTypes") wanted
  WHERE e."tenantId" = tenant AND e."enabled"
$$;

-- Writes one event and a pending delivery to every enabled endpoint of the organization that wants
-- its type; nothing when none does. A dedupe key makes a second emission of the same fact a
-- no-op. Returns the event id, or NULL when nothing was written.
CREATE FUNCTION "webhook_emit"(tenant INTEGER, event_type TEXT, payload JSONB, dedupe TEXT DEFAULT NULL) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  event_id TEXT;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."tenantId" = tenant AND e."enabled" AND event_type = ANY(e."eventTypes")) THEN
    RETURN NULL;
  END IF;
  INSERT INTO "WebhookEvent" ("id", "tenantId", "type", "data", "dedupeKey", "createdAt")
  VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''), tenant, event_type, payload, dedupe, clock_timestamp())
  ON CONFLICT ("tenantId", "dedupeKey") DO NOTHING
  RETURNING "id" INTO event_id;
  IF event_id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "WebhookDelivery" ("tenantId", "endpointId", "eventId", "nextAttemptAt", "createdAt")
  SELECT tenant, e."id", event_id, clock_timestamp(), clock_timestamp()
  FROM "WebhookEndpoint" e
  WHERE e."tenantId" = tenant AND e."enabled" AND event_type = ANY(e."eventTypes");
  RETURN event_id;
END;
$$;

-- The columns of a task's status answer (GET sdtask/status), as they are at the change.
CREATE FUNCTION "webhook_task_snapshot"(t "Task") RETURNS JSONB LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t."id",
    'workspaceId', t."workspaceId",
    'batchId', t."batchId",
    'taskNumber', t."taskNumber",
    'externalId', t."externalId",
    'displayName', t."displayName",
    'description', t."description",
    'createdAt', "webhook_iso"(t."createdAt"),
    'taskStatus', t."taskStatus",
    'integrationStatus', t."integrationStatus",
    'externalIntegrationStatus', t."externalIntegrationStatus",
    'totalPages', t."totalPages",
    'restartCount', t."restartCount",
    'preProcessingStartedOn', "webhook_iso"(t."preProcessingStartedOn"),
    'warning', t."warning"
  )
$$;

-- Task events, on every insert and every change of taskStatus. batch.finished is only noted here
-- (a task of the batch left processing); the dispatcher decides it after the commit, so a task
-- change never scans its batch nor waits on other tasks' transactions.
CREATE FUNCTION "webhook_task_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wanted TEXT[] := "webhook_wanted_types"(NEW."tenantId");
  previous INTEGER;
  task JSONB;
BEGIN
  IF wanted IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    previous := OLD."taskStatus";
  END IF;
  task := "webhook_task_snapshot"(NEW);
  IF 'task.status_changed' = ANY(wanted) THEN
    PERFORM "webhook_emit"(NEW."tenantId", 'task.status_changed', jsonb_build_object('previousTaskStatus', previous, 'task', task));
  END IF;
  IF NEW."taskStatus" = 3 AND 'task.ready_for_review' = ANY(wanted) THEN
    PERFORM "webhook_emit"(NEW."tenantId", 'task.ready_for_review', jsonb_build_object('previousTaskStatus', previous, 'task', task));
  END IF;
  IF NEW."taskStatus" = 5 AND 'task.export_completed' = ANY(wanted) THEN
    PERFORM "webhook_emit"(NEW."tenantId", 'task.export_completed', jsonb_build_object('previousTaskStatus', previous, 'task', task));
  END IF;
  -- RecognitionFailed, PreProcessingFailed, PreProcessingDownloadFailed, PreProcessingGetPagesFailed, ValidationErrorInvalidDimensions
  IF NEW."taskStatus" IN (2, 32, 33, 35, 36) AND 'task.failed' = ANY(wanted) THEN
    PERFORM "webhook_emit"(NEW."tenantId", 'task.failed',
      jsonb_build_object('previousTaskStatus', previous, 'failureReason', NEW."failureReason", 'task', task));
  END IF;
  IF NEW."batchId" IS NOT NULL AND 'batch.finished' = ANY(wanted)
     AND NOT (NEW."taskStatus" = ANY("webhook_in_flight_statuses"()))
     AND (previous IS NULL OR previous = ANY("webhook_in_flight_statuses"())) THEN
    INSERT INTO "WebhookBatchCheck" ("tenantId", "batchId") VALUES (NEW."tenantId", NEW."batchId");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Task_webhook_insert" AFTER INSERT ON "Task"
  FOR EACH ROW EXECUTE FUNCTION "webhook_task_events"();

CREATE TRIGGER "Task_webhook_status" AFTER UPDATE OF "taskStatus" ON "Task"
  FOR EACH ROW WHEN (OLD."taskStatus" IS DISTINCT FROM NEW."taskStatus")
  EXECUTE FUNCTION "webhook_task_events"();

-- upload.completed: a TUS upload received its last byte.
CREATE FUNCTION "webhook_upload_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "webhook_emit"(NEW."tenantId", 'upload.completed', jsonb_build_object('upload', jsonb_build_object(
    'id', NEW."id",
    'workspaceId', NEW."workspaceId",
    'fileType', NEW."fileType",
    'size', NEW."size",
    'completedAt', "webhook_iso"(NEW."completedAt")
  )));
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Upload_webhook_insert" AFTER INSERT ON "Upload"
  FOR EACH ROW WHEN (NEW."completedAt" IS NOT NULL)
  EXECUTE FUNCTION "webhook_upload_events"();

CREATE TRIGGER "Upload_webhook_completed" AFTER UPDATE OF "completedAt" ON "Upload"
  FOR EACH ROW WHEN (OLD."completedAt" IS NULL AND NEW."completedAt" IS NOT NULL)
  EXECUTE FUNCTION "webhook_upload_events"();
