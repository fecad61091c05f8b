import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('error responses', () => {
  it('answers unknown routes and methods with a 404 problem body', async () => {
    const t = await createTestTenant(ctx);
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/nope' }), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/api/v1.0/external/nope', headers: t.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: '/connect/token' }), 404);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ grant_type: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectProblem(res, 413);
  });

  it('answers an unsupported content type with 415 and malformed JSON with 400', async () => {
    expectProblem(
      await ctx.app.inject({ method: 'POST', url: '/connect/token', headers: { 'content-type': 'application/xml' }, payload: '<a/>' }),
      415,
    );
    expectProblem(
      await ctx.app.inject({ method: 'POST', url: '/connect/token', headers: { 'content-type': 'application/json' }, payload: '{"grant_type":' }),
      400,
    );
  });

  it('reports each invalid field of a request in `errors`', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      payload: { grant_type: 5, client_id: ['a'], client_secret: 'x'.repeat(600) },
    });
    const body = expectProblem(res, 400, 'ValidationError');
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['client_id', 'client_secret', 'grant_type']);
  });

  it('keeps a caller-supplied X-Request-Id as the traceId', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'integrator-42' } });
    expect(expectProblem(res, 404).traceId).toBe('integrator-42');
  });
});

describe('numbers beyond the database range', () => {
  it('answers ids past int4 with 400 on every route that takes one, never 500', async () => {
    const t = await createTestTenant(ctx);
    const big = '99999999999';
    const gets = [
      `/api/v1.0/external/sdtask/status?taskid=${big}`,
      `/api/v1.0/external/sdbatch?batchId=${big}`,
      `/api/v1.0/external/sdtask/GetExportData/${big}`,
      `/api/v1.0/external/sdtask/GetExportData/Transcript/${big}/simplified`,
      `/api/v1.0/external/sdtask/statuslistpaginated?startDate=2025-01-01&workspaceId=${big}`,
      `/api/v1.0/external/sdbatch/paginated?startDate=2025-01-01&workspaceId=${big}`,
      `/api/v1.0/external/sdworkspace/allusers/${big}`,
      `/api/v1.0/external/transcripts/speakers/tasks/${big}/1`,
    ];
    for (const url of gets) expectProblem(await ctx.app.inject({ method: 'GET', url, headers: t.headers }), 400);
    for (const payload of [{ workspaceId: Number(big), context: { url: 'http://127.0.0.1:1/x.pdf' } }, { batchId: Number(big), context: { url: 'http://127.0.0.1:1/x.pdf' } }]) {
      expectProblem(await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload }), 400);
    }
    expectProblem(await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdbatch', headers: t.headers, payload: { displayName: 'b', workspaceId: Number(big) } }), 400);
  });

  it('answers a page far past the end with an empty page, never an error', async () => {
    const t = await createTestTenant(ctx);
    for (const url of ['/api/v1.0/external/sdtask/statuslistpaginated', '/api/v1.0/external/sdbatch/paginated']) {
      const res = await ctx.app.inject({ method: 'GET', url: `${url}?startDate=2025-01-01&pageNumber=99999999999&pageSize=500`, headers: t.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ items: [], pageNumber: 99999999999, totalCount: 0 });
    }
  });
});

describe('dates beyond the database range', () => {
  it('answers dates outside 1970..9999 with 400 naming the parameter on every list, never 500', async () => {
    const t = await createTestTenant(ctx);
    const lists = ['/api/v1.0/external/sdtask/statuslistpaginated', '/api/v1.0/external/sdtask/statuslist', '/api/v1.0/external/sdbatch/paginated'];
    const dates = ['0000-01-01', '0001-01-01', '1969-12-31T23:59:59Z', '1970-01-01T00:30:00+01:00', '9999-12-31T23:00:00-05:00', '275760-09-13', '+010000-01-01'];
    for (const url of lists) {
      for (const param of ['startDate', 'endDate']) {
        for (const date of dates) {
          const res = await ctx.app.inject({ method: 'GET', url: `${url}?${param}=${encodeURIComponent(date)}`, headers: t.headers });
          const body = expectProblem(res, 400, 'ValidationError');
          expect(body.errors.map((e: { field: string }) => e.field), `${url} ${param}=${date}`).toEqual([param]);
        }
      }
      for (const edge of ['startDate=1970-01-01', 'endDate=9999-12-31T23:59:59.999Z']) {
        expect((await ctx.app.inject({ method: 'GET', url: `${url}?${edge}`, headers: t.headers })).statusCode, `${url}?${edge}`).toBe(200);
      }
    }
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After and RateLimit headers once a client exceeds its budget, per client', async () => {
    const limited = await createTestContext({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const a = await createTestTenant(limited);
      const b = await createTestTenant(limited);
      const url = '/api/v1.0/external/sdworkspace/CurrentWorkspaces';
      for (let i = 0; i < 3; i += 1) {
        const ok = await limited.app.inject({ method: 'GET', url, headers: a.headers });
        expect(ok.statusCode).toBe(200);
        expect(ok.headers['ratelimit-limit']).toBe('3');
      }
      const res = await limited.app.inject({ method: 'GET', url, headers: a.headers });
      const body = expectProblem(res, 429);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      // The detail says how long to wait (it once called that the window: "3 requests per 58 seconds").
      expect(body.detail).toBe(`Rate limit of 3 requests exceeded; retry in ${retryAfter} s`);
      // Another organization has its own budget.
      expect((await limited.app.inject({ method: 'GET', url, headers: b.headers })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('gives the heavy status list its own smaller budget, without spending the general one', async () => {
    const limited = await createTestContext({ RATE_LIMIT_HEAVY_PER_MINUTE: '2', RATE_LIMIT_PER_MINUTE: '100' });
    try {
      const t = await createTestTenant(limited);
      const heavy = '/api/v1.0/external/sdtask/statuslist?startDate=2025-01-01';
      for (let i = 0; i < 2; i += 1) expect((await limited.app.inject({ method: 'GET', url: heavy, headers: t.headers })).statusCode).toBe(200);
      expectProblem(await limited.app.inject({ method: 'GET', url: heavy, headers: t.headers }), 429);
      const paginated = await limited.app.inject({ method: 'GET', url: '/api/v1.0/external/sdtask/statuslistpaginated?startDate=2025-01-01', headers: t.headers });
      expect(paginated.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
