import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { freshAddress } from './support/addresses.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { PASSWORD, createUser } from './support/review.js';

/** Failed reviewer logins per client address per minute, whatever the emails (password spraying). */
const PER_ADDRESS = 8;

let ctx: TestContext;
let t: TestTenant;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS) });
  t = await createTestTenant(ctx);
});
afterAll(async () => ctx.close());

function login(app: TestContext['app'], payload: object, remoteAddress: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/login`, remoteAddress, headers, payload });
}

const stranger = () => `nobody-${randomUUID()}@example.com`;

function expectLimited(res: Awaited<ReturnType<typeof login>>) {
  const body = expectProblem(res, 429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(body.detail).toContain(`retry in ${retryAfter} s`);
}

describe('failed reviewer logins per client address', () => {
  it('answer 429 to a password spray (one password, a new email each time), the right password included', async () => {
    const victims = [await createUser(ctx, t), await createUser(ctx, t)];
    const sprayer = freshAddress();
    // A new X-Forwarded-For on every attempt too: only the socket's address is common.
    const spray = (email: string, password = 'Summer2025!', i = 0) => login(ctx.app, { email, password }, sprayer, { 'x-forwarded-for': `203.0.113.${i + 1}` });
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      const email = i < victims.length ? victims[i]!.email : stranger();
      expectProblem(await spray(email, 'Summer2025!', i), 401, 'InvalidCredentials');
    }
    expectLimited(await spray(stranger()));
    // Until the window ends no password is checked from that address, so a hit cannot be told apart.
    expectLimited(await spray(victims[0]!.email, PASSWORD));
    // Another address is not affected: the victims still log in.
    const res = await login(ctx.app, { email: victims[0]!.email, password: PASSWORD }, freshAddress());
    expect(res.statusCode, res.body).toBe(200);
  });

  it('counts neither successful logins nor a right password that still needs the organization', async () => {
    const other = await createTestTenant(ctx);
    const user = await createUser(ctx, t);
    const shared = `shared-${randomUUID()}@example.com`;
    await createUser(ctx, t, { email: shared });
    await createUser(ctx, other, { email: shared });
    const address = freshAddress();
    for (let i = 0; i < PER_ADDRESS + 2; i += 1) {
      const ok = await login(ctx.app, { email: user.email, password: PASSWORD }, address);
      expect(ok.statusCode, ok.body).toBe(200);
      expectProblem(await login(ctx.app, { email: shared, password: PASSWORD }, address), 400, 'TenantRequired');
      // Neither does a request refused before any password is checked.
      expectProblem(await login(ctx.app, { email: 'not an email', password: 'x' }, address), 400);
    }
    for (let i = 0; i < PER_ADDRESS; i += 1) expectProblem(await login(ctx.app, { email: stranger(), password: 'wrong' }, address), 401);
    expectLimited(await login(ctx.app, { email: stranger(), password: 'wrong' }, address));
  });
});
