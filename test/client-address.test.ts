import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { createUser } from './support/review.js';

/** The reviewer login allows 10 attempts per email and client address per minute. */
const LOGIN_ATTEMPTS = 10;

function wrongLogin(ctx: TestContext, email: string, forwardedFor: string, remoteAddress: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `${REVIEW_PREFIX}/login`,
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { email, password: 'not the password' },
  });
}

describe('client address (TRUST_PROXY)', () => {
  let direct: TestContext;
  let proxied: TestContext;
  beforeAll(async () => {
    direct = await createTestContext();
    proxied = await createTestContext({ TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });

  it('ignores X-Forwarded-For by default: a new forwarded address per attempt does not escape the login limit', async () => {
    const { email } = await createUser(direct, await createTestTenant(direct));
    for (let i = 0; i < LOGIN_ATTEMPTS; i += 1) {
      expectProblem(await wrongLogin(direct, email, `203.0.113.${i + 1}`, '127.0.0.1'), 401);
    }
    const res = await wrongLogin(direct, email, '203.0.113.200', '127.0.0.1');
    expectProblem(res, 429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('uses the forwarded address when the peer is a trusted proxy', async () => {
    const { email } = await createUser(proxied, await createTestTenant(proxied));
    // Each forwarded address has its own budget behind the trusted proxy...
    for (let i = 0; i <= LOGIN_ATTEMPTS; i += 1) {
      expectProblem(await wrongLogin(proxied, email, `198.51.100.${i + 1}`, '127.0.0.1'), 401);
    }
    // ...and one forwarded address is limited whatever the client puts before it.
    for (let i = 0; i < LOGIN_ATTEMPTS - 1; i += 1) {
      expectProblem(await wrongLogin(proxied, email, `192.0.2.${i + 1}, 198.51.100.1`, '127.0.0.1'), 401);
    }
    expectProblem(await wrongLogin(proxied, email, '192.0.2.99, 198.51.100.1', '127.0.0.1'), 429);
  });

  it('ignores X-Forwarded-For from a peer that is not the trusted proxy', async () => {
    const { email } = await createUser(proxied, await createTestTenant(proxied));
    for (let i = 0; i < LOGIN_ATTEMPTS; i += 1) {
      expectProblem(await wrongLogin(proxied, email, `203.0.113.${i + 1}`, '10.9.8.7'), 401);
    }
    expectProblem(await wrongLogin(proxied, email, '203.0.113.250', '10.9.8.7'), 429);
  });
});
