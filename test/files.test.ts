import { HeadObjectCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../src/config.js';
import { sweep } from '../src/pipeline/sweeper.js';
import { uploadFiles } from '../src/modules/uploads/upload-storage.js';
import { S3BlobStore } from '../src/storage/s3-blob-store.js';
import { signFileUrl } from '../src/storage/signed-url.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { pipelineDeps } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

function link(key: string, expiresAt: Date, filename?: string) {
  const url = new URL(signFileUrl({ baseUrl: publicBaseUrl(ctx.config), key, expiresAt, secret: ctx.fileUrlSecret, filename }));
  return `${url.pathname}${url.search}`;
}

describe('signed file links', () => {
  it('serves a stored file without a token while the signature is valid and unexpired', async () => {
    const key = `tenants/0/tasks/${Date.now()}/source`;
    await ctx.blobs.put(key, Buffer.from('%PDF-1.4 fake'));
    const ok = await ctx.app.inject({ method: 'GET', url: link(key, new Date(Date.now() + 60_000), 'invoice.pdf') });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('%PDF-1.4 fake');
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.headers['content-disposition']).toBe('attachment; filename="invoice.pdf"');

    const tampered = link(key, new Date(Date.now() + 60_000)).replace('sig=', 'sig=x');
    expectProblem(await ctx.app.inject({ method: 'GET', url: tampered }), 403);
    const otherKey = link(key, new Date(Date.now() + 60_000)).replace('/source?', '/other?');
    expectProblem(await ctx.app.inject({ method: 'GET', url: otherKey }), 403);
    expectProblem(await ctx.app.inject({ method: 'GET', url: link(key, new Date(Date.now() - 1000)) }), 410);
    expectProblem(await ctx.app.inject({ method: 'GET', url: link(`${key}-missing`, new Date(Date.now() + 60_000)) }), 404);
  });
});

describe('upload expiry', () => {
  it('deletes incomplete uploads past their expiry, file and row, and keeps completed ones', async () => {
    const t = await createTestTenant(ctx);
    const uploads = uploadFiles(ctx.blobs, ctx.config);
    const past = new Date(Date.now() - 1000);
    const ids = [`exp-${t.tenantId}-a`, `exp-${t.tenantId}-b`];
    for (const id of ids) await uploads.put(id, Buffer.from('partial'));
    await ctx.prisma.upload.create({ data: { id: ids[0]!, tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, fileType: 'application/pdf', expiresAt: past } });
    await ctx.prisma.upload.create({ data: { id: ids[1]!, tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, fileType: 'application/pdf', expiresAt: past, completedAt: past } });
    await sweep(pipelineDeps(ctx), { tenantId: t.tenantId });
    expect(await ctx.prisma.upload.findUnique({ where: { id: ids[0]! } })).toBeNull();
    expect(await uploads.exists(ids[0]!)).toBe(false);
    expect(await ctx.prisma.upload.findUnique({ where: { id: ids[1]! } })).not.toBeNull();
  });

  it('removes everything an expired incomplete upload left in the store', async () => {
    const t = await createTestTenant(ctx);
    const tus = { ...t.headers, 'tus-resumable': '1.0.0' };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/files',
      headers: { ...tus, 'upload-length': String(10 * 1024 * 1024), 'upload-metadata': `filetype ${Buffer.from('application/pdf').toString('base64')}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = new URL(created.headers.location as string).pathname;
    const id = url.split('/').pop()!;
    const chunk = await ctx.app.inject({ method: 'PATCH', url, headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, payload: Buffer.alloc(1024 * 1024, 1) });
    expect(chunk.statusCode, chunk.body).toBe(204);
    const uploads = uploadFiles(ctx.blobs, ctx.config);
    // The local store's file and description; on S3 the description and the part below 5 MiB.
    expect((await uploads.list(id)).length).toBeGreaterThan(0);

    // On S3, the open multipart upload behind it.
    const s3 = ctx.blobs instanceof S3BlobStore ? ctx.blobs : undefined;
    const multipart = s3 && (await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${id}.info` }))).Metadata?.['upload-id'];
    if (s3) expect(multipart).toBeTruthy();

    await ctx.prisma.upload.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await sweep(pipelineDeps(ctx), { tenantId: t.tenantId });
    expect(await ctx.prisma.upload.findUnique({ where: { id } })).toBeNull();
    expect(await uploads.list(id)).toEqual([]);
    if (s3) await expect(s3.client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: id, UploadId: multipart }))).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });
});
