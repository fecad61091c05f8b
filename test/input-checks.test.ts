import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { MAX_INPUT_DEPTH } from '../src/http/input-checks.js';

let ctx: TestContext;
let t: TestTenant;
beforeAll(async () => {
  ctx = await createTestContext();
  t = await createTestTenant(ctx);
});
afterAll(async () => ctx.close());

const NUL = '\u0000';
const source = { url: 'http://127.0.0.1:1/file.pdf' };

/** Each request carries one NUL, in the field named; none may reach Postgres (22021: a 500 before). */
function cases(): Array<[string, InjectOptions]> {
  const ws = t.defaultWorkspaceId;
  const external = (method: InjectOptions['method'], path: string, payload?: unknown): InjectOptions => ({
    method,
    url: `${EXTERNAL_PREFIX}${path}`,
    headers: t.headers,
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
  return [
    ['externalId', external('POST', '/sdtask/process', { externalId: `a${NUL}b`, context: source })],
    ['displayName', external('POST', '/sdtask/process', { displayName: `a${NUL}`, context: source })],
    ['context.url', external('POST', '/sdtask/process', { context: { url: `http://127.0.0.1:1/a${NUL}.pdf` } })],
    ['metadata.key', external('POST', '/sdtask/process', { metadata: { key: `v${NUL}` }, context: source })],
    ['metadata.k\\u0000', external('POST', '/sdtask/process', { metadata: { [`k${NUL}`]: 'v' }, context: source })],
    ['externalId', external('GET', '/sdtask/status?externalId=%00')],
    ['externalId', external('PATCH', '/sdtask/externalIntegrationStatus?externalId=x%00', { externalIntegrationStatus: 'done' })],
    ['externalIntegrationStatus', external('PATCH', '/sdtask/externalIntegrationStatus?taskId=1', { externalIntegrationStatus: `done${NUL}` })],
    ['externalIntegrationStatus', external('GET', '/sdtask/statuslist?startDate=2025-01-01&externalIntegrationStatus=a%00')],
    ['externalIntegrationStatus.1', external('GET', '/sdtask/statuslistpaginated?startDate=2025-01-01&externalIntegrationStatus=a&externalIntegrationStatus=%00')],
    ['externalId', external('GET', '/sdtask/GetExportData?externalId=%00')],
    ['displayName', external('POST', '/sdbatch', { displayName: `batch${NUL}`, workspaceId: ws })],
    ['speakerName', external('POST', `/transcripts/speakers/tasks/1/${ws}`, { speakerId: 's1', speakerName: `Ann${NUL}` })],
    ['speakers.0.speakerId', external('PUT', `/transcripts/speakers/workspaces/${ws}`, { speakers: [{ speakerId: `s${NUL}`, speakerName: 'Ann' }] })],
    ['users.0.email', external('POST', '/tenant/inviteusers', { users: [{ email: `a${NUL}@example.com`, roleName: 'Reviewer' }] })],
    ['client_id', { method: 'POST', url: '/connect/token', payload: { grant_type: 'client_credentials', client_id: `c${NUL}`, client_secret: 'x' } }],
    [
      'client_id',
      {
        method: 'POST',
        url: '/connect/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=c%00&client_secret=x',
      },
    ],
    ['password', { method: 'POST', url: `${REVIEW_PREFIX}/login`, payload: { email: 'someone@example.com', password: `p${NUL}` } }],
    ['ex\\u0000', external('GET', '/sdtask/status?ex%00=1')],
  ];
}

describe('NUL characters in the input', () => {
  it('answers a NUL in any string or key of a body, query or form with a 400 naming the field', async () => {
    for (const [field, request] of cases()) {
      const res = await ctx.app.inject(request);
      const body = expectProblem(res, 400, 'ValidationError');
      expect(body.errors, `${request.method} ${request.url}`).toEqual([{ field, message: expect.stringMatching(/NUL/) }]);
    }
  });

  it('answers a NUL in HTTP Basic client credentials with 400 invalid_request naming the field', async () => {
    for (const [credentials, field] of [
      [`${t.clientId}${NUL}:${t.clientSecret}`, 'client_id'],
      [`${t.clientId}:%00`, 'client_secret'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/connect/token',
        headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials',
      });
      const body = expectProblem(res, 400, 'invalid_request');
      expect(body.error).toBe('invalid_request');
      expect(body.errors).toEqual([{ field, message: expect.stringMatching(/NUL/) }]);
    }
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { authorization: `Basic ${Buffer.from(`${t.clientId}:%zz`).toString('base64')}` },
      payload: { grant_type: 'client_credentials' },
    });
    expect(expectProblem(malformed, 400).error).toBe('invalid_request');
  });

  it('answers the streamed status list with a whole problem body, not a cut-off 200', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL_PREFIX}/sdtask/statuslist?startDate=2025-01-01&externalIntegrationStatus=%00`,
      headers: t.headers,
    });
    expectProblem(res, 400);
    expect(() => JSON.parse(res.body)).not.toThrow();
  });
});

describe('deeply nested input', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

  it('answers JSON nested past the limit with a 400 naming where, on any route with a body', async () => {
    for (const [method, url] of [
      ['POST', `${EXTERNAL_PREFIX}/sdbatch`],
      ['PATCH', `${EXTERNAL_PREFIX}/sdtask/externalIntegrationStatus?taskId=1`],
      ['POST', `${EXTERNAL_PREFIX}/sdtask/process`],
    ] as const) {
      // Deep enough to overflow the stack of a recursive walk (it was a 500).
      const res = await ctx.app.inject({
        method,
        url,
        headers: { ...t.headers, 'content-type': 'application/json' },
        payload: `{"displayName":${nested(20_000)}}`,
      });
      const body = expectProblem(res, 400, 'ValidationError');
      expect(body.errors[0].field).toMatch(/^displayName(\.0)+$/);
      expect(body.errors[0].message).toMatch(/levels deep/);
    }
  });

  it('accepts nesting up to the limit (customFormValues may be structured)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL_PREFIX}/sdbatch`,
      headers: { ...t.headers, 'content-type': 'application/json' },
      payload: `{"displayName":"b","extra":${nested(MAX_INPUT_DEPTH - 1)}}`,
    });
    // Past the input checks: what answers is the route's own validation of an unknown field.
    expect(res.json().errors?.[0]?.message ?? '').not.toMatch(/levels deep/);
  });
});

describe('lone surrogates in the input', () => {
  it('answers a lone surrogate in a string or key with a 400 (jsonb refused it with a 500)', async () => {
    for (const [field, body] of [
      ['metadata.k', '{"metadata":{"k":"a\\ud800b"},"context":{"url":"http://127.0.0.1:1/f.pdf"}}'],
      ['metadata.\ufffdk', '{"metadata":{"\\udc00k":"v"},"context":{"url":"http://127.0.0.1:1/f.pdf"}}'],
      ['customFormValues.a', '{"customFormValues":{"a":"\\udbff"},"context":{"url":"http://127.0.0.1:1/f.pdf"}}'],
      ['displayName', '{"displayName":"x\\ud83d","context":{"url":"http://127.0.0.1:1/f.pdf"}}'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL_PREFIX}/sdtask/process`,
        headers: { ...t.headers, 'content-type': 'application/json' },
        payload: body,
      });
      const problem = expectProblem(res, 400, 'ValidationError');
      expect(problem.errors, body).toEqual([{ field, message: expect.stringMatching(/well-formed/) }]);
    }
  });

  it('accepts surrogate pairs (emoji) as they are', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL_PREFIX}/sdbatch`,
      headers: { ...t.headers, 'content-type': 'application/json' },
      payload: '{"displayName":"batch \\ud83d\\ude00"}',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().displayName).toBe('batch \u{1F600}');
  });
});
