/**
 * Infrastructure faults: Redis flushed or restarted empty, Postgres restarted or its sessions
 * killed, the network to Postgres dropped, the database recreated while Redis keeps its jobs. Every fault is made on a Postgres and a
 * redis-server of this file's own, never on the machine's shared services.
 */
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/migrate.js';
import { createPrisma } from '../src/db/prisma.js';
import { ensureDatabase } from '../src/dev/embedded-postgres.js';
import { TaskStatus } from '../src/domain/enums.js';
import { QueueName } from '../src/queues/queues.js';
import { SWEEP_LOCK_KEY } from '../src/pipeline/sweep-schedule.js';
import { startWorkers, type WorkerPool } from '../src/pipeline/worker.js';
import { createClientSecretCache, createServices, type Services } from '../src/runtime/services.js';
import { breakableConfig, startBreakableInfra, type BreakableInfra } from './support/breakable-infra.js';
import { createTestTenant, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { waitForFinalStatus } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { exited, startRole, waitFor } from './support/processes.js';
import { startTcpProxy } from './support/tcp-proxy.js';
import { createTask } from './support/tasks.js';

interface LogLine {
  time: number;
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The api and the workers of one process, as `npm start` wires them, on this file's own servers. */
interface Stack {
  services: Services;
  prisma: Services['prisma'];
  app: FastifyInstance;
  workers: WorkerPool;
  /** What the workers logged (debug and up). */
  logs: LogLine[];
  /** Every error that reached the api's error handler, as text (the causes of the answers). */
  errors: string[];
}

let infra: BreakableInfra;
let stack: Stack;
let files: FileServer;

/** Errors as text with what Prisma keeps of the driver's error (its Postgres code, its kind). */
function errorText(err: unknown): string {
  const e = err as { name?: string; message?: string; code?: string; meta?: unknown; cause?: unknown };
  return JSON.stringify({ name: e.name, message: e.message, code: e.code, meta: e.meta, cause: e.cause });
}

/** The stack on this file's Postgres and Redis; `on` another database of that Postgres, with files of its own. */
async function startStack(on: { databaseUrl: string; dataDir?: string } = { databaseUrl: infra.postgres.url }): Promise<Stack> {
  const config = breakableConfig(infra, {
    DATABASE_URL: on.databaseUrl,
    ...(on.dataDir ? { DATA_DIR: on.dataDir } : {}),
    SWEEP_INTERVAL_SECONDS: '1',
    // One pre-processing job at a time: the tasks behind a slow one stay queued while a fault hits.
    PREPROCESS_CONCURRENCY: '1',
  });
  const services = await createServices(config, { databaseUrl: on.databaseUrl, redisUrl: infra.redis.url });
  const errors: string[] = [];
  const app = await buildApp(services);
  app.addHook('onError', async (_request, _reply, err) => void errors.push(errorText(err)));
  await app.ready();
  const logs: LogLine[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const workers = await startWorkers(
    { ...services, log },
    {
      redisUrl: infra.redis.url,
      lockDurationMs: 3000,
      // The worker's own timer sweeps (nothing here calls the sweep); a short grace so that lost
      // jobs are delivered again within seconds instead of the production 30 s.
      sweep: { everyMs: config.SWEEP_INTERVAL_SECONDS * 1000, databaseUrl: on.databaseUrl, redeliveryGraceMs: 1000 },
    },
  );
  return { services, prisma: services.prisma, app, workers, logs, errors };
}

beforeAll(async () => {
  infra = await startBreakableInfra();
  files = await startFileServer({
    '/doc.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf' },
    '/slow.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf', delayMs: 3000 },
  });
  stack = await startStack();
});

async function closeStack(closing: Stack): Promise<void> {
  await closing.workers.close();
  await closing.app.close();
  await closing.services.close();
}

afterAll(async () => {
  if (stack) await closeStack(stack);
  await files?.close();
  await infra?.close();
});

const external = '/api/v1.0/external';

const submit = (t: TestTenant, file: string) => createTask(stack.app, t, files.url(file));

async function statusOf(taskId: number): Promise<number> {
  return (await stack.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).taskStatus;
}

function waitForStatus(taskId: number, status: number): Promise<true> {
  return waitFor(async () => ((await statusOf(taskId)) === status ? true : undefined), `task ${taskId} to reach status ${status}`, 200, 100);
}

/** ToReview with one chunk per page: processed, and only once. */
async function expectReviewedOnce(taskId: number): Promise<void> {
  const task = await waitForFinalStatus(stack, taskId, 60_000);
  expect(task.taskStatus, `task ${taskId}: ${task.failureReason ?? ''}`).toBe(TaskStatus.ToReview);
  const chunks = await stack.prisma.documentChunk.findMany({ where: { taskId }, select: { pageNumber: true } });
  expect(chunks.map((c) => c.pageNumber).sort((a, b) => a - b)).toEqual([1, 2]);
}

/** A slow task in progress and three queued behind it, when `fault` hits Redis. */
async function tasksCaughtInRedisFault(fault: () => Promise<void>): Promise<void> {
  const t = await createTestTenant(stack);
  const inProgress = await submit(t, '/slow.pdf');
  await waitForStatus(inProgress, TaskStatus.PreProcessingInProgress);
  const queued = [await submit(t, '/doc.pdf'), await submit(t, '/doc.pdf'), await submit(t, '/doc.pdf')];
  for (const id of queued) expect(await statusOf(id), `task ${id} before the fault`).toBe(TaskStatus.QueuedForPreProcessing);

  const faultAt = Date.now();
  await fault();

  for (const id of [inProgress, ...queued]) await expectReviewedOnce(id);
  // The worker's timer, not this test, delivered the lost jobs again.
  const redelivered = stack.logs.filter((l) => l.msg === 'sweep' && l.time >= faultAt).flatMap((l) => l.redelivered as number[]);
  expect(redelivered).toEqual(expect.arrayContaining(queued));
  // And it keeps sweeping: a sweep finishes after the last task did.
  const allDone = Date.now();
  await waitFor(async () => (stack.logs.some((l) => l.msg === 'sweep finished' && l.time > allDone) ? true : undefined), 'a sweep after the recovery', 100, 100);
}

describe('Redis loses every job', () => {
  it('finishes every task after a FLUSHALL mid-run, without a restart', async () => {
    await tasksCaughtInRedisFault(() => infra.redis.flushAll());
  }, 120_000);

  it('finishes every task after Redis restarts empty, without a restart', async () => {
    await tasksCaughtInRedisFault(() => infra.redis.restartEmpty());
  }, 120_000);
});

describe('the sweep timer', () => {
  it('runs in the worker role, which keeps sweeping on its own timer', async () => {
    const worker = startRole(['worker'], {
      DATABASE_URL: infra.postgres.url,
      REDIS_URL: infra.redis.url,
      DATA_DIR: path.join(infra.dataDir, 'worker-role'),
      SWEEP_INTERVAL_SECONDS: '1',
      LOG_LEVEL: 'debug',
    });
    try {
      // This file's own workers sweep too: each tick of the role either sweeps or finds the lock taken.
      const ticks = () => worker.output().match(/"msg":"sweep (finished|skipped: another worker is sweeping)"/g)?.length ?? 0;
      await waitFor(async () => (ticks() >= 3 ? true : undefined), `three sweep ticks of the worker role:\n${worker.output()}`, 240, 250);
      expect(worker.output()).toContain('"msg":"sweeps scheduled"');
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }
    expect(worker.output()).not.toContain('"msg":"sweep failed"');
  }, 90_000);

  it('sweeps in one worker process at a time: never while another holds the sweep lock', async () => {
    const other = new pg.Client({ connectionString: infra.postgres.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [SWEEP_LOCK_KEY]);
      const heldAt = Date.now();
      const skipped = await waitFor(
        async () => stack.logs.find((l) => l.msg === 'sweep skipped: another worker is sweeping' && l.time > heldAt),
        'a sweep skipped while the lock is held elsewhere',
        100,
        100,
      );
      // Ticks of one process follow each other: after a skip, nothing sweeps until the lock is free.
      await waitFor(
        async () => (stack.logs.filter((l) => l.msg === 'sweep skipped: another worker is sweeping' && l.time > heldAt).length >= 3 ? true : undefined),
        'more skipped sweeps',
        100,
        100,
      );
      expect(stack.logs.filter((l) => l.msg === 'sweep finished' && l.time > skipped.time)).toEqual([]);
    } finally {
      await other.end();
    }
    const releasedAt = Date.now();
    await waitFor(async () => (stack.logs.some((l) => l.msg === 'sweep finished' && l.time > releasedAt) ? true : undefined), 'a sweep once the lock is free', 100, 100);
  });
});

/** The requests a client makes, each of which needs Postgres. */
function clientRequests(app: FastifyInstance, t: TestTenant, taskId: number): Array<() => Promise<LightMyRequestResponse>> {
  return [
    () => app.inject({ method: 'GET', url: `${external}/sdtask/status?taskid=${taskId}`, headers: t.headers }),
    () => app.inject({ method: 'GET', url: `${external}/sdworkspace/CurrentWorkspaces`, headers: t.headers }),
    () => app.inject({ method: 'POST', url: `${external}/sdtask/process`, headers: t.headers, payload: { context: { url: files.url('/doc.pdf') } } }),
    () => app.inject({ method: 'POST', url: '/connect/token', payload: { grant_type: 'client_credentials', scope: 'WebAPI', client_id: t.clientId, client_secret: t.clientSecret } }),
  ];
}

function expectUnavailable(res: LightMyRequestResponse): void {
  expectProblem(res, 503);
  expect(res.headers['retry-after'], 'Retry-After').toMatch(/^\d+$/);
}

async function expectAllUnavailable(app: FastifyInstance, t: TestTenant, taskId: number): Promise<void> {
  for (const request of clientRequests(app, t, taskId)) expectUnavailable(await request());
}

/** The errors behind the answers given since `from` (an index into `errors`), as one text. */
function causesSince(errors: string[], from: number): string {
  return errors.slice(from).join('\n');
}

describe('Postgres goes away', () => {
  it('answers 503 with Retry-After while Postgres restarts, serves again after, and in-flight tasks finish', async () => {
    const t = await createTestTenant(stack);
    const inFlight = [await submit(t, '/slow.pdf'), await submit(t, '/doc.pdf')];
    await waitForStatus(inFlight[0]!, TaskStatus.PreProcessingInProgress);

    // Shutting down: a smart shutdown waits for the sessions left and refuses new ones (57P03).
    const holder = new pg.Client({ connectionString: infra.postgres.url });
    holder.on('error', () => undefined);
    await holder.connect();
    let restarted = false;
    try {
      await infra.postgres.signal('SIGTERM');
      await holder.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`);
      const shuttingDown = stack.errors.length;
      // Pooled sessions may still be noticing their end (57P01) at first; new ones then get 57P03.
      for (let round = 0; round < 20 && !causesSince(stack.errors, shuttingDown).includes('57P03'); round += 1) {
        await expectAllUnavailable(stack.app, t, inFlight[0]!);
      }
      expect(causesSince(stack.errors, shuttingDown), 'an answer refused with 57P03 (the database system is shutting down)').toContain('57P03');

      // Down: connections refused; the worker's timer keeps ticking, its sweeps failing.
      await holder.end();
      await infra.postgres.stopped();
      const down = stack.errors.length;
      const downAt = Date.now();
      await expectAllUnavailable(stack.app, t, inFlight[0]!);
      expect(causesSince(stack.errors, down)).toContain('DatabaseNotReachable');
      const ready = await stack.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.postgres.ok).toBe(false);
      await waitFor(async () => (stack.logs.some((l) => l.msg === 'sweep failed' && l.time >= downAt) ? true : undefined), 'a sweep to fail while Postgres is down', 100, 100);

      // Back: the same process serves again and its timer sweeps again.
      await infra.postgres.start();
      restarted = true;
    } finally {
      if (!restarted) {
        await holder.end().catch(() => undefined);
        await infra.postgres.stopped();
        await infra.postgres.start();
      }
    }
    await waitFor(async () => ((await stack.app.inject({ method: 'GET', url: '/ready' })).statusCode === 200 ? true : undefined), '/ready to answer 200 again', 100, 200);
    for (const request of clientRequests(stack.app, t, inFlight[0]!)) {
      const res = await request();
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const id of inFlight) await waitForFinalStatus(stack, id, 60_000);
    const backAt = Date.now();
    await waitFor(async () => (stack.logs.some((l) => l.msg === 'sweep finished' && l.time > backAt) ? true : undefined), 'a sweep after Postgres came back', 100, 100);
  }, 120_000);

  it('answers 503 when Postgres ends the session of a query under way (57P01)', async () => {
    const t = await createTestTenant(stack);
    const locker = new pg.Client({ connectionString: infra.postgres.url });
    await locker.connect();
    try {
      // The token endpoint reads ApiClient: it waits on this lock until its session is terminated.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "ApiClient" IN ACCESS EXCLUSIVE MODE');
      const from = stack.errors.length;
      const answer = clientRequests(stack.app, t, 1)[3]!();
      const waiting = await waitFor(
        async () => {
          const { rows } = await locker.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`);
          return rows.length ? rows : undefined;
        },
        'the token request to wait on the lock',
        100,
        50,
      );
      for (const { pid } of waiting) await locker.query('SELECT pg_terminate_backend($1)', [pid]);
      expectUnavailable(await answer);
      expect(causesSince(stack.errors, from)).toContain('57P01');
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
  });

  it('answers 503 when the connection to Postgres drops without a word or is reset', async () => {
    const t = await createTestTenant(stack);
    const target = new URL(infra.postgres.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) }, 'hangup');
    const proxied = new URL(infra.postgres.url);
    proxied.port = String(proxy.port);
    // The same services, reaching Postgres through the proxy.
    const prisma = createPrisma(proxied.toString(), 2);
    const clientSecrets = createClientSecretCache(proxied.toString(), prisma);
    const app = await buildApp({ ...stack.services, prisma, clientSecrets });
    const errors: string[] = [];
    app.addHook('onError', async (_request, _reply, err) => void errors.push(errorText(err)));
    try {
      await expectAllUnavailable(app, t, 1);
      expect(errors.join('\n')).toContain('Connection terminated unexpectedly');

      proxy.setMode('reset');
      const from = errors.length;
      await expectAllUnavailable(app, t, 1);
      expect(causesSince(errors, from)).toMatch(/ConnectionClosed|ECONNRESET/);
      expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);

      proxy.setMode('forward');
      const res = await app.inject({ method: 'GET', url: `${external}/sdworkspace/CurrentWorkspaces`, headers: t.headers });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await app.close();
      await clientSecrets.close();
      await prisma.$disconnect();
      await proxy.close();
    }
  });
});

describe('the database recreated while Redis keeps the finished jobs', () => {
  it('processes tasks and sends invitations whose ids repeat those of jobs Redis keeps from the database before', async () => {
    // The database before: tasks processed and an invitation mailed, their jobs kept in Redis as finished.
    const t = await createTestTenant(stack);
    const before = [await submit(t, '/doc.pdf'), await submit(t, '/doc.pdf')];
    for (const id of before) await expectReviewedOnce(id);
    const invited = await stack.app.inject({ method: 'POST', url: `${external}/tenant/inviteusers`, headers: t.headers, payload: { users: [{ email: 'before@example.com', roleName: 'Viewer' }] } });
    expect(invited.statusCode, invited.body).toBe(204);
    const [mailedBefore] = await stack.prisma.invitation.findMany({ where: { tenantId: t.tenantId } });
    await waitFor(async () => ((await stack.prisma.invitation.findUniqueOrThrow({ where: { id: mailedBefore!.id } })).mailSentAt ? true : undefined), 'the first invitation to be mailed', 100, 100);
    const kept = await stack.services.queues[QueueName.Detect].getJobCounts('completed');
    expect(kept.completed, 'finished detect jobs kept in Redis').toBeGreaterThanOrEqual(before.length);

    // The old service is gone; a new database on the same Postgres, migrated from scratch, and a
    // new service on it with the same Redis and the same queues. Its ids start where those of the
    // old database did (a fresh database from a small one, or a restore from an older backup).
    await closeStack(stack);
    const recreatedUrl = new URL(infra.postgres.url);
    recreatedUrl.pathname = '/docproc_faults_recreated';
    await ensureDatabase(infra.postgres.url, 'docproc_faults_recreated');
    await migrate(recreatedUrl.toString());
    const admin = new pg.Client({ connectionString: recreatedUrl.toString() });
    await admin.connect();
    try {
      await admin.query(`SELECT setval('"Task_id_seq"', $1, false)`, [before[0]]);
      await admin.query(`SELECT setval('"Invitation_id_seq"', $1, false)`, [mailedBefore!.id]);
    } finally {
      await admin.end();
    }
    const recreated = await startStack({ databaseUrl: recreatedUrl.toString(), dataDir: path.join(infra.dataDir, 'recreated') });
    try {
      const t2 = await createTestTenant(recreated);
      const after = [await createTask(recreated.app, t2, files.url('/doc.pdf')), await createTask(recreated.app, t2, files.url('/doc.pdf'))];
      expect(after, 'task ids of the new database repeat those of the old one').toEqual(before);
      for (const id of after) {
        const task = await waitForFinalStatus(recreated, id, 60_000);
        expect(task.taskStatus, `task ${id}: ${task.failureReason ?? ''}`).toBe(TaskStatus.ToReview);
        expect(task.warning).toBe(false);
      }
      const again = await recreated.app.inject({ method: 'POST', url: `${external}/tenant/inviteusers`, headers: t2.headers, payload: { users: [{ email: 'after@example.com', roleName: 'Viewer' }] } });
      expect(again.statusCode, again.body).toBe(204);
      const [invitation] = await recreated.prisma.invitation.findMany({ where: { tenantId: t2.tenantId } });
      expect(invitation!.id, 'invitation id of the new database repeats that of the old one').toBe(mailedBefore!.id);
      await waitFor(async () => ((await recreated.prisma.invitation.findUniqueOrThrow({ where: { id: invitation!.id } })).mailSentAt ? true : undefined), 'the invitation of the new database to be mailed', 150, 200);
    } finally {
      await closeStack(recreated);
      stack = await startStack();
    }
  }, 180_000);
});
