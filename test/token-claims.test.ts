import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { forgeClaims } from './support/forged-tokens.js';
import { expectProblem } from './support/problem.js';
import { createUser, userHeaders } from './support/review.js';
import { EXTERNAL, startUpload } from './support/tenant-objects.js';

/**
 * Tokens signed with the service's own key whose claims it never issues (an id past int4, a
 * fraction, a string, a claim missing...): refused with 401 like a bad signature, on every kind
 * of route, never a 500 and never another organization.
 */
let ctx: TestContext;
let t: TestTenant;
let reviewer: { authorization: string };
let uploadId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  t = await createTestTenant(ctx);
  reviewer = await userHeaders(ctx.app, await createUser(ctx, t));
  uploadId = await startUpload(ctx, t, 5);
});
afterAll(async () => ctx.close());

const TUS = { 'tus-resumable': '1.0.0' };

/** Client-credentials routes: the external API (reads, a write) and the TUS endpoints. */
const clientRequests = (): InjectOptions[] => [
  { method: 'GET', url: `${EXTERNAL}/sdworkspace/CurrentWorkspaces` },
  { method: 'GET', url: `${EXTERNAL}/sdtask/status?taskId=1` },
  { method: 'PUT', url: `${EXTERNAL}/transcripts/speakers/workspaces/${t.defaultWorkspaceId}`, payload: { speakers: [] } },
  { method: 'HEAD', url: `/files/${uploadId}`, headers: TUS },
  { method: 'POST', url: '/files', headers: { ...TUS, 'upload-length': '5', 'upload-metadata': `filetype ${Buffer.from('application/pdf').toString('base64')}` } },
];

const reviewerRequests = (): InjectOptions[] => [
  { method: 'GET', url: `${REVIEW_PREFIX}/tasks` },
  { method: 'GET', url: `${REVIEW_PREFIX}/tasks/1` },
  { method: 'POST', url: `${REVIEW_PREFIX}/tasks/1/checkout` },
];

async function refusals(requests: InjectOptions[], genuine: string): Promise<string[]> {
  const forged = await forgeClaims(ctx.keys, genuine);
  expect(forged.length).toBeGreaterThan(20);
  const accepted: string[] = [];
  for (const request of requests) {
    for (const { label, headers } of forged) {
      const res = await ctx.app.inject({ ...request, headers: { ...(request.headers as Record<string, string>), ...headers } });
      const what = `${request.method} ${request.url} with ${label}`;
      if (res.statusCode !== 401) {
        accepted.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      expect(String(res.headers['www-authenticate']), what).toMatch(/^Bearer/);
      if (request.method !== 'HEAD') expectProblem(res, 401);
    }
  }
  return accepted;
}

describe('signed tokens with claims of the wrong shape', () => {
  it('are refused with a 401 problem on the external API and the TUS endpoints', async () => {
    // The same requests with the genuine token get through: only the claims make the difference.
    for (const request of clientRequests()) {
      const res = await ctx.app.inject({ ...request, headers: { ...(request.headers as Record<string, string>), ...t.headers } });
      expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).toBeLessThan(500);
      expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).not.toBe(401);
    }
    expect(await refusals(clientRequests(), t.token)).toEqual([]);
  });

  it('are refused with a 401 problem on the reviewer API', async () => {
    for (const request of reviewerRequests()) {
      const res = await ctx.app.inject({ ...request, headers: reviewer });
      expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).not.toBe(401);
    }
    expect(await refusals(reviewerRequests(), reviewer.authorization.slice('Bearer '.length))).toEqual([]);
  });

  it('say which claim is wrong', async () => {
    const [tidPastInt4] = (await forgeClaims(ctx.keys, t.token)).filter((f) => f.label.endsWith('tid 2^31 (past int4)'));
    const res = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/sdworkspace/CurrentWorkspaces`, headers: tidPastInt4!.headers });
    expect(expectProblem(res, 401).detail).toBe('The access token has missing or invalid claims: tid');
  });
});
