-- How far recognition of a document has got: the pages of the run read so far, written by the
-- detect stage at most about once a second while it reads (not once per page), and set to
-- totalPages when the result is published. Null for recordings and before the first page of a
-- run; a reprocess clears it.

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "pagesProcessed" INTEGER;

-- A webhook event's task is what GET sdtask/status shows right after the change: the snapshot
-- carries the status answer's new fields, failureReason and pagesProcessed, too.
CREATE OR REPLACE FUNCTION "webhook_task_snapshot"(t "Task") RETURNS JSONB LANGUAGE sql STABLE AS $$
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
    'pagesProcessed', t."pagesProcessed",
    'restartCount', t."restartCount",
    'preProcessingStartedOn', "webhook_iso"(t."preProcessingStartedOn"),
    'warning', t."warning",
    'failureReason', t."failureReason"
  )
$$;
