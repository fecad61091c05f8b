import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTestContext, createTestTenant, testConfig, type TestContext, type TestTenant } from './support/context.js';
import { expectProblem } from './support/problem.js';

/**
 * An api whose event loop lags answers 503 with Retry-After at once, a problem body like every
 * error, instead of letting requests queue behind the lag; /health still answers.
 */
let ctx: TestContext;
let app: FastifyInstance;
let t: TestTenant;
beforeAll(async () => {
  ctx = await createTestContext();
  // The app on the same services, with a low bound.
  app = await buildApp({ ...ctx, config: testConfig({ MAX_EVENT_LOOP_DELAY_MS: '5' }) });
  await app.ready();
  t = await createTestTenant(ctx);
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

describe('back-pressure', () => {
  it('answers 503 with Retry-After while the event loop lags past MAX_EVENT_LOOP_DELAY_MS, and /health still answers', async () => {
    // Hold the event loop the way a CPU-bound step on it would (the app runs on this thread).
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      // busy: no timer, request or I/O callback runs meanwhile
    }
    // The lag is sampled from a timer: wait until the sample after the stall is taken.
    while (!app.isUnderPressure()) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await app.inject({ method: 'GET', url: '/api/v1.0/external/sdworkspace/CurrentWorkspaces', headers: t.headers });
    expectProblem(refused, 503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().detail).toMatch(/overloaded/);
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    // Readiness says so too: a balancer sends the traffic to another instance meanwhile.
    expectProblem(await app.inject({ method: 'GET', url: '/ready' }), 503);
  });
});
