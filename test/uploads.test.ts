import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus } from '../src/domain/enums.js';
import { uploadFiles } from '../src/modules/uploads/upload-storage.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { freePort } from './support/processes.js';

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
  dir = await mkdtemp(path.join(os.tmpdir(), 'uploads-'));
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

function upload(t: TestTenant, file: string, options: Partial<tus.UploadOptions> = {}): Promise<tus.Upload> {
  return new Promise((resolve, reject) => {
    const u: tus.Upload = new tus.Upload(createReadStream(file), {
      endpoint: `${base}/files/`,
      headers: { Authorization: `Bearer ${t.token}` },
      metadata: { filetype: 'application/pdf', workspaceid: String(t.defaultWorkspaceId) },
      chunkSize: 40 * 1024 * 1024,
      retryDelays: [],
      onSuccess: () => resolve(u),
      onError: reject,
      ...options,
    });
    u.start();
  });
}

/** A file of `bytes` bytes: a real PDF page followed by padding (PDF readers take the last xref). */
async function bigFile(name: string, bytes: number): Promise<string> {
  const file = path.join(dir, name);
  const handle = await open(file, 'w');
  const block = Buffer.alloc(8 * 1024 * 1024, 0x20);
  for (let written = 0; written < bytes; written += block.length) await handle.write(block.subarray(0, Math.min(block.length, bytes - written)));
  await handle.close();
  return file;
}

describe('TUS uploads at /files/', () => {
  it('uploads 150 MB in chunks, resumes after an interruption, and is owned by the organization', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const file = await bigFile('big.bin', 150 * 1024 * 1024);

    // Interrupt after the first chunk, then resume from the server's offset.
    let firstUrl = '';
    await new Promise<void>((resolve, reject) => {
      const u: tus.Upload = new tus.Upload(createReadStream(file), {
        endpoint: `${base}/files/`,
        headers: { Authorization: `Bearer ${t.token}` },
        metadata: { filetype: 'application/octet-stream' },
        chunkSize: 40 * 1024 * 1024,
        retryDelays: [],
        onChunkComplete: () => {
          firstUrl = u.url!;
          void u.abort().then(() => resolve());
        },
        onError: reject,
      });
      u.start();
    });
    const head = await fetch(firstUrl, { method: 'HEAD', headers: { authorization: `Bearer ${t.token}`, 'tus-resumable': '1.0.0' } });
    expect(Number(head.headers.get('upload-offset'))).toBe(40 * 1024 * 1024);
    const resumed = await upload(t, file, { uploadUrl: firstUrl, metadata: { filetype: 'application/octet-stream' } });
    expect(resumed.url).toBe(firstUrl);
    const id = firstUrl.split('/').pop()!;
    const row = await ctx.prisma.upload.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ tenantId: t.tenantId, workspaceId: t.defaultWorkspaceId, size: BigInt(150 * 1024 * 1024) });
    expect(row.completedAt).not.toBeNull();
    expect((await uploadFiles(ctx.blobs, ctx.config).stat(id)).size).toBe(150 * 1024 * 1024);

    // Another organization's token can neither read its offset nor create a task from it.
    const foreign = await ctx.app.inject({ method: 'HEAD', url: `/files/${id}`, headers: { ...other.headers, 'tus-resumable': '1.0.0' } });
    expect(foreign.statusCode).toBe(404);
    const stolen = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: other.headers, payload: { context: { url: firstUrl } } });
    expectProblem(stolen, 422);
  });

  it('turns a finished upload into a task that processes', async () => {
    const t = await createTestTenant(ctx);
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, await numberedPagesPdf(2));
    const done = await upload(t, file);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload: { context: { url: done.url } } });
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForFinalStatus(ctx, res.json().taskId);
    expect(task.totalPages).toBe(2);
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
  });

  it('refuses uploads without a token, without filetype, to a foreign workspace, and chunks over 100 MB', async () => {
    const t = await createTestTenant(ctx);
    const other = await createTestTenant(ctx);
    const create = (headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: '/files', headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', ...headers } });
    expectProblem(await create({}), 401);
    expectProblem(await create({ ...t.headers }), 400);
    const meta = (ws: number) => `filetype ${Buffer.from('application/pdf').toString('base64')},workspaceid ${Buffer.from(String(ws)).toString('base64')}`;
    expectProblem(await create({ ...t.headers, 'upload-metadata': meta(other.defaultWorkspaceId) }), 404);
    const ok = await create({ ...t.headers, 'upload-metadata': meta(t.defaultWorkspaceId) });
    expect(ok.statusCode).toBe(201);
    const location = ok.headers.location as string;
    expect(location.startsWith(`${base}/files/`)).toBe(true);
    // An incomplete upload is not a usable context.url yet.
    const early = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload: { context: { url: location } } });
    expectProblem(early, 422);
    const big = await ctx.app.inject({
      method: 'PATCH',
      url: new URL(location).pathname,
      headers: { ...t.headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(101 * 1024 * 1024) },
      payload: Buffer.alloc(16),
    });
    expectProblem(big, 413);
  });

  it('takes a deleted upload out of the sources new tasks may name', async () => {
    const t = await createTestTenant(ctx);
    const file = path.join(dir, 'deleted.pdf');
    await writeFile(file, await numberedPagesPdf(1));
    const done = await upload(t, file);
    const id = done.url!.split('/').pop()!;

    // Termination (the client's own DELETE) is allowed on a finished upload; the row goes with the file.
    await tus.Upload.terminate(done.url!, { headers: { Authorization: `Bearer ${t.token}` }, retryDelays: [] });
    expect(await ctx.prisma.upload.findUnique({ where: { id } })).toBeNull();
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload: { context: { url: done.url } } });
    expect(expectProblem(res, 422).reason).toBe('http-404');
    const again = await ctx.app.inject({ method: 'DELETE', url: `/files/${id}`, headers: { ...t.headers, 'tus-resumable': '1.0.0' } });
    expectProblem(again, 404);
  });

  it('refuses a finished upload whose file is gone as a task source', async () => {
    const t = await createTestTenant(ctx);
    const file = path.join(dir, 'lost.pdf');
    await writeFile(file, await numberedPagesPdf(1));
    const done = await upload(t, file);
    // The row still says completed, the store has lost the bytes (removed by hand, another disk...).
    await uploadFiles(ctx.blobs, ctx.config).delete(done.url!.split('/').pop()!);

    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1.0/external/sdtask/process', headers: t.headers, payload: { context: { url: done.url } } });
    expect(expectProblem(res, 422).reason).toBe('http-410');
  });

  it('refuses a workspaceid beyond the int4 ids with 400, not a database error', async () => {
    const t = await createTestTenant(ctx);
    for (const workspaceid of ['2147483648', '99999999999999999999', '1e10', '-1', '0', '1.5', 'abc']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/files',
        headers: {
          ...t.headers,
          'tus-resumable': '1.0.0',
          'upload-length': '10',
          'upload-metadata': `filetype ${Buffer.from('application/pdf').toString('base64')},workspaceid ${Buffer.from(workspaceid).toString('base64')}`,
        },
      });
      expect(expectProblem(res, 400, 'ValidationError').errors, workspaceid).toEqual([{ field: 'workspaceid', message: expect.any(String) }]);
    }
    // The largest id is a well-formed one: no such workspace.
    const largest = await ctx.app.inject({
      method: 'POST',
      url: '/files',
      headers: { ...t.headers, 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': `filetype ${Buffer.from('application/pdf').toString('base64')},workspaceid ${Buffer.from('2147483647').toString('base64')}` },
    });
    expectProblem(largest, 404);
  });
});
