import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../../src/app.js';
import { TaskStatus, TemplateType } from '../../src/domain/enums.js';
import { compactEntities } from '../../src/domain/stored-entities.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { invoicesUniversalModel } from '../../src/models/invoice/invoice.js';
import { layoutModel } from '../../src/models/page/layout.js';
import {
  documentExportResponse,
  simplifiedDocumentExportResponse,
  type DocumentExportResponse,
} from '../../src/modules/exports/document-export.schemas.js';
import { documentResult, modelInput, textPdf } from '../models/document-fixtures.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from '../support/context.js';
import { insertTask } from '../support/tasks.js';
import { expectProblem } from '../support/problem.js';

let ctx: TestContext;
let app: FastifyInstance;
let scratch: string;

beforeAll(async () => {
  ctx = await createTestContext();
  app = ctx.app;
  scratch = await mkdtemp(path.join(tmpdir(), 'document-export-'));
});
afterAll(async () => {
  await ctx.close();
  await rm(scratch, { recursive: true, force: true });
});

const base = `${EXTERNAL_PREFIX}/sdtask/GetExportData`;

function get(t: TestTenant, url: string) {
  return app.inject({ method: 'GET', url: `${base}${url}`, headers: t.headers });
}

/** The path and query of a signed link, fetched through the app (no token: the link is the credential). */
async function download(link: string) {
  const url = new URL(link);
  return app.inject({ method: 'GET', url: url.pathname + url.search });
}

/** What the detect stage stores for a document: the Layout model's chunks of a generated two-page PDF. */
async function detectedChunks() {
  const qr = await QRCode.toBuffer('K1:alpha*K2:beta', { type: 'png', scale: 4, margin: 2 });
  const table = [
    ['Item', 'Qty', 'Price'],
    ['Pens', '40', '12.00'],
    ['Paper', '12', '30.00'],
  ];
  const pdf = path.join(scratch, `statement-${randomUUID()}.pdf`);
  await writeFile(
    pdf,
    await textPdf(
      [
        [
          { text: 'Account holder: Contoso Ltd', x: 50, y: 60 },
          ...table.flatMap((row, r) => row.map((text, c) => ({ text, x: 50 + 150 * c, y: 120 + 18 * r }))),
        ],
        [{ text: 'Second page', x: 50, y: 60 }],
      ],
      [{ page: 1, png: qr, x: 400, y: 300, size: 100 }],
    ),
  );
  return documentResult(await layoutModel(await modelInput(pdf, 'pdf', [1, 2]))).chunks;
}

describe('document export', () => {
  let t: TestTenant;
  let other: TestTenant;
  let taskId: number;
  let chunks: Awaited<ReturnType<typeof detectedChunks>>;
  const externalId = `statement-${randomUUID()}`;

  beforeAll(async () => {
    [t, other] = await Promise.all([createTestTenant(ctx), createTestTenant(ctx)]);
    chunks = await detectedChunks();
    const reviewer = await ctx.prisma.user.create({ data: { tenantId: t.tenantId, email: `rev-${randomUUID()}@example.com`, name: 'Rita Reviewer', roleName: 'Reviewer' } });
    const sourceBlobKey = `tenants/${t.tenantId}/tasks/export-${randomUUID()}/source`;
    const redactedBlobKey = `tenants/${t.tenantId}/tasks/export-${randomUUID()}/run-0/redacted.pdf`;
    await ctx.blobs.put(sourceBlobKey, Buffer.from('%PDF-source'));
    await ctx.blobs.put(redactedBlobKey, Buffer.from('%PDF-redacted'));
    const task = await insertTask(ctx.prisma, t, {
      externalId,
      description: 'March statement',
      metadata: { customer: 'C-42' },
      totalPages: 2,
      sourceBlobKey,
      redactedBlobKey,
      lastCheckedOutById: reviewer.id,
      lastCheckedOutUntil: new Date('2026-01-02T03:04:05Z'),
    });
    taskId = task.id;
    await ctx.prisma.documentChunk.createMany({
      data: chunks.map((chunk, index) => ({
        taskId,
        chunkNumber: index + 1,
        pageNumber: chunk.pageNumber,
        averageConfidence: chunk.averageConfidence,
        entities: chunk.entities as Prisma.InputJsonValue,
        retrievedOn: new Date('2026-01-01T00:00:00Z'),
        // The second page as a reviewer left it.
        ...(index === 1 ? { version: 3, lastModifiedById: reviewer.id, lastModifiedByExternal: 'erp-sync', lastModifiedOn: new Date('2026-01-01T10:00:00Z') } : {}),
      })),
    });
  });

  it('exports the task and every chunk with its entities, in the spec shape', async () => {
    const res = await get(t, `/${taskId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body: DocumentExportResponse = documentExportResponse.strict().parse(res.json());
    expect(body).toMatchObject({
      taskId,
      workspaceId: t.defaultWorkspaceId,
      batchId: null,
      externalId,
      displayName: 'Statement',
      description: 'March statement',
      totalPages: 2,
      lastCheckoutByUserName: 'Rita Reviewer',
      lastCheckedOutUntil: '2026-01-02T03:04:05.000Z',
      lastIntegratedBy: null,
      lastIntegratedByUserName: null,
      lastIntegratedOn: null,
      metadata: { customer: 'C-42' },
    });
    expect(body.averageConfidence).toBeCloseTo((chunks[0]!.averageConfidence! + chunks[1]!.averageConfidence!) / 2, 6);
    expect(body.chunks.map(({ entities: _, ...chunk }) => chunk)).toEqual([
      { version: '1', retrievedOn: '2026-01-01T00:00:00.000Z', lastModifiedBy: null, lastModifiedByExternal: null, lastModifiedOn: null, averageConfidence: chunks[0]!.averageConfidence },
      {
        version: '3',
        retrievedOn: '2026-01-01T00:00:00.000Z',
        lastModifiedBy: body.lastCheckedOutBy,
        lastModifiedByExternal: 'erp-sync',
        lastModifiedOn: '2026-01-01T10:00:00.000Z',
        averageConfidence: chunks[1]!.averageConfidence,
      },
    ]);
    expect(body.chunks.map((c) => c.entities)).toEqual(chunks.map((c) => c.entities));
    expect(body.chunks[0]!.entities.map((e) => e.type)).toEqual(expect.arrayContaining(['Line', 'Paragraph', 'Table', 'KeyValue', 'QrCode']));
  });

  it('exports chunks stored in the compact form byte for byte as the same chunks stored whole, as rows were before it', async () => {
    // The rows above are stored whole, as every row was before the compact form.
    const whole = await Promise.all([get(t, `/${taskId}`), get(t, `/${taskId}/simplified`)]);
    const rows = await ctx.prisma.documentChunk.findMany({ where: { taskId }, orderBy: { chunkNumber: 'asc' } });
    try {
      for (const [index, row] of rows.entries()) {
        const compact = compactEntities(chunks[index]!.entities);
        expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(chunks[index]!.entities).length / 2);
        await ctx.prisma.documentChunk.update({ where: { id: row.id }, data: { entities: compact as Prisma.InputJsonValue } });
      }
      const compacted = await Promise.all([get(t, `/${taskId}`), get(t, `/${taskId}/simplified`)]);
      expect(compacted.map((res) => res.statusCode)).toEqual([200, 200]);
      // The signed file links expire a while after each request: the rest is the same text.
      const unsigned = (body: string) => body.replace(/expires=\d+/g, 'expires').replace(/sig=[\w-]+/g, 'sig');
      expect(unsigned(compacted[0].body)).toBe(unsigned(whole[0].body));
      expect(unsigned(compacted[1].body)).toBe(unsigned(whole[1].body));
    } finally {
      for (const row of rows) await ctx.prisma.documentChunk.update({ where: { id: row.id }, data: { entities: row.entities as Prisma.InputJsonValue } });
    }
  });

  it('serves the original and the redacted file through signed links', async () => {
    const body = (await get(t, `/${taskId}`)).json();
    expect((await download(body.originalFileUrl)).body).toBe('%PDF-source');
    const redacted = await download(body.redactedFileUrl);
    expect(redacted.body).toBe('%PDF-redacted');
    expect(redacted.headers['content-disposition']).toContain('redacted.pdf');
  });

  it('exports the simplified form: contents, tables and codes without geometry', async () => {
    const res = await get(t, `/${taskId}/simplified`);
    expect(res.statusCode, res.body).toBe(200);
    const body = simplifiedDocumentExportResponse.strict().parse(res.json());
    expect(body).toMatchObject({ taskId, externalId, metadata: { customer: 'C-42' }, totalPages: 2 });
    expect(body.pages.map((p) => p.averageConfidence)).toEqual(chunks.map((c) => c.averageConfidence));
    const [first, second] = body.pages;
    expect(second!.entities.map((e) => [e.category, e.content])).toEqual([
      ['Line', 'Second page'],
      ['Paragraph', 'Second page'],
    ]);
    expect(first!.entities.find((e) => e.category === 'Account holder')).toMatchObject({ content: 'Contoso Ltd', pageNumber: 1, table: null, qrCode: null });
    const table = first!.entities.find((e) => e.category === 'Table')!.table!;
    expect(table).toMatchObject({ rowCount: 3, columnCount: 3, tableRowsTableContent: { '1': 'Pens\t40\t12.00', '2': 'Paper\t12\t30.00' } });
    expect(table.tableHeaders.map((h) => [h.columnIndex, h.category])).toEqual([
      [0, 'Item'],
      [1, 'Qty'],
      [2, 'Price'],
    ]);
    expect(table.tableRows['2']).toEqual([
      { rowIndex: 2, columnIndex: 0, content: 'Paper', confidence: 1 },
      { rowIndex: 2, columnIndex: 1, content: '12', confidence: 1 },
      { rowIndex: 2, columnIndex: 2, content: '30.00', confidence: 1 },
    ]);
    const code = first!.entities.find((e) => e.category === 'QrCode')!;
    expect(code).toMatchObject({
      content: 'K1:alpha*K2:beta',
      qrCode: { qrCodeContent: 'K1:alpha*K2:beta', keyValues: [{ category: 'K1', content: 'alpha', confidence: 1 }, { category: 'K2', content: 'beta', confidence: 1 }] },
    });
  });

  it('finds the task by taskid, by externalId, or by both naming the same task', async () => {
    const { originalFileUrl: _o, redactedFileUrl: _r, ...expected } = (await get(t, `/${taskId}`)).json();
    for (const url of [`/${taskId}?externalId=${externalId}`, `?externalId=${externalId}`, `?taskid=${taskId}`, `?TaskId=${taskId}&externalid=${externalId}`]) {
      const res = await get(t, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject(expected);
    }
    const simplified = await get(t, `/simplified?externalId=${externalId}`);
    expect(simplified.statusCode, simplified.body).toBe(200);
    expect(simplified.json()).toMatchObject({ taskId, pages: expect.any(Array) });
  });

  it('rejects missing ids (400), mismatched, unknown and foreign tasks (404), and callers without a token (401)', async () => {
    expectProblem(await get(t, ''), 400);
    expectProblem(await get(t, '/simplified'), 400);
    expectProblem(await get(t, '/abc'), 400);
    const another = await insertTask(ctx.prisma, t, { externalId: `another-${randomUUID()}` });
    expectProblem(await get(t, `/${taskId}?externalId=${another.externalId}`), 404);
    expectProblem(await get(t, `/${2_000_000_000}`), 404);
    expectProblem(await get(t, '?externalId=nobody'), 404);
    // Another organization's task is reported exactly like a missing one.
    expectProblem(await get(other, `/${taskId}`), 404);
    expectProblem(await get(other, `/${taskId}/simplified`), 404);
    expectProblem(await get(other, `?externalId=${externalId}`), 404);
    expectProblem(await app.inject({ method: 'GET', url: `${base}/${taskId}` }), 401);
  });

  it('exports a task not recognised yet with no chunks, and refuses transcript tasks', async () => {
    const queued = await insertTask(ctx.prisma, t, { taskStatus: TaskStatus.QueuedForPreProcessing });
    const body = documentExportResponse.parse((await get(t, `/${queued.id}`)).json());
    expect(body).toMatchObject({ chunks: [], averageConfidence: null, originalFileUrl: null, redactedFileUrl: null });

    const transcripts = await createTestTenant(ctx, { defaultTemplate: TemplateType.Transcripts });
    const call = await insertTask(ctx.prisma, transcripts);
    expectProblem(await get(transcripts, `/${call.id}`), 400, 'NotADocumentTask');
  });

  it("exports a split task as its parts' chunks, part after part", async () => {
    const original = await insertTask(ctx.prisma, t, { taskStatus: TaskStatus.Split, externalId: `split-${randomUUID()}` });
    const parts = [];
    for (const partNumber of [2, 1]) parts.push(await insertTask(ctx.prisma, t, { parentTaskId: original.id, partNumber, displayName: `Part ${partNumber}` }));
    // A part of an earlier run, dropped by a reprocess.
    const stale = await insertTask(ctx.prisma, t, { parentTaskId: original.id, partNumber: 1, taskStatus: TaskStatus.Deleted });
    for (const [part, page] of [
      [parts[0]!, 'part two'],
      [parts[1]!, 'part one'],
      [stale, 'stale'],
    ] as const) {
      const entity = chunks[1]!.entities[0]!;
      await ctx.prisma.documentChunk.create({
        data: { taskId: part.id, chunkNumber: 1, pageNumber: 1, averageConfidence: 1, entities: [{ ...entity, keyValues: [{ ...entity.keyValues[0]!, content: page }] }] },
      });
    }
    const body = documentExportResponse.parse((await get(t, `/${original.id}`)).json());
    expect(body.chunks.map((c) => c.entities[0]!.keyValues[0]!.content)).toEqual(['part one', 'part two']);
  });
});

describe('an invoice lacking some fields', () => {
  it('exports a notDetected entity for each expected field the model did not find, in both forms', async () => {
    const t = await createTestTenant(ctx);
    const pdf = path.join(scratch, `invoice-${randomUUID()}.pdf`);
    // No due date, no IBAN, no customer.
    const lines = ['Northwind Supplies Ltd', 'VAT GB123456789', 'Invoice No: INV-2026-0042', 'Invoice date: 12/03/2026', 'Subtotal 100.00 EUR', 'VAT 20% 20.00 EUR', 'Total 120.00 EUR'];
    await writeFile(pdf, await textPdf([lines.map((text, i) => ({ text, x: 50, y: 60 + 18 * i }))]));
    const [chunk] = documentResult(await invoicesUniversalModel(await modelInput(pdf, 'pdf', [1]))).chunks;
    const task = await insertTask(ctx.prisma, t, { totalPages: 1 });
    await ctx.prisma.documentChunk.create({
      data: { taskId: task.id, chunkNumber: 1, pageNumber: 1, averageConfidence: chunk!.averageConfidence, entities: chunk!.entities as Prisma.InputJsonValue },
    });
    const body = documentExportResponse.parse((await get(t, `/${task.id}`)).json());
    const slots = body.chunks[0]!.entities.filter((e) => e.notDetected).map((e) => e.category);
    expect(slots).toEqual(expect.arrayContaining(['DueDate', 'IBAN', 'CustomerName']));
    expect(slots).not.toContain('InvoiceTotal');
    const simplified = await get(t, `/${task.id}/simplified`);
    expect(simplified.statusCode, simplified.body).toBe(200);
    expect(JSON.stringify(simplified.json())).toContain('DueDate');
  });
});
