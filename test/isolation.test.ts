/**
 * Tenant isolation, generated from the route table (app.routeCatalog): for every route that names
 * an object, organization B's credentials aimed at organization A's object get exactly the answer
 * a missing object gets (404 for objects, an empty result for filters), say nothing of A, and
 * change nothing of A (every row, upload byte and stored file of A compared before and after).
 * A route that takes an id and has no case here fails the suite; routes without ids are listed as
 * exempt with the reason.
 */
import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../src/config.js';
import { signFileUrl } from '../src/storage/signed-url.js';
import { createTestContext } from './support/context.js';
import { fuzzOperations, openApiPath, SchemaValues, type OpenApiDocument, type Schema } from './support/openapi-operations.js';
import { expectProblem } from './support/problem.js';
import { PASSWORD, createUser } from './support/review.js';
import { EXTERNAL, createTenantObjects, sendChunk, startUpload, type TenantObjects } from './support/tenant-objects.js';
import { snapshotTenant } from './support/tenant-snapshot.js';

// The operator endpoints are on (their credentials set), so that the table has to account for them.
const ctx = await createTestContext({
  SOURCE_URL_ALLOW_PRIVATE: 'false',
  SOURCE_URL_CHECK_TIMEOUT_MS: '300',
  RATE_LIMIT_PER_MINUTE: '1000000',
  METRICS_TOKEN: 'isolation-metrics-token-0123',
  ADMIN_TOKEN: 'isolation-admin-token-0123',
});
const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
const base = publicBaseUrl(ctx.config);
const REVIEW = '/api/v1.0/review';

let a: TenantObjects;
let b: TenantObjects;
/** A user of A whose address B invites (not one of A's leak markers: B then has a user of its own with it). */
let sharedEmail: string;
/** A's webhook endpoint with one delivery, and B's own endpoint. */
let aWebhook: { webhookId: number; deliveryId: number };
let bWebhookId: number;

/** A webhook endpoint of `o` (a public address: this context refuses private ones), and its first delivery. */
async function createWebhookWithDelivery(o: TenantObjects): Promise<{ webhookId: number; deliveryId: number }> {
  const url = `https://1.1.1.1/hooks/${randomUUID()}`;
  const res = await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/webhooks`, headers: o.tenant.headers, payload: { url, eventTypes: ['task.status_changed'] } });
  expect(res.statusCode, res.body).toBe(200);
  o.markers.push(url);
  // A new task is a status change: its event gets a delivery (no worker here delivers it).
  const task = await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/sdtask/process`, headers: o.tenant.headers, payload: { context: { url: `${base}/files/${o.finishedUploadId}` } } });
  expect(task.statusCode, task.body).toBe(200);
  const deliveries = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/webhooks/${res.json().webhookId}/deliveries`, headers: o.tenant.headers });
  expect(deliveries.json().totalCount, deliveries.body).toBe(1);
  return { webhookId: res.json().webhookId, deliveryId: deliveries.json().items[0].deliveryId };
}

beforeAll(async () => {
  a = await createTenantObjects(ctx);
  b = await createTenantObjects(ctx);
  sharedEmail = (await createUser(ctx, a.tenant, { email: `shared-${randomUUID()}@example.com` })).email;
  aWebhook = await createWebhookWithDelivery(a);
  bWebhookId = (await createWebhookWithDelivery(b)).webhookId;
});
afterAll(async () => ctx.close());

/** The objects a request of B is aimed at: A's, or ids no organization has. */
interface Target {
  tenantId: number;
  documentTaskId: number;
  transcriptTaskId: number;
  documentExternalId: string;
  transcriptExternalId: string;
  workspaceId: number;
  transcriptWorkspaceId: number;
  batchId: number;
  finishedUploadId: string;
  openUploadId: string;
  speakerId: string;
  workspaceSpeakerId: string;
  email: string;
  webhookId: number;
  deliveryId: number;
  vendorProfileId: number;
}

function targetOf(o: TenantObjects): Target {
  return {
    tenantId: o.tenant.tenantId,
    documentTaskId: o.documentTask.id,
    transcriptTaskId: o.transcriptTask.id,
    documentExternalId: o.documentTask.externalId,
    transcriptExternalId: o.transcriptTask.externalId,
    workspaceId: o.tenant.defaultWorkspaceId,
    transcriptWorkspaceId: o.transcriptWorkspaceId,
    batchId: o.batchId,
    finishedUploadId: o.finishedUploadId,
    openUploadId: o.openUploadId,
    speakerId: o.taskSpeakerId,
    workspaceSpeakerId: o.workspaceSpeakerId,
    email: sharedEmail,
    webhookId: aWebhook.webhookId,
    deliveryId: aWebhook.deliveryId,
    vendorProfileId: o.vendorProfileId,
  };
}

const NOBODY = 2_147_483_000;
function missingTarget(): Target {
  const none = `missing-${randomUUID().slice(0, 8)}`;
  return {
    tenantId: NOBODY,
    documentTaskId: NOBODY,
    transcriptTaskId: NOBODY + 1,
    documentExternalId: none,
    transcriptExternalId: `${none}-rec`,
    workspaceId: NOBODY,
    transcriptWorkspaceId: NOBODY + 1,
    batchId: NOBODY,
    finishedUploadId: 'f'.repeat(32),
    openUploadId: 'e'.repeat(32),
    speakerId: 'agent',
    workspaceSpeakerId: 'host',
    email: `${none}@example.com`,
    webhookId: NOBODY,
    deliveryId: NOBODY,
    vendorProfileId: NOBODY,
  };
}

interface Call {
  request: InjectOptions;
  /** What B gets, aimed at A's object and at a missing one alike. */
  status: number;
}

interface IsolationCase {
  /** B's requests aimed at `t`. Called once for A's objects and once for missing ones. */
  calls: (t: Target) => Promise<Call[]> | Call[];
}

const client = () => b.tenant.headers;
const reviewer = () => b.reviewer.headers;
const get = (url: string, status = 404, headers: Record<string, string> = client()): Call => ({ request: { method: 'GET', url, headers }, status });
const send = (method: InjectOptions['method'], url: string, payload: unknown, status = 404, headers: Record<string, string> = client()): Call => ({
  request: { method, url, headers, payload: payload as InjectOptions['payload'] },
  status,
});

/** A task named every way a route accepts: path id, query id, externalId. */
function exportCalls(prefix: string, suffix: string, taskId: (t: Target) => number, externalId: (t: Target) => string): IsolationCase {
  return {
    calls: (t) => [get(`${EXTERNAL}${prefix}/${taskId(t)}${suffix}`), get(`${EXTERNAL}${prefix}/${taskId(t)}${suffix}?externalId=${externalId(t)}`)],
  };
}
function exportByQueryCalls(prefix: string, suffix: string, taskId: (t: Target) => number, externalId: (t: Target) => string): IsolationCase {
  return {
    calls: (t) => [get(`${EXTERNAL}${prefix}${suffix}?taskid=${taskId(t)}`), get(`${EXTERNAL}${prefix}${suffix}?externalId=${externalId(t)}`)],
  };
}
const documentTask = (t: Target) => t.documentTaskId;
const transcriptTask = (t: Target) => t.transcriptTaskId;
const documentExternal = (t: Target) => t.documentExternalId;
const transcriptExternal = (t: Target) => t.transcriptExternalId;

/** A TUS request of B on an upload of its own, with A's upload id smuggled after it (the TUS server once read ids from the whole URL). */
async function ownUploadWithForeignId(method: 'HEAD' | 'PATCH' | 'DELETE', foreignId: string): Promise<Call> {
  const own = await startUpload(ctx, b.tenant, 5);
  const url = `/files/${own}?x=/${foreignId}`;
  const tus = { ...client(), 'tus-resumable': '1.0.0' };
  if (method === 'PATCH') {
    return { request: { method, url, headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, payload: Buffer.from('%PDF-') }, status: 204 };
  }
  return { request: { method, url, headers: tus }, status: method === 'HEAD' ? 200 : 204 };
}

/**
 * Every route of the catalog that names an object (by `METHOD /url`), with B's requests against
 * it. HEAD twins of GET routes reuse the GET case.
 */
const cases: Record<string, IsolationCase> = {
  'GET /api/v1.0/external/sdtask/status': {
    calls: (t) => [
      get(`${EXTERNAL}/sdtask/status?taskId=${t.documentTaskId}`),
      get(`${EXTERNAL}/sdtask/status?externalId=${t.documentExternalId}`),
      get(`${EXTERNAL}/sdtask/status?taskId=${t.transcriptTaskId}&externalId=${t.transcriptExternalId}`),
    ],
  },
  'PATCH /api/v1.0/external/sdtask/externalIntegrationStatus': {
    calls: (t) => [
      send('PATCH', `${EXTERNAL}/sdtask/externalIntegrationStatus?taskId=${t.documentTaskId}`, { externalIntegrationStatus: 'taken over' }),
      send('PATCH', `${EXTERNAL}/sdtask/externalIntegrationStatus?externalId=${t.transcriptExternalId}`, { externalIntegrationStatus: 'taken over' }),
    ],
  },
  'PATCH /api/v1.0/external/sdtask/restartprocessing': {
    calls: (t) => [
      send('PATCH', `${EXTERNAL}/sdtask/restartprocessing?taskId=${t.documentTaskId}`, undefined),
      send('PATCH', `${EXTERNAL}/sdtask/restartprocessing?externalId=${t.transcriptExternalId}`, undefined),
    ],
  },
  'POST /api/v1.0/external/sdtask/process': {
    calls: (t) => [
      send('POST', `${EXTERNAL}/sdtask/process`, { workspaceId: t.workspaceId, context: { url: `${base}/files/${b.finishedUploadId}` } }),
      send('POST', `${EXTERNAL}/sdtask/process`, { batchId: t.batchId, context: { url: `${base}/files/${b.finishedUploadId}` } }),
      // Another organization's upload is unusable exactly like a missing one (422, reason http-404).
      send('POST', `${EXTERNAL}/sdtask/process`, { context: { url: `${base}/files/${t.finishedUploadId}` } }, 422),
    ],
  },
  'POST /api/v1.0/sdtask/process': {
    calls: (t) => [
      send('POST', '/api/v1.0/sdtask/process', { workspaceId: t.workspaceId, context: { url: `${base}/files/${b.finishedUploadId}` } }),
      send('POST', '/api/v1.0/sdtask/process', { context: { url: `${base}/files/${t.finishedUploadId}` } }, 422),
    ],
  },
  // Filters by another organization's workspace match nothing, like filters by a missing one.
  'GET /api/v1.0/external/sdtask/statuslistpaginated': {
    calls: (t) => [get(`${EXTERNAL}/sdtask/statuslistpaginated?startDate=2000-01-01&workspaceId=${t.workspaceId}`, 200), get(`${EXTERNAL}/sdtask/statuslistpaginated?startDate=2000-01-01`, 200)],
  },
  'GET /api/v1.0/external/sdtask/statuslist': {
    calls: (t) => [get(`${EXTERNAL}/sdtask/statuslist?startDate=2000-01-01&workspaceId=${t.transcriptWorkspaceId}`, 200), get(`${EXTERNAL}/sdtask/statuslist?startDate=2000-01-01`, 200)],
  },
  'POST /api/v1.0/external/sdbatch': {
    calls: (t) => [send('POST', `${EXTERNAL}/sdbatch`, { displayName: 'intruder', workspaceId: t.workspaceId })],
  },
  'GET /api/v1.0/external/sdbatch': { calls: (t) => [get(`${EXTERNAL}/sdbatch?batchId=${t.batchId}`)] },
  'GET /api/v1.0/external/sdbatch/paginated': {
    calls: (t) => [get(`${EXTERNAL}/sdbatch/paginated?startDate=2000-01-01&workspaceId=${t.workspaceId}`, 200), get(`${EXTERNAL}/sdbatch/paginated?startDate=2000-01-01`, 200)],
  },
  'GET /api/v1.0/external/transcripts/speakers/tasks/:taskId/:workspaceId': {
    calls: (t) => [get(`${EXTERNAL}/transcripts/speakers/tasks/${t.transcriptTaskId}/${t.transcriptWorkspaceId}`)],
  },
  'POST /api/v1.0/external/transcripts/speakers/tasks/:taskId/:workspaceId': {
    calls: (t) => [send('POST', `${EXTERNAL}/transcripts/speakers/tasks/${t.transcriptTaskId}/${t.transcriptWorkspaceId}`, { speakerId: 'intruder', speakerName: 'Intruder', isDefault: true })],
  },
  'PUT /api/v1.0/external/transcripts/speakers/tasks/:taskId/:workspaceId': {
    calls: (t) => [send('PUT', `${EXTERNAL}/transcripts/speakers/tasks/${t.transcriptTaskId}/${t.transcriptWorkspaceId}`, { speakerId: t.speakerId, speakerName: 'Renamed', isDefault: true })],
  },
  'DELETE /api/v1.0/external/transcripts/speakers/tasks/:taskId/:workspaceId/:speakerId': {
    calls: (t) => [send('DELETE', `${EXTERNAL}/transcripts/speakers/tasks/${t.transcriptTaskId}/${t.transcriptWorkspaceId}/${t.speakerId}`, undefined)],
  },
  'GET /api/v1.0/external/transcripts/speakers/workspaces/:workspaceId': {
    calls: (t) => [get(`${EXTERNAL}/transcripts/speakers/workspaces/${t.transcriptWorkspaceId}`)],
  },
  'PUT /api/v1.0/external/transcripts/speakers/workspaces/:workspaceId': {
    calls: (t) => [
      send('PUT', `${EXTERNAL}/transcripts/speakers/workspaces/${t.transcriptWorkspaceId}`, { speakers: [] }),
      send('PUT', `${EXTERNAL}/transcripts/speakers/workspaces/${t.transcriptWorkspaceId}`, { speakers: [{ speakerId: t.workspaceSpeakerId, speakerName: 'Renamed' }] }),
    ],
  },
  'GET /api/v1.0/external/sdtask/GetExportData/:taskid': exportCalls('/sdtask/GetExportData', '', documentTask, documentExternal),
  'GET /api/v1.0/external/sdtask/GetExportData/:taskid/simplified': exportCalls('/sdtask/GetExportData', '/simplified', documentTask, documentExternal),
  'GET /api/v1.0/external/sdtask/GetExportData/Transcript/:taskid': exportCalls('/sdtask/GetExportData/Transcript', '', transcriptTask, transcriptExternal),
  'GET /api/v1.0/external/sdtask/GetExportData/Transcript/:taskid/simplified': exportCalls('/sdtask/GetExportData/Transcript', '/simplified', transcriptTask, transcriptExternal),
  'GET /api/v1.0/external/sdtask/GetExportData': exportByQueryCalls('/sdtask/GetExportData', '', documentTask, documentExternal),
  'GET /api/v1.0/external/sdtask/GetExportData/simplified': exportByQueryCalls('/sdtask/GetExportData', '/simplified', documentTask, documentExternal),
  'GET /api/v1.0/external/sdtask/GetExportData/Transcript': exportByQueryCalls('/sdtask/GetExportData/Transcript', '', transcriptTask, transcriptExternal),
  'GET /api/v1.0/external/sdtask/GetExportData/Transcript/simplified': exportByQueryCalls('/sdtask/GetExportData/Transcript', '/simplified', transcriptTask, transcriptExternal),
  'POST /api/v1.0/external/sdworkspace/inviteusers': {
    calls: (t) => [send('POST', `${EXTERNAL}/sdworkspace/inviteusers`, { workspaceId: t.transcriptWorkspaceId, users: [{ email: `intruder-${randomUUID()}@example.com`, roleName: 'Administrator' }] })],
  },
  // Users are per organization: B inviting A's user makes a user of B, and A's stays as it is.
  'POST /api/v1.0/external/tenant/inviteusers': {
    calls: (t) => [send('POST', `${EXTERNAL}/tenant/inviteusers`, { users: [{ email: t.email, roleName: 'Administrator' }] }, 204)],
  },
  'GET /api/v1.0/external/sdworkspace/allusers/:workspaceId': { calls: (t) => [get(`${EXTERNAL}/sdworkspace/allusers/${t.workspaceId}`)] },
  // Lists name no id; they must show nothing of A.
  'GET /api/v1.0/external/sdworkspace/CurrentWorkspaces': { calls: () => [get(`${EXTERNAL}/sdworkspace/CurrentWorkspaces`, 200)] },
  'GET /api/v1.0/external/tenant/allusers': { calls: () => [get(`${EXTERNAL}/tenant/allusers`, 200)] },
  'GET /api/v1.0/review/tasks': { calls: () => [get(`${REVIEW}/tasks?pageSize=500`, 200, reviewer())] },

  // Webhooks (extension routes): A's endpoint and its delivery, by A's ids and through B's own endpoint.
  'GET /api/v1.0/external/webhooks': { calls: () => [get(`${EXTERNAL}/webhooks`, 200)] },
  'GET /api/v1.0/external/webhooks/:webhookId': { calls: (t) => [get(`${EXTERNAL}/webhooks/${t.webhookId}`)] },
  'PATCH /api/v1.0/external/webhooks/:webhookId': {
    calls: (t) => [send('PATCH', `${EXTERNAL}/webhooks/${t.webhookId}`, { enabled: false, url: 'https://1.1.1.1/stolen', eventTypes: ['upload.completed'] })],
  },
  'DELETE /api/v1.0/external/webhooks/:webhookId': { calls: (t) => [send('DELETE', `${EXTERNAL}/webhooks/${t.webhookId}`, undefined)] },
  'POST /api/v1.0/external/webhooks/:webhookId/rotate-secret': { calls: (t) => [send('POST', `${EXTERNAL}/webhooks/${t.webhookId}/rotate-secret`, undefined)] },
  'GET /api/v1.0/external/webhooks/:webhookId/deliveries': { calls: (t) => [get(`${EXTERNAL}/webhooks/${t.webhookId}/deliveries`)] },
  'POST /api/v1.0/external/webhooks/:webhookId/deliveries/:deliveryId/redeliver': {
    calls: (t) => [
      send('POST', `${EXTERNAL}/webhooks/${t.webhookId}/deliveries/${t.deliveryId}/redeliver`, undefined),
      send('POST', `${EXTERNAL}/webhooks/${bWebhookId}/deliveries/${t.deliveryId}/redeliver`, undefined),
    ],
  },

  // Vendor profiles (extension routes): A's workspace and A's profile.
  'GET /api/v1.0/external/vendorprofiles/workspaces/:workspaceId': { calls: (t) => [get(`${EXTERNAL}/vendorprofiles/workspaces/${t.workspaceId}`)] },
  'GET /api/v1.0/external/vendorprofiles/:profileId': { calls: (t) => [get(`${EXTERNAL}/vendorprofiles/${t.vendorProfileId}`)] },
  'DELETE /api/v1.0/external/vendorprofiles/:profileId': { calls: (t) => [send('DELETE', `${EXTERNAL}/vendorprofiles/${t.vendorProfileId}`, undefined)] },
  'DELETE /api/v1.0/external/vendorprofiles/:profileId/fields/:field': {
    calls: (t) => [send('DELETE', `${EXTERNAL}/vendorprofiles/${t.vendorProfileId}/fields/InvoiceId`, undefined)],
  },

  // Uploads (TUS).
  'POST /files': {
    calls: (t) => [
      {
        request: {
          method: 'POST',
          url: '/files',
          headers: {
            ...client(),
            'tus-resumable': '1.0.0',
            'upload-length': '5',
            'upload-metadata': `filetype ${Buffer.from('application/pdf').toString('base64')},workspaceid ${Buffer.from(String(t.workspaceId)).toString('base64')}`,
          },
        },
        status: 404,
      },
      // Concatenation of A's uploads into one of B's: refused as an extension not offered, whichever uploads it names.
      {
        request: {
          method: 'POST',
          url: '/files',
          headers: {
            ...client(),
            'tus-resumable': '1.0.0',
            'upload-metadata': `filetype ${Buffer.from('application/pdf').toString('base64')}`,
            'upload-concat': `final;/files/${t.finishedUploadId} /files/${t.openUploadId}`,
          },
        },
        status: 400,
      },
    ],
  },
  'HEAD /files/:uploadId': {
    calls: async (t) => [
      { request: { method: 'HEAD', url: `/files/${t.finishedUploadId}`, headers: { ...client(), 'tus-resumable': '1.0.0' } }, status: 404 },
      await ownUploadWithForeignId('HEAD', t.finishedUploadId),
    ],
  },
  'PATCH /files/:uploadId': {
    calls: async (t) => [
      { ...sendChunkCall(`/files/${t.openUploadId}`), status: 404 },
      await ownUploadWithForeignId('PATCH', t.openUploadId),
    ],
  },
  'DELETE /files/:uploadId': {
    calls: async (t) => [
      { request: { method: 'DELETE', url: `/files/${t.finishedUploadId}`, headers: { ...client(), 'tus-resumable': '1.0.0' } }, status: 404 },
      await ownUploadWithForeignId('DELETE', t.finishedUploadId),
    ],
  },
  // TUS capabilities, the same for any id: nothing to learn, nothing to change.
  'OPTIONS /files/:uploadId': {
    calls: (t) => [{ request: { method: 'OPTIONS', url: `/files/${t.openUploadId}`, headers: { ...client(), 'tus-resumable': '1.0.0' } }, status: 204 }],
  },

  // The reviewer API, with the user token of B's administrator.
  'GET /api/v1.0/review/tasks/:taskId': { calls: (t) => [get(`${REVIEW}/tasks/${t.documentTaskId}`, 404, reviewer()), get(`${REVIEW}/tasks/${t.transcriptTaskId}`, 404, reviewer())] },
  'GET /api/v1.0/review/tasks/:taskId/pages/:pageNumber.png': { calls: (t) => [get(`${REVIEW}/tasks/${t.documentTaskId}/pages/1.png`, 404, reviewer())] },
  'POST /api/v1.0/review/tasks/:taskId/checkout': { calls: (t) => [send('POST', `${REVIEW}/tasks/${t.documentTaskId}/checkout`, undefined, 404, reviewer())] },
  'PATCH /api/v1.0/review/tasks/:taskId/entities': {
    calls: (t) => [send('PATCH', `${REVIEW}/tasks/${t.documentTaskId}/entities`, { chunks: [{ chunkNumber: 1, edits: [{ entityIndex: 0, content: 'taken over' }] }] }, 404, reviewer())],
  },
  'PATCH /api/v1.0/review/tasks/:taskId/transcript': {
    calls: (t) => [send('PATCH', `${REVIEW}/tasks/${t.transcriptTaskId}/transcript`, { segments: [{ index: 0, displayText: 'taken over' }] }, 404, reviewer())],
  },
  'POST /api/v1.0/review/tasks/:taskId/complete': { calls: (t) => [send('POST', `${REVIEW}/tasks/${t.documentTaskId}/complete`, undefined, 404, reviewer())] },
  // B's reviewer naming A's organization at login is refused like naming no organization at all.
  'POST /api/v1.0/review/login': {
    calls: (t) => [send('POST', `${REVIEW}/login`, { email: b.reviewer.email, password: PASSWORD, tenantId: t.tenantId }, 401, {})],
  },
};

/** A's rows and what A's exports say (signed links without their expiring query). */
async function snapshotA(): Promise<unknown> {
  const exports = [];
  for (const url of [`${EXTERNAL}/sdtask/GetExportData/${a.documentTask.id}`, `${EXTERNAL}/sdtask/GetExportData/Transcript/${a.transcriptTask.id}`]) {
    const res = await ctx.app.inject({ method: 'GET', url, headers: a.tenant.headers });
    exports.push(res.body.replace(/\?expires=[^"]*/g, ''));
  }
  const webhooks = await ctx.prisma.webhookEndpoint.findMany({
    where: { tenantId: a.tenant.tenantId },
    orderBy: { id: 'asc' },
    include: { deliveries: { orderBy: { id: 'asc' }, include: { event: true, attemptLog: { orderBy: { id: 'asc' } } } } },
  });
  return { rows: await snapshotTenant(ctx, a.tenant.tenantId), exports, webhooks };
}

function sendChunkCall(url: string): { request: InjectOptions } {
  return {
    request: {
      method: 'PATCH',
      url,
      headers: { ...client(), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('%PDF-'),
    },
  };
}

/** Signed file links carry no organization: the HMAC is the credential. Cases of their own below. */
const SIGNED_LINKS = ['GET /files/download/*', 'HEAD /files/download/*'];

/** Routes that name no object of an organization, and why. */
const exempt: Record<string, string> = {
  'GET /health': 'liveness, no data',
  'GET /ready': 'readiness, no data',
  'GET /.well-known/jwks.json': 'public signing keys',
  'OPTIONS /files': 'TUS capabilities, no upload named',
  'GET /review': 'static reviewer page',
  'GET /api/v1.0/external/tenant/availableroles': 'a fixed list of role names',
  'GET /openapi.json': 'the API description',
  'GET /metrics': 'operators only (METRICS_TOKEN): process-wide counts, no data of any organization (metrics.test.ts)',
};

/** Routes with a parameter that is no object of an organization, and why. */
const notOrganizationData: Record<string, string> = {
  'POST /connect/token': "client_id names the caller itself, proven by its secret; another client's id with this secret is a 401 (auth.test.ts)",
  'GET /review/:file': 'static files of the reviewer page (app.js, style.css), the same for everyone',
  'GET /invitations/accept': 'the link token is the credential, whoever holds it; no organization credentials are involved',
  'POST /invitations/accept': 'the link token is the credential, whoever holds it; no organization credentials are involved',
  'POST /api/v1.0/external/webhooks': "url is where the caller's own events are to go, no object of an organization; the endpoint created is the caller's",
};

/** Whether a route names an object: a path parameter, or an id, externalId or URL among its documented query or body fields. */
function takesAnId(route: string): boolean {
  const [method, url] = route.split(' ') as [string, string];
  if (/[:*]/.test(url)) return true;
  const op = fuzzOperations(doc).find((o) => o.key === `${method} ${openApiPath(url)}`);
  if (!op) return false;
  const names = new Set<string>(op.queryParams.map((p) => p.name));
  const values = new SchemaValues(doc, () => undefined);
  const walk = (schema: Schema, depth: number) => {
    const s = values.resolve(schema);
    if (depth > 4 || !s) return;
    for (const [name, child] of Object.entries<Schema>(s.properties ?? {})) {
      names.add(name);
      walk(child, depth + 1);
    }
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) walk(branch, depth + 1);
    if (s.items) walk(s.items, depth + 1);
  };
  if (op.body) walk(op.body.schema, 0);
  return [...names].some((n) => /id$/i.test(n) || n === 'url');
}

/** Catalog routes a HEAD route shares its case with: its GET twin. */
function caseKey(route: string): string {
  const [method, url] = route.split(' ') as [string, string];
  return method === 'HEAD' && ctx.app.routeCatalog.includes(`GET ${url}`) ? `GET ${url}` : route;
}

/**
 * The operators' queue dashboard (bull-board), exempt as a whole: behind the operator credential
 * of the configuration, never an organization's token (queue-dashboard.test.ts); its ids are
 * BullMQ's queue names and job ids, not objects of an organization.
 */
const OPERATOR_DASHBOARD = '/admin/queues';
const catalog = ctx.app.routeCatalog.filter((r) => !r.split(' ')[1]!.startsWith('/docs') && !r.split(' ')[1]!.startsWith(OPERATOR_DASHBOARD));

describe('the isolation table', () => {
  it('has a case for every route that names an object, and lists the others as exempt', () => {
    const problems: string[] = [];
    for (const route of catalog) {
      const key = caseKey(route);
      if (cases[key] || SIGNED_LINKS.includes(route) || notOrganizationData[key]) continue;
      if (exempt[key]) {
        if (takesAnId(key)) problems.push(`${route} takes an id but is exempt`);
        continue;
      }
      problems.push(takesAnId(key) ? `new route ${route} has no isolation case` : `route ${route} is neither tested nor exempt (give a reason)`);
    }
    for (const key of [...Object.keys(cases), ...SIGNED_LINKS, ...Object.keys(exempt), ...Object.keys(notOrganizationData)]) {
      if (!catalog.includes(key)) problems.push(`${key} is in the table but not a route any more`);
    }
    expect(problems).toEqual([]);
  });

  it('exempts the operator dashboard only where it exists', () => {
    expect(ctx.app.routeCatalog).toContain(`GET ${OPERATOR_DASHBOARD}`);
  });
});

/** Texts of two answers made comparable: the ids each request named are replaced, numbers too. */
function normalized(text: string, named: string[]): string {
  let out = text;
  const words = named.filter((v) => !/^\d+$/.test(v)).sort((x, y) => y.length - x.length);
  for (const value of words) out = out.split(value).join('<id>');
  return out.replace(/\d+/g, '#').replace(/"traceId":"[^"]*"/g, '"traceId":"…"');
}

function targetValues(t: Target): string[] {
  return Object.values(t).map(String);
}

function comparable(res: LightMyRequestResponse, named: string[]) {
  return {
    status: res.statusCode,
    type: String(res.headers['content-type'] ?? ''),
    body: normalized(res.body, named),
    uploadOffset: res.headers['upload-offset'],
    uploadLength: res.headers['upload-length'],
  };
}

describe("organization B against organization A's objects", () => {
  const routes = [...new Set(catalog.map(caseKey))].filter((r) => cases[r]);
  for (const route of routes) {
    const heads = catalog.filter((r) => r.startsWith('HEAD ') && caseKey(r) === route && r !== route);
    it(`${route}${heads.length ? ' (and HEAD)' : ''}: like a missing object, and A unchanged`, async () => {
      const aimedAtA = await cases[route]!.calls(targetOf(a));
      const missing = missingTarget();
      const aimedAtNothing = await cases[route]!.calls(missing);
      for (const [i, call] of aimedAtA.entries()) {
        for (const method of [call.request.method, ...(heads.length ? ['HEAD' as const] : [])]) {
          const before = await snapshotA();
          const onA = await ctx.app.inject({ ...call.request, method });
          const onNothing = await ctx.app.inject({ ...aimedAtNothing[i]!.request, method });
          const after = await snapshotA();
          const what = `${method} ${call.request.url}`;
          expect(after, `${what} changed organization A`).toEqual(before);
          expect(onA.statusCode, `${what}: ${onA.body}`).toBe(call.status);
          const named = [...targetValues(targetOf(a)), ...targetValues(missing)];
          expect(comparable(onA, named), `${what} answers differently than for a missing object`).toEqual(comparable(onNothing, named));
          if (call.status >= 400 && method !== 'HEAD') expectProblem(onA, call.status);
          const sent = `${call.request.url} ${JSON.stringify(call.request.payload ?? '')}`;
          for (const marker of a.markers.filter((m) => !sent.includes(m))) expect(onA.body, `${what} shows ${marker} of organization A`).not.toContain(marker);
        }
      }
    });
  }
});

describe('signed file links (not organization-authenticated: the HMAC is the credential)', () => {
  const link = (key: string, secret = ctx.fileUrlSecret, filename?: string) =>
    new URL(signFileUrl({ baseUrl: base, key, expiresAt: new Date(Date.now() + 600_000), secret, ...(filename ? { filename } : {}) }));
  const pathAndQuery = (url: URL) => `${url.pathname}${url.search}`;

  it("cannot be turned into a link to another organization's file, another key or a later expiry", async () => {
    const genuine = link(a.documentTask.sourceBlobKey);
    expect((await ctx.app.inject({ method: 'GET', url: pathAndQuery(genuine) })).statusCode).toBe(200);
    const other = link(b.documentTask.sourceBlobKey);
    const tampered: Array<[string, string]> = [
      ["B's path, A's signature", `${other.pathname}${genuine.search}`],
      ["A's path, B's signature", `${genuine.pathname}${other.search}`],
      ['path of a sibling key', `${genuine.pathname.replace(/\/source$/, '/redacted.pdf')}${genuine.search}`],
      ['signed with another secret', pathAndQuery(link(a.documentTask.sourceBlobKey, 'another-secret-0123456789abcdefghij'))],
      ['expiry moved later', pathAndQuery(new URL(genuine.href.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 86_400}`)))],
      ['filename added', `${pathAndQuery(genuine)}&filename=invoice.pdf`],
      ['signature of another filename', pathAndQuery(new URL(link(a.documentTask.sourceBlobKey, ctx.fileUrlSecret, 'a.pdf').href.replace('filename=a.pdf', 'filename=b.pdf')))],
      ['signature cut short', pathAndQuery(genuine).slice(0, -2)],
      ['no signature', `${genuine.pathname}?expires=${genuine.searchParams.get('expires')}`],
    ];
    const before = await snapshotA();
    for (const [what, url] of tampered) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await ctx.app.inject({ method, url });
        expect(res.statusCode, `${what}: ${method} ${url} ${res.body}`).toBe(403);
        expect(String(res.headers['content-type']), what).toMatch(/^application\/problem\+json/);
        if (method === 'GET') expectProblem(res, 403, 'InvalidSignature');
      }
    }
    expect(await snapshotA()).toEqual(before);
  });

  it('answers a genuine link to a file that is gone with 404, and an expired one with 410', async () => {
    expectProblem(await ctx.app.inject({ method: 'GET', url: pathAndQuery(link(`tenants/${a.tenant.tenantId}/tasks/gone-${randomUUID()}/source`)) }), 404);
    const expired = new URL(signFileUrl({ baseUrl: base, key: a.documentTask.sourceBlobKey, expiresAt: new Date(Date.now() - 1000), secret: ctx.fileUrlSecret }));
    expectProblem(await ctx.app.inject({ method: 'GET', url: pathAndQuery(expired) }), 410);
  });
});

// A sanity check of the case machinery itself: A's own credentials do reach A's objects.
describe('the same requests with A’s own credentials', () => {
  it('reach A’s objects (so the 404s above come from isolation, not from broken requests)', async () => {
    const t = targetOf(a);
    const own = { authorization: a.tenant.headers.authorization };
    for (const url of [
      `${EXTERNAL}/sdtask/status?taskId=${t.documentTaskId}`,
      `${EXTERNAL}/sdbatch?batchId=${t.batchId}`,
      `${EXTERNAL}/transcripts/speakers/tasks/${t.transcriptTaskId}/${t.transcriptWorkspaceId}`,
      `${EXTERNAL}/sdtask/GetExportData/${t.documentTaskId}`,
      `${EXTERNAL}/sdtask/GetExportData/Transcript/${t.transcriptTaskId}`,
      `${EXTERNAL}/sdworkspace/allusers/${t.workspaceId}`,
      `${EXTERNAL}/webhooks/${t.webhookId}`,
      `${EXTERNAL}/webhooks/${t.webhookId}/deliveries`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: own });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    expect((await ctx.app.inject({ method: 'GET', url: `${REVIEW}/tasks/${t.documentTaskId}`, headers: a.reviewer.headers })).statusCode).toBe(200);
    const head = await ctx.app.inject({ method: 'HEAD', url: `/files/${t.finishedUploadId}`, headers: { ...own, 'tus-resumable': '1.0.0' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('5');
    const patch = await sendChunk(ctx, own, `/files/${(await startUpload(ctx, a.tenant, 5))}`, 0, Buffer.from('%PDF-'));
    expect(patch.statusCode).toBe(204);
  });
});
