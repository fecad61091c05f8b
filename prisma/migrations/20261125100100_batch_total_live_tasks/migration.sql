-- Batch.totalTasks counts a batch's live tasks. Reprocessing a split original marks its earlier
-- parts Deleted, and until now they stayed in the count; recount the batches they inflated.

UPDATE "Batch" AS b
SET "totalTasks" = live.count
FROM (
  SELECT b2.id, COUNT(t.id)::int AS count
  FROM "Batch" AS b2
  LEFT JOIN "Task" AS t ON t."batchId" = b2.id AND t."taskStatus" <> 20
  GROUP BY b2.id
) AS live
WHERE live.id = b.id AND b."totalTasks" <> live.count;
