import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { freshAddress } from './support/addresses.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { createUser } from './support/review.js';

/**
 * The reviewer login allows 10 attempts per email and client address per minute (and counts failed
 * logins per address: every address here is one of the test's own, see freshAddress).
 */
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
    const peer = freshAddress();
    for (let i = 0; i < LOGIN_ATTEMPTS; i += 1) {
      expectProblem(await wrongLogin(direct, email, freshAddress(), peer), 401);
    }
    const res = await wrongLogin(direct, email, freshAddress(), peer);
    expectProblem(res, 429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('uses the forwarded address when the peer is a trusted proxy', async () => {
    const { email } = await createUser(proxied, await createTestTenant(proxied));
    const client = freshAddress();
    // Each forwarded address has its own budget behind the trusted proxy...
    expectProblem(await wrongLogin(proxied, email, client, '127.0.0.1'), 401);
    for (let i = 0; i < LOGIN_ATTEMPTS; i += 1) {
      expectProblem(await wrongLogin(proxied, email, freshAddress(), '127.0.0.1'), 401);
    }
    // ...and one forwarded address is limited whatever the client puts before it.
    for (let i = 0; i < LOGIN_ATTEMPTS - 1; i += 1) {
      expectProblem(await wrongLogin(proxied, email, `${freshAddress()}, ${client}`, '127.0.0.1'), 401);
    }
    expectProblem(await wrongLogin(proxied, email, `${freshAddress()}, ${client}`, '127.0.0.1'), 429);
  });

  it('ignores X-Forwarded-For from a peer that is not the trusted proxy', async () => {
    const { email } = await createUser(proxied, await createTestTenant(proxied));
    const peer = freshAddress();
    for (let i = 0; i < LOGIN_ATTEMPTS; i += 1) {
      expectProblem(await wrongLogin(proxied, email, freshAddress(), peer), 401);
    }
    expectProblem(await wrongLogin(proxied, email, freshAddress(), peer), 429);
  });
});
