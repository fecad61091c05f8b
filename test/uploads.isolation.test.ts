import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buffer } from 'node:stream/consumers';
import { TaskStatus } from '../src/domain/enums.js';
import { uploadFiles } from '../src/modules/uploads/upload-storage.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { freePort } from './support/processes.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';

/**
 * Organization B must not reach organization A's uploads through any spelling of the request
 * target. The hostile requests go over a real socket, byte for byte: app.inject and fetch would
 * normalize `..` and drop fragments before the server saw them.
 */
let ctx: TestContext;
let base: string;
let workers: WorkerPool;
let dir: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_BASE_URL: base });
  await ctx.app.listen({ host: '127.0.0.1', port });
  workers = await startTestWorkers(ctx);
  dir = await mkdtemp(path.join(os.tmpdir(), 'uploads-isolation-'));
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

const tusHeaders = (t: TestTenant) => ({ authorization: t.headers.authorization, 'tus-resumable': '1.0.0' });
const metadata = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
const idOf = (location: string) => new URL(location).pathname.split('/').pop()!;
const problem = (res: RawResponse, status: number) => expectProblem(res as LightMyRequestResponse, status);

/** A finished upload of a real PDF, sent by the TUS client integrators use. */
async function uploadWithTusClient(t: TestTenant, file: string, filename: string): Promise<string> {
  const bytes = await readFile(file);
  return new Promise((resolve, reject) => {
    const u: tus.Upload = new tus.Upload(bytes, {
      endpoint: `${base}/files/`,
      headers: { Authorization: `Bearer ${t.token}` },
      metadata: { filename, filetype: 'application/pdf', workspaceid: String(t.defaultWorkspaceId) },
      retryDelays: [],
      onSuccess: () => resolve(idOf(u.url!)),
      onError: reject,
    });
    u.start();
  });
}

/** An upload of `length` bytes of which `sent` have arrived. */
async function partialUpload(t: TestTenant, length: number, sent: Buffer, filename: string): Promise<string> {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/files',
    headers: { ...tusHeaders(t), 'upload-length': String(length), 'upload-metadata': metadata({ filename, filetype: 'application/pdf' }) },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = idOf(created.headers.location as string);
  const patched = await ctx.app.inject({
    method: 'PATCH',
    url: `/files/${id}`,
    headers: { ...tusHeaders(t), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: sent,
  });
  expect(patched.statusCode, patched.body).toBe(204);
  return id;
}

/** Everything about an upload its owner can observe, to prove nothing else changed it. */
async function snapshot(owner: TestTenant, id: string) {
  const head = await ctx.app.inject({ method: 'HEAD', url: `/files/${id}`, headers: tusHeaders(owner) });
  const row = await ctx.prisma.upload.findUnique({ where: { id } });
  return {
    status: head.statusCode,
    offset: head.headers['upload-offset'],
    length: head.headers['upload-length'],
    metadata: head.headers['upload-metadata'],
    // The upload's file (on S3 an incomplete upload's bytes are multipart parts: its offset shows them).
    bytes: await uploadFiles(ctx.blobs, ctx.config).openRead(id).then(buffer, () => null),
    row: row && { tenantId: row.tenantId, workspaceId: row.workspaceId, size: row.size, completedAt: row.completedAt },
  };
}

describe('TUS uploads of another organization', () => {
  let a: TestTenant;
  let b: TestTenant;
  let aDone: string;
  let aPartial: string;
  let before: { done: Awaited<ReturnType<typeof snapshot>>; partial: Awaited<ReturnType<typeof snapshot>> };
  beforeAll(async () => {
    a = await createTestTenant(ctx);
    b = await createTestTenant(ctx);
    const file = path.join(dir, 'a.pdf');
    await writeFile(file, await numberedPagesPdf(2));
    aDone = await uploadWithTusClient(a, file, 'a-confidential.pdf');
    aPartial = await partialUpload(a, 64, Buffer.alloc(16, 0x61), 'a-in-progress.pdf');
    before = { done: await snapshot(a, aDone), partial: await snapshot(a, aPartial) };
    expect(before.done.status).toBe(200);
    expect(before.done.row?.completedAt).not.toBeNull();
    expect(before.partial.offset).toBe('16');
  });

  it('acts on the upload the path names, never on one named in the query or fragment', async () => {
    for (const trick of ['?x=/', '?', '#/', '?x=%2F', '?id=']) {
      const own = await partialUpload(b, 32, Buffer.alloc(8, 0x62), 'b-own.pdf');
      for (const victim of [aDone, aPartial]) {
        const target = `/files/${own}${trick}${victim}`;
        // HEAD answers about B's own upload: its length and metadata, not A's.
        const head = await rawRequest(base, { method: 'HEAD', path: target, headers: tusHeaders(b) });
        expect(head.statusCode, target).toBe(200);
        expect(head.headers['upload-length'], target).toBe('32');
        expect(head.headers['upload-offset'], target).toBe('8');
        expect(Buffer.from(String(head.headers['upload-metadata']).split(',').find((m) => m.startsWith('filename '))!.slice(9), 'base64').toString()).toBe('b-own.pdf');
        // A PATCH at A's offset meets B's upload, at another offset: a conflict, nothing written.
        const patch = await rawRequest(base, {
          method: 'PATCH',
          path: target,
          headers: { ...tusHeaders(b), 'upload-offset': before.partial.offset as string, 'content-type': 'application/offset+octet-stream' },
          body: Buffer.alloc(16, 0x7a),
        });
        problem(patch, 409);
      }
      // DELETE removes B's own upload only.
      const deleted = await rawRequest(base, { method: 'DELETE', path: `/files/${own}${trick}${aDone}`, headers: tusHeaders(b) });
      expect(deleted.statusCode, trick).toBe(204);
      expect(await ctx.prisma.upload.findUnique({ where: { id: own } })).toBeNull();
    }
    expect(await snapshot(a, aDone)).toEqual(before.done);
    expect(await snapshot(a, aPartial)).toEqual(before.partial);
  });

  it('answers every other spelling of A’s upload with a problem and leaves it alone', async () => {
    const own = await partialUpload(b, 32, Buffer.alloc(8, 0x62), 'b-own.pdf');
    const percentEncoded = (id: string) => [...id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const victim of [aDone, aPartial]) {
      const targets: Array<[string, number]> = [
        [`/files/${victim}`, 404],
        [`/files/${percentEncoded(victim)}`, 404],
        [`/files/${victim.toUpperCase()}`, 404],
        [`/files//${victim}`, 404],
        [`/files/${victim}/`, 404],
        [`/files/${victim}//`, 404],
        [`/files/${own}/../${victim}`, 404],
        [`/files/${own}/%2e%2e/${victim}`, 404],
        [`/files/./${victim}`, 404],
        [`/files/${own}/${victim}`, 404],
        [`/files/${victim}/${own}`, 404],
        [`/files/${own};/${victim}`, 404],
        [`/files/${own}%2F..%2F${victim}`, 400],
        [`/files/${own}%2F${victim}`, 400],
        [`/files/${own}%3Fx=%2F${victim}`, 400],
        [`/files/${own}\\..\\${victim}`, 400],
        [`/files/..%2F${victim}`, 400],
        [`${base}/files/${victim}`, 404], // absolute-form request target
      ];
      for (const [target, status] of targets) {
        for (const method of ['HEAD', 'PATCH', 'DELETE']) {
          const res = await rawRequest(base, {
            method,
            path: target,
            headers: { ...tusHeaders(b), 'upload-offset': before.partial.offset as string, 'content-type': 'application/offset+octet-stream' },
            body: method === 'PATCH' ? Buffer.alloc(16, 0x7a) : undefined,
          });
          if (method === 'HEAD') {
            // A HEAD answer has no body; its status and type are all there is to check.
            expect(res.statusCode, `${method} ${target}`).toBe(status);
            expect(String(res.headers['content-type']), `${method} ${target}`).toMatch(/^application\/problem\+json/);
          } else {
            expect(res.statusCode, `${method} ${target}`).toBe(status);
            problem(res, status);
          }
        }
      }
    }
    expect(await snapshot(a, aDone)).toEqual(before.done);
    expect(await snapshot(a, aPartial)).toEqual(before.partial);
  });

  it('leaves A’s finished upload usable as a task source', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1.0/external/sdtask/process',
      headers: a.headers,
      payload: { context: { url: `${base}/files/${aDone}` } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForFinalStatus(ctx, res.json().taskId);
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
    expect(task.totalPages).toBe(2);
  });
});
