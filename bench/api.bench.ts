/**
 * API benchmark at scale: one organization with 1,000,000 tasks in a database of its own
 * (docproc_bench), the real app listening on 127.0.0.1, and a bounded closed-loop HTTP client in
 * a child process. Prints requests/s and p50/p99 latency per scenario beside the targets and, for
 * every missed target, EXPLAIN (ANALYZE, BUFFERS) of the SQL Prisma issues for it.
 *
 *   npm run bench:api          (DATABASE_URL / REDIS_URL, else the embedded ones of `npm start`)
 *   BENCH_TASKS=1000000 BENCH_CONCURRENCY=8 BENCH_SECONDS=10   (the defaults)
 *   BENCH_ONLY=status          (only the scenarios whose name contains it, e.g. to profile one)
 */
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/migrate.js';
import type { Services } from '../src/runtime/services.js';
import { benchConfig, createBenchServices, openBenchInfrastructure } from './lib/infra.js';
import { investigateMisses } from './lib/investigate.js';
import type { LoadPlan } from './lib/protocol.js';
import { formatErrors, formatTable } from './lib/report.js';
import { runLoad } from './lib/run-load.js';
import { benchScenarios, loadDeadlineSeconds, TARGET_P99_MS } from './lib/scenarios.js';
import { ensureBenchTenant, sampleTaskIds, seedTasks, type BenchTenant } from './lib/seed.js';

/** Existing ids the status load picks from at random. */
const ID_SAMPLE = 10_000;

interface Options {
  tasks: number;
  concurrency: number;
  seconds: number;
  only?: string;
}

function positiveEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

function readOptions(): Options {
  return {
    tasks: Math.floor(positiveEnv('BENCH_TASKS', 1_000_000)),
    concurrency: Math.floor(positiveEnv('BENCH_CONCURRENCY', 8)),
    seconds: positiveEnv('BENCH_SECONDS', 10),
    ...(process.env.BENCH_ONLY ? { only: process.env.BENCH_ONLY } : {}),
  };
}

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Seeds (or reuses) the tasks; returns how many the organization has. */
async function seed(databaseUrl: string, tenant: BenchTenant, tasks: number): Promise<number> {
  say(`seeding: organization ${tenant.tenantId}, workspaces ${tenant.workspaceIds.join(', ')}, target ${tasks} tasks`);
  const report = await seedTasks(databaseUrl, tenant, tasks);
  if (report.inserted === 0) say(`seeding: reused ${report.existing} existing tasks (checked and vacuumed in ${report.seconds.toFixed(2)} s)`);
  else say(`seeding: inserted ${report.inserted} tasks (had ${report.existing}) in ${report.seconds.toFixed(1)} s, VACUUM included`);
  return report.existing + report.inserted;
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

async function requestToken(baseUrl: string, tenant: BenchTenant): Promise<string> {
  const response = await fetch(`${baseUrl}/connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'WebAPI', client_id: tenant.clientId, client_secret: tenant.clientSecret }),
  });
  if (!response.ok) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The app as `serve` runs it (logger off), loaded over HTTP; prints the table and the plans of misses. */
async function loadApp(services: Services, databaseUrl: string, tenant: BenchTenant, taskCount: number, options: Options): Promise<void> {
  const scenarios = benchScenarios(options).filter((sc) => !options.only || sc.name.includes(options.only));
  if (scenarios.length === 0) throw new Error(`BENCH_ONLY=${options.only} matches no scenario`);
  const taskIds = await sampleTaskIds(databaseUrl, tenant.tenantId, ID_SAMPLE);
  const app = await buildApp(services);
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const plan: LoadPlan = { baseUrl, token: await requestToken(baseUrl, tenant), taskIds, scenarios };
    say(`machine: ${await describeMachine(databaseUrl)}`);
    say(`load: ${baseUrl}, concurrency ${options.concurrency}, up to ${options.seconds} s per scenario after a warm-up`);
    const results = await runLoad(plan, loadDeadlineSeconds(scenarios), (name) => say(`  running: ${name}`));
    const rows = scenarios.map((scenario, i) => ({ scenario, result: results[i]! }));
    say(`\nResults at ${taskCount} tasks (targets, at 1M tasks on 2 cores: list p99 < ${TARGET_P99_MS.list} ms, status p99 < ${TARGET_P99_MS.status} ms)\n`);
    say(formatTable(rows));
    for (const line of formatErrors(rows)) say(line);
    for (const line of await investigateMisses(rows, databaseUrl, tenant.tenantId, taskIds[0]!)) say(line);
  } finally {
    await app.close();
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
      const taskCount = await seed(infra.databaseUrl, tenant, options.tasks);
      await loadApp(services, infra.databaseUrl, tenant, taskCount, options);
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
