import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../src/config.js';
import { sweep } from '../src/pipeline/sweeper.js';
import { uploadFiles } from '../src/modules/uploads/upload-storage.js';
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
});
