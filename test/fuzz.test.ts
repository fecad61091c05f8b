/**
 * Property-based fuzzing of every route of the app's OpenAPI document (test/support/openapi-fuzz.ts):
 * valid requests with one to three hostile changes. Every answer must be below 500, every 4xx a
 * complete problem body, no request may hang, and the app must stay healthy.
 *
 *   npm test                 a few thousand cases, fixed seed (deterministic)
 *   npm run fuzz             FUZZ_RUNS cases (default 20000) with a random or given FUZZ_SEED, and a report
 *   FUZZ_ONLY=review         only the operations whose key contains it
 *
 * A run goes on past failures: each operation reports every kind of failure it met, each with the
 * request, the answer and the command that replays that one case (FUZZ_SEED, FUZZ_RUNS, FUZZ_ONLY,
 * FUZZ_CASE).
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../src/config.js';
import { createTestContext, createTestTenant, type TestTenant } from './support/context.js';
import { forgeCredentials, type ForgedCredential } from './support/forged-tokens.js';
import { describeRequest, validRequests, type FuzzEnvironment, type FuzzRequest, type RequestPreset } from './support/fuzz-requests.js';
import { FuzzStats, formatFailures, fuzzOperation, operationSeed, responseFaults, sendFuzzRequest } from './support/openapi-fuzz.js';
import { fuzzOperations, openApiPath, type FuzzOperation, type OpenApiDocument } from './support/openapi-operations.js';
import { PASSWORD, createUser, userHeaders } from './support/review.js';
import { EXTERNAL, createTenantObjects, startUpload, type TenantObjects } from './support/tenant-objects.js';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return value;
}

/** Cases in all, split over the operations (HEAD twins of GET routes get a third of a share). */
const RUNS = envInt('FUZZ_RUNS', 3000);
/** Fixed in `npm test` so a failure is the same on every run; `npm run fuzz` picks a new one each time. */
const SEED = envInt('FUZZ_SEED', 20_250_611);
const ONLY = process.env.FUZZ_ONLY;
/** Replays one case of each operation run (with FUZZ_ONLY: of one operation), as a failure report names it. */
const REPLAY_CASE = process.env.FUZZ_CASE === undefined ? undefined : envInt('FUZZ_CASE', 0);
const REPORT = process.env.FUZZ_REPORT === '1';
/** An answer slower than this is a hang (the source URL check alone is bounded far below it). */
const REQUEST_TIMEOUT_MS = envInt('FUZZ_REQUEST_TIMEOUT_MS', 15_000);

const ctx = await createTestContext({
  // Hostile URLs are refused by the SSRF guard without any traffic; public ones get little time.
  SOURCE_URL_ALLOW_PRIVATE: 'false',
  SOURCE_URL_CHECK_TIMEOUT_MS: '300',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  // Failed logins are answers to fuzz like any other, not a spray to stop after 30.
  LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '1000000',
  PUBLIC_BASE_URL: 'http://docproc.fuzz.test',
});
const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
const allOperations = fuzzOperations(doc, ctx.app.routeCatalog);
const operations = allOperations.filter((op) => !ONLY || op.key.includes(ONLY));
/** HEAD twins of GET routes run the GET handler: a third of the cases is enough for them. */
const weightOf = (op: FuzzOperation) => (op.method === 'HEAD' && allOperations.some((o) => o.method === 'GET' && o.path === op.path) ? 1 : 3);
const totalWeight = allOperations.reduce((sum, op) => sum + weightOf(op), 0);
// From all operations, so FUZZ_ONLY replays exactly the cases of a full run.
const runsOf = (op: FuzzOperation) => Math.max(5, Math.round((RUNS * weightOf(op)) / totalWeight));
const stats = new FuzzStats();

let a: TenantObjects;
let b: TenantObjects;
let doomedUploadId: string;
let outsider: TestTenant;
let env: FuzzEnvironment;
/** Credentials that must be refused (401, or 403 for a user without review permission) wherever they are sent. */
let refused: { client: ForgedCredential[]; reviewer: ForgedCredential[] };

const REVIEW = '/api/v1.0/review/';

function isReviewerRoute(op: FuzzOperation): boolean {
  return op.path.startsWith(REVIEW) && op.path !== `${REVIEW}login`;
}

/** Client-credentials routes: the external API, its alias, and the TUS endpoints. */
function isClientRoute(op: FuzzOperation): boolean {
  if (op.path.startsWith('/api/v1.0/')) return !op.path.startsWith(REVIEW);
  return op.path.startsWith('/files') && !op.path.startsWith('/files/download') && op.method !== 'OPTIONS';
}

const TUS = { 'tus-resumable': '1.0.0' };

/** Parts of valid requests that must go together. */
function presetsFor(op: FuzzOperation): RequestPreset[] {
  const link = new URL(a.signedLink, 'http://x');
  const speakerTask = { taskId: a.transcriptTask.id, workspaceId: a.transcriptWorkspaceId };
  switch (op.key.replace(/^HEAD /, 'GET ')) {
    case 'GET /files/download/{*}':
      return [{ path: { '*': a.documentTask.sourceBlobKey }, query: Object.fromEntries(link.searchParams) }];
    case 'GET /api/v1.0/external/transcripts/speakers/tasks/{taskId}/{workspaceId}':
    case 'POST /api/v1.0/external/transcripts/speakers/tasks/{taskId}/{workspaceId}':
    case 'PUT /api/v1.0/external/transcripts/speakers/tasks/{taskId}/{workspaceId}':
      return [{ path: speakerTask }];
    case 'DELETE /api/v1.0/external/transcripts/speakers/tasks/{taskId}/{workspaceId}/{speakerId}':
      return [{ path: { ...speakerTask, speakerId: a.taskSpeakerId } }];
    case 'GET /api/v1.0/external/transcripts/speakers/workspaces/{workspaceId}':
    case 'PUT /api/v1.0/external/transcripts/speakers/workspaces/{workspaceId}':
      return [{ path: { workspaceId: a.transcriptWorkspaceId } }];
    // Half the cases from a known-good minimal body, half from the schema (whose optional fields exclude each other).
    case 'POST /api/v1.0/external/sdtask/process':
    case 'POST /api/v1.0/sdtask/process':
      return [{ body: { json: { context: { url: `${publicBaseUrl(ctx.config)}/files/${a.finishedUploadId}` } } } }, {}];
    case 'GET /api/v1.0/review/tasks/{taskId}/pages/{pageNumber}.png':
      return [{ path: { taskId: a.documentTask.id, pageNumber: 1 } }];
    case 'POST /files': {
      const metadata = `filetype ${Buffer.from('application/pdf').toString('base64')},workspaceid ${Buffer.from(String(a.tenant.defaultWorkspaceId)).toString('base64')}`;
      return [{ headers: { ...TUS, 'upload-length': '5', 'upload-metadata': metadata } }];
    }
    case 'PATCH /files/{uploadId}':
      return [{ path: { uploadId: a.openUploadId }, headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: { text: '%PDF-' } }];
    case 'DELETE /files/{uploadId}':
      return [{ path: { uploadId: doomedUploadId }, headers: TUS }];
    case 'GET /files/{uploadId}':
      return [{ path: { uploadId: a.finishedUploadId }, headers: TUS }];
    case 'OPTIONS /files/{uploadId}':
    case 'OPTIONS /files':
      return [{ headers: TUS }];
    // The invitation link opened as a browser does, with no Accept, and by a client that prefers JSON.
    case 'GET /invitations/accept':
      return [{ headers: { accept: BROWSER_ACCEPT } }, {}, { headers: { accept: 'application/json' } }, { headers: { accept: 'application/problem+json' } }];
    case 'POST /invitations/accept':
      return [{}, { headers: { accept: 'application/json' } }];
    default:
      return [];
  }
}

/** Known values by field name (lower-case), so valid skeletons name objects that exist: A's mostly, B's sometimes. */
function hintsFor(): Map<string, unknown[]> {
  return new Map<string, unknown[]>([
    ['taskid', [a.documentTask.id, a.transcriptTask.id, b.documentTask.id]],
    ['workspaceid', [a.tenant.defaultWorkspaceId, a.transcriptWorkspaceId, b.tenant.defaultWorkspaceId]],
    ['batchid', [a.batchId, b.batchId]],
    ['externalid', [a.documentTask.externalId, a.transcriptTask.externalId, b.documentTask.externalId]],
    ['speakerid', [a.taskSpeakerId, 'speaker-1', a.workspaceSpeakerId]],
    ['uploadid', [a.finishedUploadId, a.openUploadId, b.finishedUploadId]],
    ['profileid', [a.vendorProfileId, b.vendorProfileId]],
    ['pagenumber', [1, 2]],
    ['chunknumber', [1]],
    ['entityindex', [0, 1]],
    ['index', [0, 1]],
    ['email', [a.reviewer.email, a.invitedEmail]],
    ['assignedusers', [a.reviewer.email]],
    ['password', [PASSWORD]],
    ['token', [a.invitationToken]],
    ['url', [`${publicBaseUrl(ctx.config)}/files/${a.finishedUploadId}`]],
    ['tenantid', [a.tenant.tenantId]],
    ['grant_type', ['client_credentials']],
    ['scope', ['WebAPI']],
    ['client_id', [a.tenant.clientId]],
    ['client_secret', [a.tenant.clientSecret]],
    ['startdate', ['2020-01-01T00:00:00Z']],
    ['enddate', ['2035-01-01T00:00:00Z']],
    ['sort', ['createdOn', '-createdOn']],
  ]);
}

/**
 * The invitation link is a page for a browser: an unusable invitation (400 unknown, 410 used or
 * expired) is explained on an HTML page with that status (README, "Users and invitations"), unless
 * the client's Accept names a JSON type (then it is a problem body like any other refusal).
 */
function isDocumentedHtmlPage(op: FuzzOperation, req: FuzzRequest, res: LightMyRequestResponse): boolean {
  const html = String(res.headers['content-type'] ?? '').startsWith('text/html');
  const formOrPage = req.method !== 'POST' || (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const asksForJson = Object.entries(req.headers).some(([name, value]) => name.toLowerCase() === 'accept' && /json/i.test(value));
  return op.path === '/invitations/accept' && html && formOrPage && !asksForJson && (res.statusCode === 400 || res.statusCode === 410);
}

/** What a browser sends when it follows a link. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  a = await createTenantObjects(ctx);
  b = await createTenantObjects(ctx);
  outsider = await createTestTenant(ctx);
  doomedUploadId = await startUpload(ctx, a.tenant, 5);
  refused = {
    client: [...(await forgeCredentials(ctx.keys, a.tenant.token)), { label: "a reviewer's user token", headers: a.reviewer.headers }],
    reviewer: [
      ...(await forgeCredentials(ctx.keys, a.reviewer.headers.authorization.slice('Bearer '.length))),
      { label: 'a client-credentials token', headers: a.tenant.headers },
      { label: 'a Viewer (no review permission)', headers: await userHeaders(ctx.app, await createUser(ctx, a.tenant, { roleName: 'Viewer' })) },
    ],
  };
  // Valid credentials of someone else: refused or answered like a missing object, never a fault.
  const clientForgeries: ForgedCredential[] = [
    ...refused.client,
    { label: "another organization's token", headers: b.tenant.headers },
    { label: 'a token of an organization with nothing', headers: outsider.headers },
  ];
  const reviewerForgeries: ForgedCredential[] = [...refused.reviewer, { label: "another organization's reviewer", headers: b.reviewer.headers }];
  const hints = hintsFor();
  env = {
    hints: (name) => hints.get(name.toLowerCase()),
    presets: presetsFor,
    credentials: (op) => (isReviewerRoute(op) ? a.reviewer.headers : isClientRoute(op) ? a.tenant.headers : {}),
    // Public routes must ignore a stray Authorization header of any kind.
    forgedCredentials: (op) => (isReviewerRoute(op) ? reviewerForgeries : clientForgeries),
  };
});

afterEach(async () => {
  // Whatever the last operation was sent, the app still answers and still serves its callers.
  const health = await ctx.app.inject({ method: 'GET', url: '/health' });
  expect(health.statusCode, health.body).toBe(200);
  const workspaces = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/sdworkspace/CurrentWorkspaces`, headers: a.tenant.headers });
  expect(workspaces.statusCode, workspaces.body).toBe(200);
  const reviewTasks = await ctx.app.inject({ method: 'GET', url: `${REVIEW}tasks`, headers: a.reviewer.headers });
  expect(reviewTasks.statusCode, reviewTasks.body).toBe(200);
});

afterAll(async () => {
  if (REPORT) process.stdout.write(`\nfuzz: seed ${SEED}, ${stats.total} cases\n${stats.format()}\n`);
  await ctx.close();
});

describe(`OpenAPI fuzz (seed ${SEED}, ${RUNS} cases)`, () => {
  it('covers every route the app serves, besides the docs UI', () => {
    const fuzzed = new Set(allOperations.map((op) => op.key));
    const missing = ctx.app.routeCatalog
      .filter((route) => !route.split(' ')[1]!.startsWith('/docs') && !route.endsWith(' /openapi.json'))
      .filter((route) => {
        const [method, url] = route.split(' ') as [string, string];
        return !fuzzed.has(`${method} ${openApiPath(url)}`);
      });
    expect(missing).toEqual([]);
  });

  for (const op of operations) {
    it(
      op.key,
      async () => {
        const failures = await fuzzOperation(ctx.app, doc, op, env, {
          runs: runsOf(op),
          seed: SEED,
          timeoutMs: REQUEST_TIMEOUT_MS,
          stats,
          acceptable: isDocumentedHtmlPage,
          ...(REPLAY_CASE === undefined ? {} : { replayCase: REPLAY_CASE }),
        });
        const replay = (caseIndex: number) => `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_ONLY='${op.key}' FUZZ_CASE=${caseIndex} npx vitest run test/fuzz.test.ts -t 'OpenAPI fuzz'`;
        if (failures.length) throw new Error(formatFailures(op, failures, replay));
      },
      Math.max(60_000, runsOf(op) * 2_000),
    );
  }
});

describe('forged, broken and misplaced credentials', () => {
  it('are refused with a 401 or 403 problem on every route that needs credentials', async () => {
    const accepted: string[] = [];
    for (const op of operations.filter((o) => isClientRoute(o) || isReviewerRoute(o))) {
      const [req] = fc.sample(validRequests(doc, op, env), { numRuns: 1, seed: operationSeed(SEED, op) });
      for (const forged of isReviewerRoute(op) ? refused.reviewer : refused.client) {
        const res = await sendFuzzRequest(ctx.app, op, { ...req!, headers: { ...withoutAuthorization(req!.headers), ...forged.headers } }, REQUEST_TIMEOUT_MS);
        const faults = responseFaults(res, op.method);
        if (![401, 403].includes(res.statusCode) || faults.length) accepted.push(`${op.key} with ${forged.label}: ${res.statusCode} ${faults.join('; ')}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

/** Names JavaScript objects already have, and a few others: as query parameters they are just unknown parameters. */
const UNKNOWN_PARAMETER_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'length', '0', 'x'];

describe('unknown query parameters', () => {
  for (const op of operations.filter((o) => o.method === 'GET')) {
    it(`change nothing on ${op.key}`, async () => {
      const declared = new Set(op.queryParams.map((p) => p.name.toLowerCase()));
      const names = UNKNOWN_PARAMETER_NAMES.filter((n) => !declared.has(n.toLowerCase()));
      const extra = fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom('1', 'x', '', '%5B%5D')), { minLength: 1, maxLength: 3 });
      await fc.assert(
        fc.asyncProperty(validRequests(doc, op, env), extra, async (req, pairs) => {
          const plain = await sendFuzzRequest(ctx.app, op, req, REQUEST_TIMEOUT_MS);
          const withExtra = await sendFuzzRequest(ctx.app, op, { ...req, query: [...pairs, ...req.query] }, REQUEST_TIMEOUT_MS);
          expect(withExtra.statusCode, `${describeRequest(op, req)}\nwith ${pairs.map((p) => p.join('=')).join('&')}: ${withExtra.body}`).toBe(plain.statusCode);
        }),
        { seed: operationSeed(SEED, op), numRuns: 8 },
      );
    });
  }
});
