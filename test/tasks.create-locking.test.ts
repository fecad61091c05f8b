import { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { IntegrationStatus, TaskStatus } from '../src/domain/enums.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';

/**
 * How a create holds the workspace's task-number lock: only inside one statement, never across
 * round trips to the api (an interactive transaction once held it ~6 ms per create), and in
 * an order that cannot deadlock with the other writers of the same rows.
 */

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({ '/doc.pdf': { body: await numberedPagesPdf(1), type: 'application/pdf' } });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
});

const createUrl = '/api/v1.0/external/sdtask/process';

function create(app: FastifyInstance, t: TestTenant, body: Record<string, unknown> = {}) {
  return app.inject({ method: 'POST', url: createUrl, headers: t.headers, payload: { context: { url: files.url('/doc.pdf') }, ...body } });
}

async function createBatch(t: TestTenant): Promise<number> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdbatch', headers: t.headers, payload: { displayName: 'b' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().batchId as number;
}

describe('create task: the task-number lock', () => {
  it('reads what it checks in one statement and writes the task, its number, assignments and batch total in one more, outside any transaction', async () => {
    // The same app, on a Prisma client that reports every statement it sends.
    const logged = new PrismaClient({
      adapter: new PrismaPg({ connectionString: inject('databaseUrl'), max: 2 }),
      log: [{ emit: 'event', level: 'query' }],
    });
    const statements: string[] = [];
    logged.$on('query', (event) => statements.push(event.query));
    const app = await buildApp({ ...ctx, prisma: logged });
    try {
      const t = await createTestTenant(ctx);
      const batchId = await createBatch(t);
      const res = await create(app, t, {
        batchId,
        externalId: 'one-statement',
        taskAssignment: { assignedUsers: ['New@Example.com', 'other@example.com'], order: 1 },
      });
      expect(res.statusCode, res.body).toBe(200);

      // Interactive transactions show up as COMMIT (or ROLLBACK) statements; a single statement
      // commits by itself, so the lock is released as soon as Postgres has run it.
      expect(statements.filter((s) => /^\s*(BEGIN|COMMIT|ROLLBACK)\b/i.test(s))).toEqual([]);
      const writes = statements.filter((s) => /\b(INSERT|UPDATE|DELETE)\b/i.test(s));
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/UPDATE "Workspace" SET "nextTaskNumber"/);
      // Organization, workspace, batch and externalId in one read (the assigned users are read apart).
      expect(statements.filter((s) => !/"(User|WorkspaceMember)"/.test(s) && !writes.includes(s))).toHaveLength(1);

      const task = await ctx.prisma.task.findUniqueOrThrow({ where: { id: res.json().taskId }, include: { assignments: { orderBy: { position: 'asc' } } } });
      expect(task).toMatchObject({ taskNumber: 1, batchId, externalId: 'one-statement', taskStatus: TaskStatus.QueuedForPreProcessing, integrationStatus: IntegrationStatus.Never });
      expect(task.assignments.map((a) => [a.position, a.email])).toEqual([
        [0, 'new@example.com'],
        [1, 'other@example.com'],
      ]);
      expect(Math.abs(task.createdAt.getTime() - Date.now())).toBeLessThan(60_000); // stored as UTC
      expect((await ctx.prisma.batch.findUniqueOrThrow({ where: { id: batchId } })).totalTasks).toBe(1);
    } finally {
      await app.close();
      await logged.$disconnect();
    }
  });

  it('takes the day count row before the batch row, the order a reprocess takes them in, so the two never deadlock', async () => {
    const t = await createTestTenant(ctx);
    const batchId = await createBatch(t);
    const other = new pg.Client({ connectionString: inject('databaseUrl') });
    await other.connect();
    try {
      // A writer in the middle of what a reprocess does: it moved a task of today into
      // QueuedForPreProcessing (its count row is locked) and will update the batch's total next.
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO "TaskDailyCount" ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus", "count")
         VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2, $3, $4, 0)
         ON CONFLICT ("tenantId", "day", "workspaceId", "taskStatus", "integrationStatus") DO UPDATE SET "count" = "TaskDailyCount"."count"`,
        [t.tenantId, t.defaultWorkspaceId, TaskStatus.QueuedForPreProcessing, IntegrationStatus.Never],
      );
      // inject() sends on then(): Promise.resolve starts it now.
      const created = Promise.resolve(create(ctx.app, t, { batchId }));
      // The create now waits for the count row (the insert trigger counts the new task in it).
      await waitUntilBlocking(other, /"Task"/);
      // The batch row must still be free: had the create locked it first, this would deadlock.
      await other.query('UPDATE "Batch" SET "totalTasks" = "totalTasks" WHERE id = $1', [batchId]);
      await other.query('COMMIT');
      const res = await created;
      expect(res.statusCode, res.body).toBe(200);
      expect((await ctx.prisma.batch.findUniqueOrThrow({ where: { id: batchId } })).totalTasks).toBe(1);
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });
});

/**
 * Waits until a statement matching `query` waits for a lock `holder` holds: a state, polled (no
 * timing is asserted). Polled from a session of its own, because a session inside a transaction
 * (as `holder` is) sees pg_stat_activity as it was at its first look.
 */
async function waitUntilBlocking(holder: pg.Client, query: RegExp): Promise<void> {
  const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const observer = new pg.Client({ connectionString: inject('databaseUrl') });
  await observer.connect();
  try {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const blocked = await observer.query<{ query: string }>('SELECT query FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [holderPid]);
      if (blocked.rows.some((r) => query.test(r.query))) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no statement matching ${query} came to wait for the locks of session ${holderPid}`);
  } finally {
    await observer.end();
  }
}
