import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeUploadFiles, uploadFiles } from '../src/modules/uploads/upload-storage.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { expectProblem } from './support/problem.js';

/** The errors the TUS server itself answers (not our checks before it) are problem bodies too. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const PDF_METADATA = `filetype ${Buffer.from('application/pdf').toString('base64')}`;
const OCTETS = 'application/offset+octet-stream';

function tusHeaders(t: TestTenant, extra: Record<string, string> = {}) {
  return { ...t.headers, 'tus-resumable': '1.0.0', ...extra };
}

/** A TUS error: our problem body, and the TUS headers the protocol requires on every response. */
function expectTusProblem(res: LightMyRequestResponse, status: number, detail?: RegExp) {
  const body = expectProblem(res, status);
  expect(res.headers['tus-resumable'], res.body).toBe('1.0.0');
  expect(body.instance).toMatch(/^\/files/);
  if (detail) expect(body.detail).toMatch(detail);
  return body;
}

async function createUpload(t: TestTenant, length: number): Promise<string> {
  const res = await ctx.app.inject({ method: 'POST', url: '/files', headers: tusHeaders(t, { 'upload-length': String(length), 'upload-metadata': PDF_METADATA }) });
  expect(res.statusCode, res.body).toBe(201);
  return `/files/${(res.headers.location as string).split('/').pop()}`;
}

const patch = (t: TestTenant, url: string, headers: Record<string, string>, payload: Buffer | string = Buffer.alloc(4)) =>
  ctx.app.inject({ method: 'PATCH', url, headers: tusHeaders(t, headers), payload });

describe('TUS protocol errors', () => {
  it('answers creation errors with problem bodies', async () => {
    const t = await createTestTenant(ctx);
    const post = (headers: Record<string, string>) => ctx.app.inject({ method: 'POST', url: '/files', headers: { ...t.headers, 'upload-metadata': PDF_METADATA, ...headers } });

    expectTusProblem(await post({ 'upload-length': '10' }), 412, /Tus-Resumable/i);
    expectTusProblem(await post({ 'tus-resumable': '0.2.2', 'upload-length': '10' }), 400, /tus-resumable/i);
    expectTusProblem(await post({ 'tus-resumable': '1.0.0' }), 400, /Upload-Length/);
    expectTusProblem(await post({ 'tus-resumable': '1.0.0', 'upload-length': 'ten' }), 400, /upload-length/i);
    expectTusProblem(await post({ 'tus-resumable': '1.0.0', 'upload-length': String(ctx.config.MAX_SOURCE_BYTES + 1) }), 413);
  });

  it('refuses concatenation (Upload-Concat), which it does not offer, with a 400 problem', async () => {
    const t = await createTestTenant(ctx);
    const first = await createUpload(t, 8);
    const options = await ctx.app.inject({ method: 'OPTIONS', url: '/files', headers: { 'tus-resumable': '1.0.0' } });
    expect(String(options.headers['tus-extension'])).toContain('creation');
    expect(String(options.headers['tus-extension'])).not.toContain('concatenation');
    const post = (concat: string) =>
      ctx.app.inject({ method: 'POST', url: '/files', headers: tusHeaders(t, { 'upload-length': '10', 'upload-metadata': PDF_METADATA, 'upload-concat': concat }) });
    for (const concat of ['partial', `final;${first} ${first}`, 'final;/files/unknown']) {
      const body = expectTusProblem(await post(concat), 400, /Concatenation/);
      expect(body.title).toBe('UnsupportedExtension');
      expect(body.type).toBe('https://tools.ietf.org/html/rfc7231#section-6.5.1');
    }
    // A value that is no Upload-Concat at all is an invalid header, as before.
    expectTusProblem(await post('x'), 400, /upload-concat/i);
    // Nothing was created.
    expect(await ctx.prisma.upload.count({ where: { tenantId: t.tenantId } })).toBe(1);
  });

  it('answers chunk errors with problem bodies', async () => {
    const t = await createTestTenant(ctx);
    const url = await createUpload(t, 8);

    expectTusProblem(await patch(t, url, { 'upload-offset': '4', 'content-type': OCTETS }), 409, /offset/i);
    expectTusProblem(await patch(t, url, { 'content-type': OCTETS }), 403, /Upload-Offset/);
    expectTusProblem(await patch(t, url, { 'upload-offset': 'zero', 'content-type': OCTETS }), 400, /upload-offset/i);
    expectTusProblem(await patch(t, url, { 'upload-offset': '0', 'content-type': 'text/plain' }, 'four'), 400, /content-type/i);
    expectTusProblem(await patch(t, url, { 'upload-offset': '0' }, ''), 403, /Content-Type/);
    expectTusProblem(await patch(t, url, { 'upload-offset': '0', 'content-type': OCTETS }, Buffer.alloc(9)), 413);
    // None of the refused chunks was written.
    const head = await ctx.app.inject({ method: 'HEAD', url, headers: tusHeaders(t) });
    expect(head.headers['upload-offset']).toBe('0');
  });

  it('answers uploads the store has lost with 410 or 404 problem bodies', async () => {
    const t = await createTestTenant(ctx);
    const gone = await createUpload(t, 8);
    const lost = await createUpload(t, 8);
    const id = (url: string) => url.split('/').pop()!;
    // Everything gone: the store knows nothing of it, though our row still names it.
    await purgeUploadFiles(ctx.blobs, ctx.config, id(lost));
    expectTusProblem(await patch(t, lost, { 'upload-offset': '0', 'content-type': OCTETS }), 404);
    expectTusProblem(await ctx.app.inject({ method: 'DELETE', url: lost, headers: tusHeaders(t) }), 404);
    expect((await ctx.app.inject({ method: 'HEAD', url: lost, headers: tusHeaders(t) })).statusCode).toBe(404);
    // The TUS S3 store keeps no file of an incomplete upload: the next case is the file store's.
    if (ctx.blobs.kind !== 'local') return;
    // Bytes gone, description kept: the store knows the upload no longer exists.
    await uploadFiles(ctx.blobs, ctx.config).delete(id(gone));
    expectTusProblem(await patch(t, gone, { 'upload-offset': '0', 'content-type': OCTETS }), 410);
    const head = await ctx.app.inject({ method: 'HEAD', url: gone, headers: tusHeaders(t) });
    expect(head.statusCode).toBe(410);
    expect(String(head.headers['content-type'])).toMatch(/^application\/problem\+json/);
  });

  it('keeps the caller’s X-Request-Id as the traceId', async () => {
    const t = await createTestTenant(ctx);
    const url = await createUpload(t, 8);
    const res = await patch(t, url, { 'upload-offset': '5', 'content-type': OCTETS, 'x-request-id': 'integrator-trace-42' });
    expect(expectTusProblem(res, 409).traceId).toBe('integrator-trace-42');
  });
});
