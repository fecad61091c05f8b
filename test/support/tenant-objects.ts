/**
 * One organization with one of every object the API names by id: a document task and a transcript
 * task (with externalIds), a transcription workspace with speakers, a batch, a finished and an
 * unfinished upload, a stored file with its signed link, an administrator who reviews, a
 * pending invitation and a vendor profile. The fuzz and tenant-isolation suites aim their requests at these.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { publicBaseUrl } from '../../src/config.js';
import { TemplateType } from '../../src/domain/enums.js';
import { createWorkspace } from '../../src/modules/tenants/tenants.service.js';
import { setInvitationToken } from '../../src/modules/users/invitations.repository.js';
import { INVITATION_TTL_MS, mintInvitationToken } from '../../src/modules/users/invitations.service.js';
import { signFileUrl } from '../../src/storage/signed-url.js';
import { insertProfile } from '../../src/modules/vendor-profiles/vendor-profiles.repository.js';
import { createTestTenant, type TestContext, type TestTenant } from './context.js';
import { createUser, seedDocumentTask, seedTranscriptTask, userHeaders, type TestUser } from './review.js';

export const EXTERNAL = '/api/v1.0/external';

export interface TenantObjects {
  tenant: TestTenant;
  transcriptWorkspaceId: number;
  documentTask: { id: number; externalId: string; sourceBlobKey: string };
  transcriptTask: { id: number; externalId: string };
  /** Texts only this organization's data contains (names, externalIds, emails, upload ids, file keys): a leak shows them. */
  markers: string[];
  /** A speaker of the transcript task (besides the detected default one). */
  taskSpeakerId: string;
  workspaceSpeakerId: string;
  batchId: number;
  /** Finished upload: a valid context.url. */
  finishedUploadId: string;
  /** Started, 5 bytes announced, none sent yet. */
  openUploadId: string;
  /** The document task's source file, through a signed link (path and query). */
  signedLink: string;
  reviewer: TestUser & { headers: { authorization: string } };
  /** The plain token of a pending invitation's link. */
  invitationToken: string;
  invitedEmail: string;
  /** A vendor profile of the default workspace, as a review of one of its invoices leaves it. */
  vendorProfileId: number;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Starts a TUS upload of `length` bytes through the API; returns its id. */
export async function startUpload(ctx: Pick<TestContext, 'app'>, t: TestTenant, length: number, workspaceId = t.defaultWorkspaceId): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/files',
    headers: {
      ...t.headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(length),
      'upload-metadata': `filetype ${b64('application/pdf')},workspaceid ${b64(String(workspaceId))}`,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return String(res.headers.location).split('/').pop()!;
}

/** Sends `content` as the next chunk of an upload (TUS PATCH). */
export function sendChunk(ctx: Pick<TestContext, 'app'>, headers: Record<string, string>, url: string, offset: number, content: Buffer) {
  return ctx.app.inject({
    method: 'PATCH',
    url,
    headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    payload: content,
  });
}

/** A whole PDF sent through TUS in one chunk: its last byte completes the upload (upload.completed). Its id. */
export async function completeUpload(ctx: Pick<TestContext, 'app'>, t: TestTenant, pdf: Buffer): Promise<string> {
  const id = await startUpload(ctx, t, pdf.length);
  const sent = await sendChunk(ctx, t.headers, `/files/${id}`, 0, pdf);
  expect(sent.statusCode, sent.body).toBe(204);
  return id;
}

/** A webhook subscription of the organization to `eventTypes`, delivered to `url`: its id and signing secret. */
export async function subscribeWebhook(ctx: Pick<TestContext, 'app'>, t: TestTenant, url: string, eventTypes: readonly string[]): Promise<{ webhookId: number; secret: string }> {
  const res = await ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/webhooks`, headers: t.headers, payload: { url, eventTypes } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return { webhookId: body.webhookId as number, secret: body.secret as string };
}

export async function createTenantObjects(ctx: TestContext): Promise<TenantObjects> {
  const tenant = await createTestTenant(ctx);
  const tag = randomUUID().slice(0, 8);
  const transcriptWorkspace = await createWorkspace(ctx.prisma, { tenantId: tenant.tenantId, name: `Transcripts ${tag}`, templateType: TemplateType.Transcripts });
  const transcriptWorkspaceId = transcriptWorkspace.workspaceId;

  const documentTask = await seedDocumentTask(ctx, tenant, { data: { externalId: `doc-${tag}` } });
  const transcriptTask = await seedTranscriptTask(ctx, tenant, { data: { externalId: `rec-${tag}`, workspaceId: transcriptWorkspaceId } });

  const api = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const res = await ctx.app.inject({ method, url: `${EXTERNAL}${url}`, headers: tenant.headers, payload: payload as object });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  const batch = await api('POST', '/sdbatch', { displayName: `Batch ${tag}` });
  await api('PUT', `/transcripts/speakers/workspaces/${transcriptWorkspaceId}`, { speakers: [{ speakerId: 'host', speakerName: 'Host' }] });

  const finishedUploadId = await startUpload(ctx, tenant, 5);
  const sent = await sendChunk(ctx, tenant.headers, `/files/${finishedUploadId}`, 0, Buffer.from('%PDF-'));
  expect(sent.statusCode, sent.body).toBe(204);
  const openUploadId = await startUpload(ctx, tenant, 5);

  const link = new URL(
    signFileUrl({ baseUrl: publicBaseUrl(ctx.config), key: documentTask.sourceBlobKey!, expiresAt: new Date(Date.now() + 3_600_000), secret: ctx.fileUrlSecret }),
  );

  const reviewerUser = await createUser(ctx, tenant, { roleName: 'Administrator' });
  const reviewer = { ...reviewerUser, headers: await userHeaders(ctx.app, reviewerUser) };

  const invitedEmail = `invitee-${tag}@example.com`;
  await api('POST', '/tenant/inviteusers', { users: [{ email: invitedEmail, roleName: 'Reviewer' }] });
  const invitation = await ctx.prisma.invitation.findFirstOrThrow({ where: { tenantId: tenant.tenantId, user: { email: invitedEmail } } });
  const { token: invitationToken, tokenHash } = mintInvitationToken();
  await setInvitationToken(ctx.prisma, tenant.tenantId, invitation.id, tokenHash, new Date(Date.now() + INVITATION_TTL_MS));

  const vendorName = `Vendor ${tag}`;
  const vendorProfile = await insertProfile(ctx.prisma, {
    tenantId: tenant.tenantId,
    workspaceId: tenant.defaultWorkspaceId,
    vendorName,
    nameKey: vendorName.toLowerCase().replace(/[^a-z0-9]/g, ''),
    taxIds: [`XX${tag}`],
    ibans: [],
    fingerprint: [],
    // One field, so that forgetting a field of this profile would show in a snapshot.
    fields: {
      InvoiceId: { kind: 'identifier', value: `INV-${tag}`, content: `INV-${tag}`, chunk: 1, lastPage: true, corrected: false, taskId: documentTask.id, learnedOn: new Date(0).toISOString(), confirmations: 1, corrections: 0, weight: 1 },
    },
    reviewCount: 1,
    lastTaskId: documentTask.id,
  });

  const { name: tenantName } = await ctx.prisma.tenant.findUniqueOrThrow({ where: { id: tenant.tenantId } });
  const markers = [
    tenantName,
    transcriptWorkspace.workspaceName,
    `Batch ${tag}`,
    documentTask.displayName,
    transcriptTask.displayName,
    documentTask.externalId!,
    transcriptTask.externalId!,
    documentTask.sourceBlobKey!,
    finishedUploadId,
    openUploadId,
    reviewer.email,
    invitedEmail,
    vendorName,
    `XX${tag}`,
  ];

  return {
    tenant,
    markers,
    transcriptWorkspaceId,
    documentTask: { id: documentTask.id, externalId: documentTask.externalId!, sourceBlobKey: documentTask.sourceBlobKey! },
    transcriptTask: { id: transcriptTask.id, externalId: transcriptTask.externalId! },
    taskSpeakerId: 'agent',
    workspaceSpeakerId: 'host',
    batchId: batch.json().batchId,
    finishedUploadId,
    openUploadId,
    signedLink: `${link.pathname}${link.search}`,
    reviewer,
    invitationToken,
    invitedEmail,
    vendorProfileId: vendorProfile.id,
  };
}
