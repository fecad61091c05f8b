-- The pages a task's model processes are decided once, at pre-processing (pageRange, then the
-- 200-page OCR cap), and kept here; detect reads them instead of applying the rules again, and
-- totalPages (the free volume a task consumes) counts them. Tasks pre-processed before this
-- column have it null and detect works their pages out as it used to.

-- AlterTable
ALTER TABLE "Task" ADD COLUMN "processedPageRange" TEXT;
