import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { pdfPageText, withPdf } from '../src/engines/pdf.js';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { freePort } from './support/processes.js';
import { createUser, userHeaders } from './support/review.js';
import { createTask } from './support/tasks.js';

/**
 * PDFs as real producers leave them, through the whole pipeline over HTTP: a text layer that holds
 * control characters (U+0000 among them, which Postgres cannot store), and a header that comes
 * after a preamble of other bytes.
 */

/**
 * One page whose text layer draws the given lines in Helvetica with no ToUnicode map: pdf.js
 * gives a character code the encoding does not name as the code itself, so the octal escapes
 * written here (\000 for NUL) come out of the text layer as control characters.
 */
async function pdfDrawing(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  const name = page.node.newFontDictionary('F1', font).asString();
  const shows = lines.map((line, i) => `1 0 0 1 50 ${760 - 24 * i} Tm (${line}) Tj`).join('\n');
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(`BT ${name} 14 Tf\n${shows}\nET`)));
  return Buffer.from(await doc.save());
}

/** Two text pages, readable by every engine when nothing precedes the header. */
async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.load(await pdfDrawing(['Invoice 4711', 'Total due 120.00 EUR']));
  const [second] = await doc.copyPages(await PDFDocument.load(await pdfDrawing(['Second page of the invoice'])), [0]);
  doc.addPage(second!);
  return Buffer.from(await doc.save());
}

/** Bytes no signature claims (a hash chain), `length` of them. */
function noise(length: number): Buffer {
  const blocks: Buffer[] = [];
  let block = Buffer.from('preamble');
  for (let size = 0; size < length; size += block.length) blocks.push((block = createHash('sha256').update(block).digest()));
  return Buffer.concat(blocks).subarray(0, length);
}

const HTTP_PREAMBLE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="invoice.pdf"\r\n\r\n', 'latin1');

let ctx: TestContext;
let base: string;
let files: FileServer;
let workers: WorkerPool;
let dir: string;
let controls: Buffer;
let plain: Buffer;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_BASE_URL: base });
  await ctx.app.listen({ host: '127.0.0.1', port });
  dir = await mkdtemp(path.join(os.tmpdir(), 'pdf-quirks-'));
  controls = await pdfDrawing(['Invoice\\000Number 4711', 'Total\\001due\\037 42.00\\000 EUR']);
  plain = await twoPagePdf();
  files = await startFileServer({
    '/controls.pdf': { body: controls, type: 'application/pdf' },
    '/http-preamble.pdf': { body: Buffer.concat([HTTP_PREAMBLE, plain]), type: 'application/pdf' },
    '/noise-preamble.pdf': { body: Buffer.concat([noise(1000), plain]), type: 'application/pdf' },
    '/header-too-late.pdf': { body: Buffer.concat([noise(1100), plain]), type: 'application/pdf' },
  });
  workers = await startTestWorkers(ctx);
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
  await files.close();
  await rm(dir, { recursive: true, force: true });
});

const exportOf = (t: TestTenant, taskId: number) => ctx.app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/${taskId}`, headers: t.headers });

/** Every string in an answer, object keys included. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)]);
  return [];
}

describe('a text layer with control characters', { timeout: 180_000 }, () => {
  it('is what pdf.js reads from the generated PDF (the case is real)', async () => {
    const file = path.join(dir, 'controls.pdf');
    await writeFile(file, controls);
    const words = (await withPdf(file, (doc) => pdfPageText(doc, 1))).words.map((w) => w.text);
    expect(words).toEqual(expect.arrayContaining(['Invoice\u0000Number', 'Total\u0001due\u001f', '42.00\u0000']));
  });

  it.each([
    ['the default workspace', undefined],
    ['an invoice workspace', TemplateType.InvoicesUniversal],
  ])('reaches ToReview in %s, its export holding the text with each control character as U+FFFD', async (_, templateType) => {
    const t = await createTestTenant(ctx);
    const workspaceId = templateType === undefined ? undefined : (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'invoices', templateType })).workspaceId;
    const task = await waitForFinalStatus(ctx, await createTask(ctx.app, t, files.url('/controls.pdf'), workspaceId ? { workspaceId } : {}));
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);

    const res = await exportOf(t, task.id);
    expect(res.statusCode, res.body).toBe(200);
    const strings = stringsIn(res.json());
    expect(strings.filter((s) => /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(s))).toEqual([]);
    const text = strings.join('\n');
    expect(text).toContain('Invoice\uFFFDNumber');
    expect(text).toContain('Total\uFFFDdue\uFFFD');
  });
});

/** A TUS upload of `body` to the organization's default workspace: its URL, for a task's context.url. */
async function uploaded(t: TestTenant, name: string, body: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, body);
  return new Promise((resolve, reject) => {
    const u: tus.Upload = new tus.Upload(createReadStream(file), {
      endpoint: `${base}/files/`,
      headers: { Authorization: `Bearer ${t.token}` },
      metadata: { filetype: 'application/pdf', workspaceid: String(t.defaultWorkspaceId) },
      retryDelays: [],
      onSuccess: () => resolve(u.url!),
      onError: reject,
    });
    u.start();
  });
}

describe('a PDF whose header follows other bytes', { timeout: 180_000 }, () => {
  it.each([
    ['an HTTP response head', 'url', '/http-preamble.pdf'],
    ['1,000 bytes of noise', 'url', '/noise-preamble.pdf'],
    ['an HTTP response head', 'upload', '/http-preamble.pdf'],
  ])('is read when %s precedes it (by %s): pages counted, text read, page images drawn, the file kept as sent', async (_, how, name) => {
    const t = await createTestTenant(ctx);
    const sent = Buffer.concat([name === '/http-preamble.pdf' ? HTTP_PREAMBLE : noise(1000), plain]);
    const url = how === 'url' ? files.url(name) : await uploaded(t, 'preamble.pdf', sent);
    const task = await waitForFinalStatus(ctx, await createTask(ctx.app, t, url));
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
    expect(task.totalPages).toBe(2);

    const text = stringsIn((await exportOf(t, task.id)).json()).join('\n');
    expect(text).toContain('Invoice 4711');
    expect(text).toContain('Second page of the invoice');

    const h = await userHeaders(ctx.app, await createUser(ctx, t));
    const detail = (await ctx.app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks/${task.id}`, headers: h })).json();
    for (const page of detail.pages) {
      const png = await ctx.app.inject({ method: 'GET', url: page.imageUrl, headers: h });
      expect(png.statusCode, png.body).toBe(200);
      expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
    const link = new URL(detail.fileUrl);
    const source = await ctx.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(source.rawPayload.equals(sent)).toBe(true);
  });

  it('is refused as an unsupported file type when the header starts past the first 1,024 bytes', async () => {
    const t = await createTestTenant(ctx);
    const task = await waitForFinalStatus(ctx, await createTask(ctx.app, t, files.url('/header-too-late.pdf')));
    expect(task.taskStatus).toBe(TaskStatus.PreProcessingFailed);
    expect(task.failureReason).toMatch(/Unsupported file type/);
  });
});
