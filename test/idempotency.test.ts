/**
 * Idempotency-Key on sdtask/process (and its alias) and sdbatch, through HTTP on the real
 * Postgres: replays, another body, a request in flight, two api instances racing on one key,
 * organizations apart, and the 24 h expiry (on the app's idempotency clock, moved by the test).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTestContext, createTestTenant, requestToken, type TestContext, type TestTenant } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { EXTERNAL } from './support/tenant-objects.js';

/**
 * A source server whose HEAD answers (the create's reachability check) wait, per path, until the
 * test opens that path's gate: a create can be held in flight for as long as a test needs.
 */
interface GatedSources {
  url: (path: string) => string;
  /** Resolves once `count` HEADs of `path` have arrived (a create that got there is past its claim). */
  headSeen: (path: string, count?: number) => Promise<void>;
  heads: (path: string) => number;
  open: (path: string) => void;
  close: () => Promise<void>;
}

async function startGatedSources(): Promise<GatedSources> {
  interface Gate {
    opened: Promise<void>;
    open: () => void;
    heads: number;
    waiting: Array<{ count: number; resolve: () => void }>;
  }
  const gates = new Map<string, Gate>();
  const gate = (path: string) => {
    let entry = gates.get(path);
    if (!entry) {
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      entry = { opened, open, heads: 0, waiting: [] };
      gates.set(path, entry);
    }
    return entry;
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const entry = gate(path);
    if (req.method === 'HEAD') {
      entry.heads += 1;
      for (const w of entry.waiting.filter((w) => w.count <= entry.heads)) w.resolve();
      if (path.startsWith('/held/')) await entry.opened;
    }
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 5 });
    res.end(req.method === 'HEAD' ? undefined : '%PDF-');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    headSeen: (path, count = 1) => {
      const entry = gate(path);
      return entry.heads >= count ? Promise.resolve() : new Promise((resolve) => entry.waiting.push({ count, resolve }));
    },
    heads: (path) => gate(path).heads,
    open: (path) => gate(path).open(),
    close: () =>
      new Promise((resolve) => {
        for (const entry of gates.values()) entry.open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The reachability check of a held create must outlast the test's hold.
const overrides = { SOURCE_URL_CHECK_TIMEOUT_MS: '60000' };
let ctx: TestContext;
let sources: GatedSources;
beforeAll(async () => {
  ctx = await createTestContext(overrides);
  sources = await startGatedSources();
});
afterAll(async () => {
  await sources?.close();
  await ctx?.close();
});

const keyed = (key: string, headers: Record<string, string>) => ({ ...headers, 'idempotency-key': key });

/** POST sdtask/process with an Idempotency-Key unless `key` is undefined: the raw response. */
function postProcess(app: FastifyInstance, t: { headers: Record<string, string> }, key: string | undefined, body: object, url = `${EXTERNAL}/sdtask/process`) {
  const request: InjectOptions = { method: 'POST', url, headers: key === undefined ? t.headers : keyed(key, t.headers), payload: body };
  return app.inject(request);
}

const tasksOf = (tenant: TestTenant) => ctx.prisma.task.count({ where: { tenantId: tenant.tenantId } });

describe('Idempotency-Key on POST sdtask/process', () => {
  it('replays the first response (status, body, content type) for the same key and body, and creates nothing more', async () => {
    const t = await createTestTenant(ctx);
    const key = randomUUID();
    const body = { displayName: 'invoice', context: { url: sources.url('/a.pdf') }, metadata: { a: '1', b: '2' } };
    const first = await postProcess(ctx.app, t, key, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await postProcess(ctx.app, t, key, body);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The same JSON in another key order is the same request; so is the spec samples' alias path.
    const reordered = await postProcess(ctx.app, t, key, { metadata: { b: '2', a: '1' }, context: body.context, displayName: 'invoice' });
    expect(reordered.body).toBe(first.body);
    const viaAlias = await postProcess(ctx.app, t, key, body, '/api/v1.0/sdtask/process');
    expect(viaAlias.body).toBe(first.body);

    expect(await tasksOf(t)).toBe(1);
    expect(sources.heads('/a.pdf')).toBe(1);
  });

  it('without the header, every request creates (nothing changes for callers who do not send it)', async () => {
    const t = await createTestTenant(ctx);
    const body = { context: { url: sources.url('/plain.pdf') } };
    expect((await postProcess(ctx.app, t, undefined, body)).statusCode).toBe(200);
    expect((await postProcess(ctx.app, t, undefined, body)).statusCode).toBe(200);
    expect(await tasksOf(t)).toBe(2);
  });

  it('answers 422 to the same key with another body, and creates nothing', async () => {
    const t = await createTestTenant(ctx);
    const key = randomUUID();
    expect((await postProcess(ctx.app, t, key, { displayName: 'one', context: { url: sources.url('/b.pdf') } })).statusCode).toBe(200);
    const other = await postProcess(ctx.app, t, key, { displayName: 'two', context: { url: sources.url('/b.pdf') } });
    expectProblem(other, 422, 'IdempotencyKeyReused');
    // A key belongs to one operation: the same key on another create is another request too.
    const batch = await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/sdbatch`, headers: keyed(key, t.headers), payload: { displayName: 'b' } });
    expectProblem(batch, 422, 'IdempotencyKeyReused');
    expect(await tasksOf(t)).toBe(1);
  });

  it('answers 409 while the first request with the key is still running, then replays its answer', async () => {
    const t = await createTestTenant(ctx);
    const key = randomUUID();
    const body = { context: { url: sources.url('/held/c.pdf') } };
    const first = postProcess(ctx.app, t, key, body);
    await sources.headSeen('/held/c.pdf');

    const meanwhile = await postProcess(ctx.app, t, key, body);
    expectProblem(meanwhile, 409, 'IdempotencyKeyInUse');
    expect(meanwhile.headers['retry-after']).toBe('1');

    sources.open('/held/c.pdf');
    const answered = await first;
    expect(answered.statusCode, answered.body).toBe(200);
    const after = await postProcess(ctx.app, t, key, body);
    expect(after.body).toBe(answered.body);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(await tasksOf(t)).toBe(1);
    expect(sources.heads('/held/c.pdf')).toBe(1);
  });

  it('lets two api instances racing on one key create exactly one task', async () => {
    const second = await createTestContext(overrides);
    try {
      const t = await createTestTenant(ctx);
      const onSecond = { headers: { authorization: `Bearer ${await requestToken(second.app, t.clientId, t.clientSecret)}` } };
      const key = randomUUID();
      const body = { context: { url: sources.url('/held/race.pdf') } };
      // Both at once: one claims the key and is held at the source check, the other is refused.
      const racing = [postProcess(ctx.app, t, key, body), postProcess(second.app, onSecond, key, body)];
      const loser = await Promise.race(racing);
      expectProblem(loser, 409, 'IdempotencyKeyInUse');
      sources.open('/held/race.pdf');
      const [a, b] = await Promise.all(racing);
      const winner = a === loser ? b! : a!;
      expect(winner.statusCode, winner.body).toBe(200);

      expect(await tasksOf(t)).toBe(1);
      expect(sources.heads('/held/race.pdf')).toBe(1);
      // Either instance now replays the winner's answer.
      expect((await postProcess(second.app, onSecond, key, body)).body).toBe(winner.body);
      expect((await postProcess(ctx.app, t, key, body)).body).toBe(winner.body);
    } finally {
      await second.close();
    }
  });

  it('keeps keys apart per organization: the same key and body in two organizations make two tasks', async () => {
    const x = await createTestTenant(ctx);
    const y = await createTestTenant(ctx);
    const key = `shared-${randomUUID()}`;
    const body = { context: { url: sources.url('/shared.pdf') } };
    const forX = await postProcess(ctx.app, x, key, body);
    const forY = await postProcess(ctx.app, y, key, body);
    expect(forX.statusCode).toBe(200);
    expect(forY.statusCode).toBe(200);
    expect(forY.headers['idempotent-replayed']).toBeUndefined();
    expect(forY.json().taskId).not.toBe(forX.json().taskId);
    expect(await tasksOf(x)).toBe(1);
    expect(await tasksOf(y)).toBe(1);
  });

  it('replays a decided 4xx, but lets a retry run again after a "try again" answer (409)', async () => {
    const t = await createTestTenant(ctx);
    const missingWorkspace = { workspaceId: 2_147_483_000, context: { url: sources.url('/d.pdf') } };
    const key = randomUUID();
    const notFound = await postProcess(ctx.app, t, key, missingWorkspace);
    expectProblem(notFound, 404);
    const replayed = await postProcess(ctx.app, t, key, missingWorkspace);
    expect(replayed.statusCode).toBe(404);
    expect(replayed.body).toBe(notFound.body);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    // The replayed problem keeps its traceId, and the X-Request-Id that matches it.
    expect(replayed.json().traceId).toBe(replayed.headers['x-request-id']);

    const externalId = `ext-${randomUUID()}`;
    const taken = await postProcess(ctx.app, t, undefined, { externalId, context: { url: sources.url('/e.pdf') } });
    expect(taken.statusCode).toBe(200);
    const retryKey = randomUUID();
    const body = { externalId, context: { url: sources.url('/e.pdf') } };
    expectProblem(await postProcess(ctx.app, t, retryKey, body), 409);
    await ctx.prisma.task.delete({ where: { id: taken.json().taskId } });
    const retried = await postProcess(ctx.app, t, retryKey, body);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key with a 400 problem, before any work', async () => {
    const t = await createTestTenant(ctx);
    const body = { context: { url: sources.url('/f.pdf') } };
    for (const bad of ['x'.repeat(256), 'has space', 'tab\there', 'ünïcode', '']) {
      const res = await postProcess(ctx.app, t, bad, body);
      const problem = expectProblem(res, 400, 'ValidationError');
      expect(new Set(problem.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['idempotency-key']));
    }
    expect((await postProcess(ctx.app, t, 'k'.repeat(255), body)).statusCode).toBe(200);
    expect(await tasksOf(t)).toBe(1);
  });

  it('documents the header on the opted-in routes only', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const headerOf = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.parameters ?? []).find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key');
    for (const [path, method] of [
      [`${EXTERNAL}/sdtask/process`, 'post'],
      ['/api/v1.0/sdtask/process', 'post'],
      [`${EXTERNAL}/sdbatch`, 'post'],
    ] as const) {
      const header = headerOf(path, method);
      expect(header, `${method} ${path}`).toMatchObject({ required: false, schema: { type: 'string', maxLength: 255 } });
      expect(Object.keys(doc.paths[path][method].responses)).toEqual(expect.arrayContaining(['409', '422']));
    }
    expect(headerOf(`${EXTERNAL}/sdbatch`, 'get')).toBeUndefined();
    expect(headerOf('/files', 'post')).toBeUndefined();
  });
});

describe('Idempotency-Key on POST sdbatch', () => {
  it('replays the batch created first', async () => {
    const t = await createTestTenant(ctx);
    const key = randomUUID();
    const send = () => ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/sdbatch`, headers: keyed(key, t.headers), payload: { displayName: 'batch' } });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const again = await send();
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await ctx.prisma.batch.count({ where: { tenantId: t.tenantId } })).toBe(1);
  });
});

describe('expiry (on the idempotency clock of the app)', () => {
  let now = Date.now();
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp(ctx, { idempotencyClock: () => now });
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('replays for 24 hours, then the key is new again', async () => {
    const t = await createTestTenant({ app, prisma: ctx.prisma });
    const key = randomUUID();
    const body = { context: { url: sources.url('/g.pdf') } };
    const first = await postProcess(app, t, key, body);
    expect(first.statusCode).toBe(200);
    now += 24 * 3600_000 - 1_000;
    expect((await postProcess(app, t, key, body)).body).toBe(first.body);
    now += 2_000;
    const afterADay = await postProcess(app, t, key, body);
    expect(afterADay.statusCode).toBe(200);
    expect(afterADay.headers['idempotent-replayed']).toBeUndefined();
    expect(afterADay.json().taskId).not.toBe(first.json().taskId);
    expect(await tasksOf(t)).toBe(2);
    // The key now holds the new answer; another body is refused again.
    expectProblem(await postProcess(app, t, key, { context: { url: sources.url('/other.pdf') } }), 422, 'IdempotencyKeyReused');
  });

  it('does not stay locked by a request that never answered: its claim lapses after the lease', async () => {
    const t = await createTestTenant({ app, prisma: ctx.prisma });
    const key = randomUUID();
    const body = { context: { url: sources.url('/held/h.pdf') } };
    // The first request holds its claim (as a crashed instance would, never answering).
    const stuck = postProcess(app, t, key, body);
    await sources.headSeen('/held/h.pdf');
    expectProblem(await postProcess(app, t, key, body), 409, 'IdempotencyKeyInUse');
    now += 61_000;
    // Past the lease, the same request takes the key over and runs (it reaches the source check too).
    const takeover = postProcess(app, t, key, body);
    await sources.headSeen('/held/h.pdf', 2);
    sources.open('/held/h.pdf');
    const [late, taken] = await Promise.all([stuck, takeover]);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(late.statusCode).toBe(200);
    expect(taken.json().taskId).not.toBe(late.json().taskId);
    // The request that took the key over recorded its answer; the lapsed one recorded nothing.
    expect((await postProcess(app, t, key, body)).body).toBe(taken.body);
  });
});
