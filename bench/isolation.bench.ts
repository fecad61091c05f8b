/**
 * Isolation benchmark: does heavy document work stall the api? The app runs as `npm start` runs
 * it (src/main.ts dev: api and queue workers in one process), in a child process of its own. A
 * load client (another child) measures GET /health and GET sdtask/status, first at idle, then
 * while a 200-page text PDF and a 20-page scanned PDF are processed on the demo Layout workspace.
 * Goal: p99 under load at most 2x the idle p99 and under 50 ms. Also printed: how long
 * each document took and how it ended, the app's peak RSS, and any job lock the workers lost.
 *
 *   npm run bench:isolation      (DATABASE_URL, else the embedded Postgres of `npm start`)
 *   BENCH_SECONDS=30 BENCH_IDLE_SECONDS=10 BENCH_CONCURRENCY=2 BENCH_TEXT_PAGES=200 BENCH_SCANNED_PAGES=20   (defaults)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { nameOf, PROCESSING_ENDED_STATUSES, TaskStatus } from '../src/domain/enums.js';
import { startDevProcess, lockLossLines, startPrivateRedis, type DevProcess } from './lib/dev-process.js';
import { scannedProsePdf, prosePdf } from './lib/documents.js';
import { benchConfig, BENCH_RATE_LIMIT_PER_MINUTE, openBenchInfrastructure } from './lib/infra.js';
import type { Scenario, ScenarioResult } from './lib/protocol.js';
import { runLoad } from './lib/run-load.js';
import { say } from './lib/report.js';
import { serveSourceFiles } from './lib/source-files.js';
import { fetchToken } from '../test/support/http-token.js';
import { envNumber } from './lib/env.js';

/** A database of its own: the app's migrations and demo tenant, apart from docproc_bench's million tasks. */
const ISOLATION_DATABASE = 'docproc_isolation';
const API = '/api/v1.0/external';
const GOAL_RATIO = 2;
const GOAL_P99_MS = 50;

const options = {
  loadSeconds: envNumber('BENCH_SECONDS', 30, { allowZero: true }),
  idleSeconds: envNumber('BENCH_IDLE_SECONDS', 10, { allowZero: true }),
  concurrency: Math.max(1, Math.floor(envNumber('BENCH_CONCURRENCY', 2, { allowZero: true }))),
  textPages: Math.floor(envNumber('BENCH_TEXT_PAGES', 200, { allowZero: true })),
  scannedPages: Math.floor(envNumber('BENCH_SCANNED_PAGES', 20, { allowZero: true })),
};

const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : 'n/a');

interface Api {
  token: string;
  baseUrl: string;
}

/** Creates a task over HTTP in the running app: its id. */
async function postTask(api: Api, displayName: string, url: string): Promise<number> {
  const response = await fetch(`${api.baseUrl}${API}/sdtask/process`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ displayName, context: { url } }),
  });
  if (!response.ok) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { taskId: number }).taskId;
}

async function taskStatus(api: Api, taskId: number): Promise<number> {
  const response = await fetch(`${api.baseUrl}${API}/sdtask/status?taskId=${taskId}`, { headers: { authorization: `Bearer ${api.token}` } });
  if (!response.ok) throw new Error(`status failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { taskStatus: number }).taskStatus;
}

interface Outcome {
  status: number;
  /** Seconds from creation to the final status. */
  seconds: number;
}

/** Polls until the task reaches a final status (or `timeoutSeconds` pass). */
async function waitFinal(api: Api, taskId: number, createdAt: number, timeoutSeconds: number): Promise<Outcome> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const status = await taskStatus(api, taskId);
    if (PROCESSING_ENDED_STATUSES.has(status) || Date.now() > deadline) return { status, seconds: (performance.now() - createdAt) / 1000 };
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** /health and status measured at the same time, each by a load client of its own, for `seconds`. */
async function measure(api: Api, taskIds: number[], seconds: number, label: string): Promise<{ health: ScenarioResult; status: ScenarioResult }> {
  const scenario = (name: string, kind: 'health' | 'status'): Scenario => ({
    name: `${name} (${label})`,
    target: 'app',
    shape: { kind },
    concurrency: options.concurrency,
    warmup: { requests: 500, seconds: 1 },
    measure: { requests: 10_000_000, seconds },
  });
  const plan = (sc: Scenario) => ({ baseUrls: { app: api.baseUrl, peer: api.baseUrl }, token: api.token, taskIds, scenarios: [sc] });
  const deadline = seconds + 120;
  const [health, status] = await Promise.all([
    runLoad(plan(scenario('GET /health', 'health')), deadline, () => undefined),
    runLoad(plan(scenario('GET sdtask/status', 'status')), deadline, () => undefined),
  ]);
  return { health: health[0]!, status: status[0]! };
}

function resultRow(result: ScenarioResult): string {
  return [
    result.name.padEnd(36),
    String(result.requests).padStart(8),
    String(result.errors).padStart(7),
    result.requestsPerSecond.toFixed(0).padStart(8),
    result.p50Ms.toFixed(1).padStart(8),
    result.p99Ms.toFixed(1).padStart(8),
    result.maxMs.toFixed(0).padStart(8),
  ].join('  ');
}

function verdict(idle: ScenarioResult, load: ScenarioResult): string {
  const ratio = load.p99Ms / idle.p99Ms;
  const met = ratio <= GOAL_RATIO && load.p99Ms < GOAL_P99_MS && load.errors === 0;
  return `p99 ${load.p99Ms.toFixed(1)} ms under load vs ${idle.p99Ms.toFixed(1)} ms idle = ${ratio.toFixed(2)}x (goal <= ${GOAL_RATIO}x and < ${GOAL_P99_MS} ms${load.errors ? ', no errors' : ''}): ${met ? 'met' : 'MISSED'}`;
}

async function failureReasons(databaseUrl: string, taskIds: number[]): Promise<Map<number, string | null>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ id: number; failureReason: string | null }>('SELECT id, "failureReason" FROM "Task" WHERE id = ANY($1::int[])', [taskIds]);
    return new Map(rows.rows.map((r) => [r.id, r.failureReason]));
  } finally {
    await client.end();
  }
}

async function main() {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const config = await benchConfig();
  const infra = await openBenchInfrastructure(config, (line) => say(`infra: ${line}`), ISOLATION_DATABASE);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-isolation-'));
  const redis = await startPrivateRedis(path.join(dataDir, 'redis'));
  let app: DevProcess | undefined;
  const files = await serveSourceFiles({
    'warm.pdf': await prosePdf(2),
    ...(options.textPages > 0 ? { 'text.pdf': await prosePdf(options.textPages) } : {}),
    ...(options.scannedPages > 0 ? { 'scanned.pdf': await scannedProsePdf(options.scannedPages) } : {}),
  });
  try {
    const credentials = { clientId: 'isolation-bench', clientSecret: randomBytes(24).toString('base64url') };
    // What differs from a production start; everything else is the environment as `npm start` reads it.
    const settings: Record<string, string> = {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: redis?.url ?? infra.redisUrl,
      DATA_DIR: path.join(dataDir, 'data'),
      SEED_CLIENT_ID: credentials.clientId,
      SEED_CLIENT_SECRET: credentials.clientSecret,
      SOURCE_URL_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT_PER_MINUTE),
    };
    const logFile = path.join(tmpdir(), 'docproc-bench-isolation.log');
    app = await startDevProcess({ repoRoot, env: settings, logFile });
    const api: Api = { baseUrl: app.baseUrl, token: await fetchToken(app.baseUrl, credentials.clientId, credentials.clientSecret) };

    say(`isolation benchmark: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} before the run`);
    say(`app: src/main.ts dev (api + workers in one process, pid ${app.pid}), log in ${logFile} at LOG_LEVEL ${config.LOG_LEVEL}`);
    say('settings that differ from production:');
    say(`  database ${ISOLATION_DATABASE} (its own), DATA_DIR a temporary directory, ${redis ? 'a redis-server of its own (queues meet no other worker)' : `REDIS_URL ${infra.redisUrl} (no redis-server binary for a private one)`}`);
    say(`  SOURCE_URL_ALLOW_PRIVATE=true (sources on loopback), RATE_LIMIT_PER_MINUTE=${BENCH_RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')} (shipped 1,200: it would answer 429 to the load)`);
    say(`  load: /health and sdtask/status at concurrency ${options.concurrency} each, at the same time, closed loop, from two child processes`);

    // A small task first: the pipeline (and any engine thread) warmed up, and an id for status.
    const warmId = await postTask(api, 'isolation warm-up', files.url('warm.pdf'));
    const warm = await waitFinal(api, warmId, performance.now(), 300);
    say(`warm-up task ${warmId}: ${nameOf(TaskStatus, warm.status)} in ${warm.seconds.toFixed(1)} s`);
    const idlePeak = await app.peakRssBytes();

    say(`idle: measuring ${options.idleSeconds} s`);
    const idle = await measure(api, [warmId], options.idleSeconds, 'idle');

    const started = performance.now();
    const docs = [
      ...(options.textPages > 0
        ? [{ name: `${options.textPages}-page text PDF`, id: await postTask(api, `isolation ${options.textPages} text pages`, files.url('text.pdf')) }]
        : []),
      ...(options.scannedPages > 0
        ? [{ name: `${options.scannedPages}-page scanned PDF`, id: await postTask(api, `isolation ${options.scannedPages} scanned pages`, files.url('scanned.pdf')) }]
        : []),
    ];
    say(`load: ${docs.map((d) => `${d.name} (task ${d.id})`).join(' and ')} created; measuring ${options.loadSeconds} s`);
    const loaded = await measure(api, [warmId, ...docs.map((d) => d.id)], options.loadSeconds, 'while processing');
    const windowEnd = (performance.now() - started) / 1000;
    const outcomes = await Promise.all(docs.map((d) => waitFinal(api, d.id, started, 1800)));
    const reasons = await failureReasons(infra.databaseUrl, docs.map((d) => d.id));
    const peak = await app.peakRssBytes();
    const lockLines = await lockLossLines(logFile);

    say();
    say(`${'endpoint'.padEnd(36)}  ${'requests'.padStart(8)}  ${'errors'.padStart(7)}  ${'req/s'.padStart(8)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'max ms'.padStart(8)}`);
    for (const result of [idle.health, loaded.health, idle.status, loaded.status]) say(resultRow(result));
    for (const result of [idle.health, loaded.health, idle.status, loaded.status]) {
      if (result.firstError) say(`  ${result.name}: first error: ${result.firstError}`);
    }
    say();
    say(`GET /health:       ${verdict(idle.health, loaded.health)}`);
    say(`GET sdtask/status: ${verdict(idle.status, loaded.status)}`);
    say();
    for (const [i, doc] of docs.entries()) {
      const outcome = outcomes[i]!;
      const during = outcome.seconds >= windowEnd ? 'processing through the whole load window' : `finished ${outcome.seconds.toFixed(1)} s in, before the ${windowEnd.toFixed(0)} s load window ended`;
      const reason = reasons.get(doc.id);
      say(`${doc.name}: ${nameOf(TaskStatus, outcome.status)} after ${outcome.seconds.toFixed(1)} s (${during})${reason ? `: ${reason}` : ''}`);
    }
    say(`peak RSS of the app: ${mb(idlePeak)} after the warm-up task, ${mb(peak)} at the end (whole process, engine threads included)`);
    say(`job locks lost (log lines): ${lockLines.length}`);
    for (const line of lockLines.slice(0, 5)) say(`  ${line.slice(0, 300)}`);
  } finally {
    await app?.stop();
    await files.close();
    await redis?.stop();
    await infra.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
