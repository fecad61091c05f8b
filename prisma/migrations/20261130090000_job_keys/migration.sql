-- Job keys: a random value, issued by this database when a row is written, in the id of every job
-- of the row (src/pipeline/queues.ts). Redis keeps finished jobs for a day and failed ones for a
-- week; a database recreated or restored from a backup issues the same row ids again, and another
-- database may share the Redis: with the row id alone, the new row's job id would be one Redis
-- already holds, its enqueue a no-op, and the row would never be processed.
--
-- A task takes a new key with every run (a reprocess sets one). Rows written before this migration
-- keep no key: their jobs, queued under the ids of before, still belong to them. Adding the column
-- first and its default after leaves those rows as they are (no rewrite of the tables).

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "jobKey" TEXT;
ALTER TABLE "Task" ALTER COLUMN "jobKey" SET DEFAULT (gen_random_uuid())::text;

-- AlterTable
ALTER TABLE "Invitation" ADD COLUMN "jobKey" TEXT;
ALTER TABLE "Invitation" ALTER COLUMN "jobKey" SET DEFAULT (gen_random_uuid())::text;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "jobKey" TEXT;
ALTER TABLE "WebhookDelivery" ALTER COLUMN "jobKey" SET DEFAULT (gen_random_uuid())::text;
