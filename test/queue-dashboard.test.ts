/**
 * The operators' queue dashboard (bull-board) at /admin/queues: absent unless an operator
 * credential is configured, then only for that credential (Basic or Bearer), never for an
 * organization's token, and absent from the OpenAPI document.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { QueueName } from '../src/queues/queues.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';

const USER = 'operator';
const PASSWORD = 'operator-password-0123';
const TOKEN = 'admin-token-0123456789abcdef';
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

const contexts: TestContext[] = [];
async function contextWith(overrides: Record<string, string>): Promise<TestContext> {
  const ctx = await createTestContext(overrides);
  contexts.push(ctx);
  return ctx;
}
afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
});

describe('/admin/queues', () => {
  it('does not exist when no operator credential is configured (404)', async () => {
    const ctx = await contextWith({});
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/admin/queues' }), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: basic(USER, PASSWORD) }), 404);
    expect(ctx.app.routeCatalog.filter((r) => r.includes('/admin'))).toEqual([]);
  });

  it('with ADMIN_USER/ADMIN_PASSWORD: 401 with a Basic challenge without them or with wrong ones, 200 with them', async () => {
    const ctx = await contextWith({ ADMIN_USER: USER, ADMIN_PASSWORD: PASSWORD });
    const t = await createTestTenant(ctx);
    for (const headers of [{}, basic(USER, 'wrong-password-0123'), basic('someone', PASSWORD), t.headers, { authorization: `Bearer ${PASSWORD}` }]) {
      for (const url of ['/admin/queues', '/admin/queues/api/queues', '/admin/queues/static/favicon-32x32.png']) {
        const res = await ctx.app.inject({ method: 'GET', url, headers });
        expectProblem(res, 401);
        expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
      }
    }
    // A write action is refused just the same, and changes nothing.
    const paused = await ctx.app.inject({ method: 'PUT', url: `/admin/queues/api/queues/${QueueName.Detect}/pause`, headers: t.headers });
    expectProblem(paused, 401);
    expect(await ctx.queues[QueueName.Detect].isPaused()).toBe(false);

    const page = await ctx.app.inject({ method: 'GET', url: '/admin/queues', headers: basic(USER, PASSWORD) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<base href="/admin/queues/"');
    const api = await ctx.app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: basic(USER, PASSWORD) });
    expect(api.statusCode, api.body).toBe(200);
    const names = (api.json() as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
    expect(new Set(names)).toEqual(new Set(Object.values(QueueName)));
  });

  it('with ADMIN_TOKEN: the Bearer token opens it', async () => {
    const ctx = await contextWith({ ADMIN_TOKEN: TOKEN });
    const refused = await ctx.app.inject({ method: 'GET', url: '/admin/queues' });
    expectProblem(refused, 401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/admin/queues', headers: { authorization: 'Bearer admin-token-wrong-0123456' } }), 401);
    expect((await ctx.app.inject({ method: 'GET', url: '/admin/queues', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
  });

  it('is hidden from the OpenAPI document', async () => {
    const ctx = await contextWith({ ADMIN_TOKEN: TOKEN });
    expect(ctx.app.routeCatalog).toContain('GET /admin/queues');
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
  });
});
