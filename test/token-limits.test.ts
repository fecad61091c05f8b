import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../src/modules/tenants/tenants.service.js';
import { freshAddress } from './support/addresses.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';

const PER_CLIENT = 3;
const PER_ADDRESS = 8;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    TOKEN_FAILURES_PER_CLIENT_PER_MINUTE: String(PER_CLIENT),
    TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
  });
});
afterAll(async () => ctx.close());

function tokenRequest(clientId: string, clientSecret: string, remoteAddress: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/connect/token',
    remoteAddress,
    headers,
    payload: { grant_type: 'client_credentials', scope: 'WebAPI', client_id: clientId, client_secret: clientSecret },
  });
}

/** An organization whose secret this api instance has never verified (createTestTenant asks for a token). */
async function unverifiedClient() {
  return createTenant(ctx.prisma, { name: `test-${randomUUID()}`, secretTtlDays: 30 });
}

function expectLimited(res: Awaited<ReturnType<typeof tokenRequest>>) {
  const body = expectProblem(res, 429, 'temporarily_unavailable');
  expect(body.error).toBe('temporarily_unavailable');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(body.detail).toContain(`retry in ${retryAfter} s`);
  return body;
}

describe('failed /connect/token attempts', () => {
  it('answers 429 after the failures allowed per client id, even to the right secret and from another address', async () => {
    const client = await unverifiedClient();
    const address = freshAddress();
    for (let i = 0; i < PER_CLIENT; i += 1) {
      expect(expectProblem(await tokenRequest(client.clientId, 'wrong', address), 401).error).toBe('invalid_client');
    }
    expectLimited(await tokenRequest(client.clientId, 'wrong', address));
    // Until the window ends nothing is verified for this client id, so the right secret is refused too...
    expectLimited(await tokenRequest(client.clientId, client.clientSecret, address));
    expectLimited(await tokenRequest(client.clientId, client.clientSecret, freshAddress()));
  });

  it('leaves other clients alone, from the same address too', async () => {
    const [victim, neighbour] = [await unverifiedClient(), await unverifiedClient()];
    const address = freshAddress();
    for (let i = 0; i <= PER_CLIENT; i += 1) await tokenRequest(victim.clientId, 'wrong', address);
    expectLimited(await tokenRequest(victim.clientId, 'wrong', address));
    const res = await tokenRequest(neighbour.clientId, neighbour.clientSecret, address);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('counts failures per address whatever X-Forwarded-For says', async () => {
    const address = freshAddress();
    // A new unknown client id and a new forwarded address on every attempt: only the socket's address is common.
    const attempt = (i: number) => tokenRequest(`nobody-${randomUUID()}`, 'wrong', address, { 'x-forwarded-for': `203.0.113.${i + 1}` });
    for (let i = 0; i < PER_ADDRESS; i += 1) expectProblem(await attempt(i), 401);
    expectLimited(await attempt(PER_ADDRESS));
    // Another address is not affected.
    expectProblem(await tokenRequest(`nobody-${randomUUID()}`, 'wrong', freshAddress()), 401);
  });

  it('still gives a token to a secret this instance verified before, while others are refused', async () => {
    const t = await createTestTenant(ctx); // asked for a token: its secret was verified once
    const attacker = freshAddress();
    for (let i = 0; i < PER_CLIENT; i += 1) expectProblem(await tokenRequest(t.clientId, `guess-${i}`, attacker), 401);
    expectLimited(await tokenRequest(t.clientId, 'another guess', attacker));
    const res = await tokenRequest(t.clientId, t.clientSecret, freshAddress());
    expect(res.statusCode, res.body).toBe(200);
    expectLimited(await tokenRequest(t.clientId, 'yet another guess', attacker));
  });

  it('counts neither successes nor malformed requests as failures', async () => {
    const client = await unverifiedClient();
    const address = freshAddress();
    // The first success runs scrypt (the secret was never verified here) and is then not counted.
    for (let i = 0; i < PER_CLIENT + 2; i += 1) {
      expect((await tokenRequest(client.clientId, client.clientSecret, address)).statusCode).toBe(200);
      expectProblem(await ctx.app.inject({ method: 'POST', url: '/connect/token', remoteAddress: address, payload: { client_id: client.clientId } }), 400);
    }
    for (let i = 0; i < PER_CLIENT; i += 1) expectProblem(await tokenRequest(client.clientId, 'wrong', address), 401);
  });
});
