/**
 * API benchmark at scale: one organization with 1,000,000 tasks in a database of its own
 * (docproc_bench), 80,000 of them a backlog waiting for pre-processing, the real app listening on
 * 127.0.0.1 as `serve` ships it (request logging at LOG_LEVEL, the per-client rate limiter on
 * every request), and a bounded closed-loop HTTP client in a child process. Each scenario runs
 * against the app, then against its peer: a bare Fastify + Prisma server doing the same database
 * work (bench/lib/peer.ts). Prints requests/s and p50/p99 latency per scenario beside the peer's
 * and the targets, the plan of every list's SQL with a check that it reads no more rows than its
 * page needs (the run fails when one does), and for every missed target EXPLAIN (ANALYZE,
 * BUFFERS) of the SQL behind it.
 *
 *   npm run bench:api          (DATABASE_URL / REDIS_URL, else the embedded ones of `npm start`)
 *   BENCH_TASKS=1000000 BENCH_BACKLOG=80000 BENCH_CONCURRENCY=8 BENCH_SECONDS=10   (the defaults)
 *   BENCH_ONLY=status          (only the scenarios whose name contains it, e.g. to profile one)
 *   LOG_LEVEL=silent           (the app without request logging; the report says so)
 */
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/migrate.js';
import type { Services } from '../src/runtime/services.js';
import { BENCH_LOG_FILE, BENCH_RATE_LIMIT_PER_MINUTE, benchConfig, benchLogger, createBenchServices, openBenchInfrastructure } from './lib/infra.js';
import { investigateMisses } from './lib/investigate.js';
import { startPeer } from './lib/peer.js';
import { checkListPlans } from './lib/plan-check.js';
import type { LoadPlan } from './lib/protocol.js';
import { formatErrors, formatTable, say } from './lib/report.js';
import { runLoad } from './lib/run-load.js';
import { benchScenarios, loadDeadlineSeconds, peerTwin, TARGET_CREATES_PER_SECOND, TARGET_P99_MS } from './lib/scenarios.js';
import { ensureBenchTenant, sampleTaskIds, seedTasks, type BenchTenant } from './lib/seed.js';
import { fetchToken } from '../test/support/http-token.js';
import { envNumber } from './lib/env.js';

/** Existing ids the status load picks from at random. */
const ID_SAMPLE = 10_000;

interface Options {
  tasks: number;
  backlog: number;
  concurrency: number;
  seconds: number;
  only?: string;
}

function readOptions(): Options {
  return {
    tasks: Math.floor(envNumber('BENCH_TASKS', 1_000_000)),
    // Lists were once measured with 81k tasks queued, the backlog of a busy day; 0 is allowed (no backlog).
    backlog: Math.floor(envNumber('BENCH_BACKLOG', 80_000, { allowZero: true })),
    concurrency: Math.floor(envNumber('BENCH_CONCURRENCY', 8)),
    seconds: envNumber('BENCH_SECONDS', 10),
    ...(process.env.BENCH_ONLY ? { only: process.env.BENCH_ONLY } : {}),
  };
}

/** Seeds (or reuses) the tasks; returns how many the organization has. */
async function seed(databaseUrl: string, tenant: BenchTenant, options: Options): Promise<number> {
  say(`seeding: organization ${tenant.tenantId}, workspaces ${tenant.workspaceIds.join(', ')}, target ${options.tasks} tasks, ${options.backlog} of them queued`);
  const report = await seedTasks(databaseUrl, tenant, { tasks: options.tasks, backlog: options.backlog });
  const added = report.inserted + report.backlogInserted;
  if (added === 0) say(`seeding: reused ${report.existing} existing tasks (checked and vacuumed in ${report.seconds.toFixed(2)} s)`);
  else say(`seeding: inserted ${report.inserted} tasks and ${report.backlogInserted} queued ones (had ${report.existing}) in ${report.seconds.toFixed(1)} s, VACUUM included`);
  say(`seeding: ${report.queued} tasks wait in QueuedForPreProcessing, the newest of the table`);
  return report.existing + added;
}

/**
 * What the numbers depend on besides the code: cores, what else is running (the load average;
 * other processes on a 2-core machine show up directly in the p99s) and Postgres memory settings.
 */
async function describeMachine(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const show = async (name: string) => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name];
    const version = (await show('server_version'))?.split(' ')[0];
    const load = loadavg()[0]!.toFixed(1);
    return `${availableParallelism()} cores, load average ${load} before the run; Postgres ${version}, shared_buffers ${await show('shared_buffers')}, work_mem ${await show('work_mem')}, autovacuum ${await show('autovacuum')}`;
  } finally {
    await client.end();
  }
}

/** How the app runs in this benchmark, next to how `serve` ships it. */
function describeApp(services: Services): string[] {
  const level = services.config.LOG_LEVEL;
  const logging =
    level === 'silent'
      ? 'logging: OFF (LOG_LEVEL=silent); shipped: info, a line per request in and out'
      : `logging: as shipped, pino at ${level} (a line per request in and out at info), to ${BENCH_LOG_FILE}`;
  return [
    `app: ${logging}`,
    `app: rate limiter as shipped on every request (Redis-backed), its ceiling raised from the shipped 1,200/min per client to ${BENCH_RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')}/min so that it admits the load`,
    'peer: bare Fastify + Prisma, same process model and load client, no logging, no rate limiter, no schemas (bench/lib/peer.ts)',
  ];
}

/**
 * The app as `serve` runs it and its peer, loaded over HTTP scenario by scenario (the app, then
 * the peer); prints the plans of the lists, the table and the plans of misses. False when a
 * list's plan read far more rows than its page needs.
 */
async function loadApp(services: Services, databaseUrl: string, tenant: BenchTenant, taskCount: number, options: Options): Promise<boolean> {
  const scenarios = benchScenarios(options).filter((sc) => !options.only || sc.name.includes(options.only));
  if (scenarios.length === 0) throw new Error(`BENCH_ONLY=${options.only} matches no scenario`);
  const taskIds = await sampleTaskIds(databaseUrl, tenant.tenantId, ID_SAMPLE);
  await writeFile(BENCH_LOG_FILE, '');
  const app = await buildApp(services, { logger: benchLogger(services.config) });
  const peer = await startPeer({
    databaseUrl,
    keys: services.keys,
    issuer: services.config.JWT_ISSUER,
    queues: services.queues,
    workspaceId: tenant.workspaceIds[0]!,
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const runs = scenarios.flatMap((sc) => [sc, peerTwin(sc)]);
    const plan: LoadPlan = { baseUrls: { app: baseUrl, peer: peer.url }, token: await fetchToken(baseUrl, tenant.clientId, tenant.clientSecret), taskIds, scenarios: runs };
    say(`machine: ${await describeMachine(databaseUrl)}`);
    for (const line of describeApp(services)) say(line);

    const checks = await checkListPlans(scenarios, databaseUrl, tenant.tenantId);
    if (checks.length) say(`\nPlans of the lists' SQL at the deepest page the load asks for (EXPLAIN ANALYZE, warm cache, no load):`);
    for (const check of checks) for (const line of check.lines) say(line);

    say(`\nload: app ${baseUrl}, peer ${peer.url}, concurrency ${options.concurrency}, up to ${options.seconds} s per scenario after a warm-up`);
    const results = await runLoad(plan, loadDeadlineSeconds(runs), (name) => say(`  running: ${name}`));
    const rows = scenarios.map((scenario, i) => ({ scenario, result: results[2 * i]!, peer: results[2 * i + 1]! }));
    say(
      `\nResults at ${taskCount} tasks (targets, at 1M tasks on 2 cores: creates >= ${TARGET_CREATES_PER_SECOND}/s with p99 < ${TARGET_P99_MS.create} ms, ` +
        `list p99 < ${TARGET_P99_MS.list} ms, status p99 < ${TARGET_P99_MS.status} ms; "vs peer" is app / peer)\n`,
    );
    say(formatTable(rows));
    for (const line of formatErrors(rows)) say(line);
    for (const line of await investigateMisses(rows, databaseUrl, tenant.tenantId, taskIds[0]!)) say(line);
    const failed = checks.filter((c) => c.failed);
    if (failed.length) say(`\nPLAN CHECK FAILED: ${failed.map((c) => c.scenario).join('; ')} read far more rows than their page needs (see the plans above)`);
    return failed.length === 0;
  } finally {
    await app.close();
    await peer.close();
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const config = await benchConfig();
  const infra = await openBenchInfrastructure(config, (line) => say(`infrastructure: ${line}`));
  try {
    await migrate(infra.databaseUrl);
    const services = await createBenchServices(config, infra);
    try {
      const tenant = await ensureBenchTenant(services.prisma);
      const taskCount = await seed(infra.databaseUrl, tenant, options);
      if (!(await loadApp(services, infra.databaseUrl, tenant, taskCount, options))) process.exitCode = 1;
    } finally {
      await services.close();
    }
  } finally {
    await infra.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
