-- A task's result is written in batches outside the transaction that publishes it (issue 12: one
-- transaction holding every page's chunks outgrew Prisma's 5 s limit at 200 pages). Each chunk
-- now says which run of its task (Task.restartCount) wrote it: a run's chunks are only read once
-- the run is the task's current one and its result is published, and publishing deletes the
-- chunks of other runs. Existing chunks belong to their task's current run.

-- AlterTable
ALTER TABLE "DocumentChunk" ADD COLUMN "restartCount" INTEGER NOT NULL DEFAULT 0;

UPDATE "DocumentChunk" c SET "restartCount" = t."restartCount" FROM "Task" t WHERE t.id = c."taskId" AND t."restartCount" <> 0;

-- DropIndex
DROP INDEX "DocumentChunk_taskId_chunkNumber_key";

-- CreateIndex
CREATE UNIQUE INDEX "DocumentChunk_taskId_restartCount_chunkNumber_key" ON "DocumentChunk"("taskId", "restartCount", "chunkNumber");
