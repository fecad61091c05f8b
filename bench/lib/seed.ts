import pg from 'pg';
import type { PrismaClient } from '../../src/db/prisma.js';
import { IntegrationStatus, TaskStatus, TemplateType } from '../../src/domain/enums.js';
import { createTenant, createWorkspace, rotateClientSecret } from '../../src/modules/tenants/tenants.service.js';

/** Found again by name on later runs, which is what makes seeding idempotent. */
const BENCH_TENANT_NAME = 'docproc-bench: 1M tasks';
const WORKSPACE_COUNT = 3;
const EXTRA_WORKSPACES = [
  { name: 'Bench invoices', templateType: TemplateType.InvoicesUniversal },
  { name: 'Bench receipts', templateType: TemplateType.Receipts },
] as const;
const SECRET_TTL_DAYS = 30;

export interface BenchTenant {
  tenantId: number;
  clientId: string;
  clientSecret: string;
  /** Default workspace first. */
  workspaceIds: number[];
}

async function workspaceIdsOf(prisma: PrismaClient, tenantId: number): Promise<number[]> {
  const rows = await prisma.workspace.findMany({
    where: { tenantId },
    orderBy: [{ isDefault: 'desc' }, { id: 'asc' }],
    select: { id: true },
  });
  return rows.map((w) => w.id);
}

/**
 * The benchmark organization with three workspaces. Only a hash of a client secret is stored, so
 * a rerun cannot learn the old one: it rotates to a fresh secret instead.
 */
export async function ensureBenchTenant(prisma: PrismaClient): Promise<BenchTenant> {
  const existing = await prisma.tenant.findFirst({ where: { name: BENCH_TENANT_NAME }, orderBy: { id: 'asc' } });
  const credentials = existing
    ? await rotateClientSecret(prisma, existing.id, SECRET_TTL_DAYS)
    : await createTenant(prisma, {
        name: BENCH_TENANT_NAME,
        secretTtlDays: SECRET_TTL_DAYS,
        featureHighPriority: true,
        featureCustomFormValues: true,
      });
  const tenantId = credentials.tenantId;
  const present = await workspaceIdsOf(prisma, tenantId);
  for (const extra of EXTRA_WORKSPACES.slice(0, Math.max(0, WORKSPACE_COUNT - present.length))) {
    await createWorkspace(prisma, { tenantId, ...extra });
  }
  const workspaceIds = (await workspaceIdsOf(prisma, tenantId)).slice(0, WORKSPACE_COUNT);
  return { tenantId, clientId: credentials.clientId, clientSecret: credentials.clientSecret, workspaceIds };
}

/**
 * Share of each status among a year of tasks: most are long finished, a few are in flight or
 * failed. Tasks waiting in QueuedForPreProcessing are the backlog, seeded apart as the newest.
 */
const STATUS_MIX: ReadonlyArray<readonly [number, number]> = [
  [TaskStatus.Processed, 0.37],
  [TaskStatus.ExportCompleted, 0.2],
  [TaskStatus.ToReview, 0.15],
  [TaskStatus.InReview, 0.08],
  [TaskStatus.Deleted, 0.05],
  [TaskStatus.Split, 0.02],
  [TaskStatus.RecognitionFailed, 0.03],
  [TaskStatus.Recognizing, 0.01],
  [TaskStatus.PreProcessingInProgress, 0.01],
  [TaskStatus.PreProcessingSuccessful, 0.01],
  [TaskStatus.PreProcessingFailed, 0.02],
  [TaskStatus.PreProcessingDownloadFailed, 0.02],
  [TaskStatus.PreProcessingGetPagesFailed, 0.02],
  [TaskStatus.ValidationErrorInvalidDimensions, 0.01],
];

/** Among exported or processed tasks: mostly delivered, some pending or failed. */
const INTEGRATION_MIX: ReadonlyArray<readonly [number, number]> = [
  [IntegrationStatus.Successful, 0.8],
  [IntegrationStatus.Never, 0.1],
  [IntegrationStatus.Queued, 0.05],
  [IntegrationStatus.Failed, 0.05],
];

/**
 * A CASE expression picking a value of `mix` by the uniform number in `column`. Built from the
 * numeric tables above (never from input), so it is safe to splice into the statement.
 */
function weightedCase(column: string, mix: ReadonlyArray<readonly [number, number]>): string {
  let cumulative = 0;
  const arms = mix.map(([value, share]) => {
    cumulative += share;
    return `WHEN ${column} < ${cumulative.toFixed(6)} THEN ${value}`;
  });
  return `CASE ${arms.join(' ')} ELSE ${mix[0]![0]} END`;
}

/**
 * What a seeded slice of tasks looks like: when they were created (an interval ending now), their
 * status and their names. Built from the tables above and constants (never from input), so the
 * expressions are safe to splice into the statement.
 */
interface TaskSlice {
  name: string;
  span: string;
  /** SQL over the row's uniform random number `rs`. */
  status: string;
  /** SQL over the row number `g`. */
  displayName: string;
}

/** A year of traffic, ids and createdAt climbing together. */
const YEAR: TaskSlice = {
  name: 'year',
  span: '365 days',
  status: weightedCase('rs', STATUS_MIX),
  displayName: `'doc-' || substr(md5(g::text), 1, 12) || '.pdf'`,
};

/**
 * The backlog: tasks submitted in the last hour that wait for pre-processing, the newest rows of
 * the table. A burst of similarly named files that sort before the year's names: the worst case
 * for a list that walks the id or name order and skips them (such lists once took 194-258 ms p99
 * with 81k of them). The benchmark's own creates, named "bench create N", add to it run by run.
 */
const BACKLOG: TaskSlice = {
  name: 'backlog',
  span: '1 hour',
  status: String(TaskStatus.QueuedForPreProcessing),
  displayName: `'batch-scan-' || lpad(g::text, 7, '0') || '.pdf'`,
};

/**
 * One INSERT ... SELECT over generate_series: row g goes to workspace (g-1) % 3 with the next
 * number of that workspace, createdAt climbs over the slice's span up to now as ids do (jitter of
 * a minute), every fifth task has an externalId. Numbers continue from each workspace's
 * nextTaskNumber, so a partial earlier seed (or earlier benchmark creates) never collide.
 */
function insertTasksSql(slice: TaskSlice): string {
  const finished = `${TaskStatus.ExportCompleted}, ${TaskStatus.Processed}`;
  const queued = TaskStatus.QueuedForPreProcessing;
  return `
    WITH ws AS (
      SELECT array_agg(id ORDER BY ord) AS ids, array_agg("nextTaskNumber" ORDER BY ord) AS next
        FROM "Workspace" JOIN unnest($2::int[]) WITH ORDINALITY AS w(wid, ord) ON id = wid
    ),
    rows AS (
      SELECT g,
             1 + (g - 1) % cardinality(ws.ids) AS slot,
             (g - 1) / cardinality(ws.ids) AS step,
             (now() AT TIME ZONE 'UTC') - interval '${slice.span}'
               + interval '${slice.span}' * ((g - 1)::float8 / $3::int) + interval '1 minute' * random() AS created,
             -- Drawn once per row: a CASE over random() itself would draw again at every WHEN.
             random() AS rs,
             random() AS ri,
             random() AS rp
        FROM generate_series(1, $3::int) AS g, ws
    )
    INSERT INTO "Task" ("tenantId", "workspaceId", "taskNumber", "externalId", "displayName", "description",
                        "createdAt", "updatedAt", "taskStatus", "statusChangedAt", "integrationStatus",
                        "externalIntegrationStatus", "totalPages", "priority", "preProcessingStartedOn", "request")
    SELECT $1, ws.ids[slot], ws.next[slot] + step,
           CASE WHEN g % 5 = 0 THEN 'bench-' || $4::text || '-' || g END,
           ${slice.displayName},
           CASE WHEN g % 7 = 0 THEN 'Seeded by the API benchmark' END,
           created, created + interval '2 hours', status, created + interval '1 hour',
           integration,
           CASE integration WHEN ${IntegrationStatus.Successful} THEN 'delivered'
                            WHEN ${IntegrationStatus.Failed} THEN 'error' ELSE 'never' END,
           CASE WHEN status = ${queued} THEN 0 ELSE 1 + (rp * 24)::int END,
           CASE WHEN g % 10 = 0 THEN 2 ELSE 1 END,
           CASE WHEN status = ${queued} THEN NULL ELSE created + interval '5 seconds' END,
           jsonb_build_object(
             'context', jsonb_build_object('url', 'https://files.example.com/inbox/' || md5(g::text) || '.pdf'),
             'customFormValues', NULL, 'useHigherQuality', false, 'priority', CASE WHEN g % 10 = 0 THEN 2 ELSE 1 END)
      FROM rows, ws,
           LATERAL (SELECT ${slice.status} AS status) AS s,
           LATERAL (SELECT CASE WHEN status IN (${finished}) THEN ${weightedCase('ri', INTEGRATION_MIX)}
                                ELSE ${IntegrationStatus.Never} END AS integration) AS i`;
}

/** Creates continue each workspace's sequence after the seeded numbers. */
const ADVANCE_TASK_NUMBERS_SQL = `
  UPDATE "Workspace" w
     SET "nextTaskNumber" = COALESCE((SELECT max("taskNumber") FROM "Task" t WHERE t."workspaceId" = w.id), 0) + 1
   WHERE w."tenantId" = $1`;

export interface SeedTarget {
  /** Tasks the organization should have at least. */
  tasks: number;
  /** Of them, at least this many waiting in QueuedForPreProcessing (the newest ones). */
  backlog: number;
}

export interface SeedReport {
  existing: number;
  /** Tasks of the year's mix inserted now. */
  inserted: number;
  /** Queued tasks added now to reach the backlog. */
  backlogInserted: number;
  /** Tasks in QueuedForPreProcessing after seeding. */
  queued: number;
  /** Time to count (reuse) or insert, advance numbers and vacuum (seed). */
  seconds: number;
}

async function countTasks(client: pg.Client, tenantId: number, status?: number): Promise<number> {
  const result = await client.query<{ n: string }>(
    'SELECT count(*) AS n FROM "Task" WHERE "tenantId" = $1 AND ($2::int IS NULL OR "taskStatus" = $2::int)',
    [tenantId, status ?? null],
  );
  return Number(result.rows[0]!.n);
}

/** The year's slice first, then the backlog: its rows must be the newest. */
async function insertTasks(client: pg.Client, tenant: BenchTenant, slices: ReadonlyArray<readonly [TaskSlice, number]>): Promise<void> {
  await client.query('BEGIN');
  try {
    // Holds off concurrent creates in these workspaces while their numbers are being taken.
    await client.query('SELECT 1 FROM "Workspace" WHERE id = ANY($1::int[]) FOR UPDATE', [tenant.workspaceIds]);
    await client.query('SELECT setseed(0.42)'); // the same spread on every fresh seed
    for (const [slice, count] of slices) {
      if (count === 0) continue;
      await client.query(insertTasksSql(slice), [tenant.tenantId, tenant.workspaceIds, count, `${slice.name}-${Date.now().toString(36)}`]);
      await client.query(ADVANCE_TASK_NUMBERS_SQL, [tenant.tenantId]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

/**
 * Brings the tenant to `target` (a no-op when it has them): the year's mix, then the backlog of
 * queued tasks as the newest rows. Then it leaves the tables as a year of traffic under
 * autovacuum would have: VACUUM rather than a bare ANALYZE, because besides statistics it sets
 * the visibility map and reclaims what earlier runs' creates left behind. It runs on every start
 * since autovacuum may be off (this project's CI machines run without it), and the list counts
 * read "TaskDailyCount", which every create updates.
 */
export async function seedTasks(databaseUrl: string, tenant: BenchTenant, target: SeedTarget): Promise<SeedReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    const existing = await countTasks(client, tenant.tenantId);
    const queued = await countTasks(client, tenant.tenantId, TaskStatus.QueuedForPreProcessing);
    const backlogInserted = Math.max(0, target.backlog - queued);
    const inserted = Math.max(0, target.tasks - existing - backlogInserted);
    if (inserted + backlogInserted > 0) {
      await insertTasks(client, tenant, [
        [YEAR, inserted],
        [BACKLOG, backlogInserted],
      ]);
      // One transaction updated each count row thousands of times, leaving ~50 MB of dead row
      // versions around 23k live rows (list p99 150 ms instead of 50); traffic spread over a
      // year would never pile them up like that.
      await client.query('VACUUM (FULL) "TaskDailyCount"');
    }
    await client.query('VACUUM (ANALYZE) "Task", "TaskDailyCount"');
    return { existing, inserted, backlogInserted, queued: queued + backlogInserted, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** Ids that exist, spread over the whole table, for the status-by-id load. */
export async function sampleTaskIds(databaseUrl: string, tenantId: number, count: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ id: number }>(
      // A full scan, but once per run; a block sample cut by LIMIT would favour the oldest rows.
      'SELECT id FROM "Task" WHERE "tenantId" = $1 ORDER BY random() LIMIT $2',
      [tenantId, count],
    );
    return result.rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}
