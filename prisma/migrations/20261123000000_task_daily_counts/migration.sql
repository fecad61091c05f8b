-- Exact list totals without counting every task: per-day task counts kept by triggers.
-- GET sdtask/statuslistpaginated sums whole days from here and counts only the partial first
-- and last day in "Task" (see countTasks in src/modules/tasks/tasks.repository.ts).

-- CreateTable
CREATE TABLE "TaskDailyCount" (
    "tenantId" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "taskStatus" INTEGER NOT NULL,
    "integrationStatus" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TaskDailyCount_pkey" PRIMARY KEY ("tenantId","day","workspaceId","taskStatus","integrationStatus")
);

-- CreateIndex
CREATE INDEX "Task_tenantId_displayName_id_idx" ON "Task"("tenantId", "displayName", "id");

-- CreateIndex
CREATE INDEX "Task_tenantId_taskNumber_id_idx" ON "Task"("tenantId", "taskNumber", "id");

CREATE FUNCTION "task_daily_count_add"(tenant INTEGER, task_day DATE, workspace INTEGER, status INTEGER, integration INTEGER, delta INTEGER)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO "TaskDailyCount" ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus", "count")
  VALUES (tenant, task_day, workspace, status, integration, delta)
  ON CONFLICT ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus")
  DO UPDATE SET "count" = "TaskDailyCount"."count" + EXCLUDED."count";
$$;

CREATE FUNCTION "task_daily_count_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "task_daily_count_add"(NEW."tenantId", NEW."createdAt"::date, NEW."workspaceId", NEW."taskStatus", NEW."integrationStatus", 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "task_daily_count_add"(OLD."tenantId", OLD."createdAt"::date, OLD."workspaceId", OLD."taskStatus", OLD."integrationStatus", -1);
  -- Two count rows change: always in the same order, so concurrent status moves cannot deadlock.
  ELSIF (OLD."taskStatus", OLD."integrationStatus", OLD."workspaceId", OLD."createdAt"::date, OLD."tenantId")
      < (NEW."taskStatus", NEW."integrationStatus", NEW."workspaceId", NEW."createdAt"::date, NEW."tenantId") THEN
    PERFORM "task_daily_count_add"(OLD."tenantId", OLD."createdAt"::date, OLD."workspaceId", OLD."taskStatus", OLD."integrationStatus", -1);
    PERFORM "task_daily_count_add"(NEW."tenantId", NEW."createdAt"::date, NEW."workspaceId", NEW."taskStatus", NEW."integrationStatus", 1);
  ELSE
    PERFORM "task_daily_count_add"(NEW."tenantId", NEW."createdAt"::date, NEW."workspaceId", NEW."taskStatus", NEW."integrationStatus", 1);
    PERFORM "task_daily_count_add"(OLD."tenantId", OLD."createdAt"::date, OLD."workspaceId", OLD."taskStatus", OLD."integrationStatus", -1);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "task_daily_count_insert_delete" AFTER INSERT OR DELETE ON "Task"
  FOR EACH ROW EXECUTE FUNCTION "task_daily_count_trigger"();

CREATE TRIGGER "task_daily_count_update" AFTER UPDATE OF "tenantId", "workspaceId", "createdAt", "taskStatus", "integrationStatus" ON "Task"
  FOR EACH ROW
  WHEN ((OLD."tenantId", OLD."workspaceId", OLD."createdAt"::date, OLD."taskStatus", OLD."integrationStatus")
        IS DISTINCT FROM (NEW."tenantId", NEW."workspaceId", NEW."createdAt"::date, NEW."taskStatus", NEW."integrationStatus"))
  EXECUTE FUNCTION "task_daily_count_trigger"();

-- Backfill from the tasks that already exist.
INSERT INTO "TaskDailyCount" ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus", "count")
SELECT "tenantId", "createdAt"::date, "workspaceId", "taskStatus", "integrationStatus", COUNT(*)::int
FROM "Task"
GROUP BY 1, 2, 3, 4, 5;
