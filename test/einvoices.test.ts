/**
 * E-invoices through the service: an XML file (CII, UBL) as a task's source reaches ToReview with
 * its fields in invoice workspaces and is refused elsewhere; hostile XML, as the source or
 * embedded in a PDF, never fails a task or the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import type { Entity } from '../src/domain/entities.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { createTask } from './support/tasks.js';
import { ciiInvoice, HOSTILE_XML, pdfWithXml, printedLines, SAMPLE, ublInvoice } from './models/einvoice/einvoice-fixtures.js';

let ctx: TestContext;
let files: FileServer;
let workers: WorkerPool;
const XML = 'application/xml';
const HOSTILE = ['billion-laughs', 'external-entity', 'deep-nesting', 'huge-text', 'broken'] as const;

beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({
    '/facturx.xml': { body: Buffer.from(ciiInvoice()), type: XML },
    '/peppol.xml': { body: Buffer.from(ublInvoice(SAMPLE, 'CreditNote')), type: XML },
    '/billion-laughs.xml': { body: Buffer.from(HOSTILE_XML.billionLaughs()), type: XML },
    '/external-entity.xml': { body: Buffer.from(HOSTILE_XML.externalEntity()), type: XML },
    '/deep-nesting.xml': { body: Buffer.from(HOSTILE_XML.deepNesting()), type: XML },
    // Larger than an invoice XML may be: refused unread.
    '/huge-text.xml': { body: Buffer.from(HOSTILE_XML.hugeText(50 * 1024 * 1024)), type: XML },
    '/broken.xml': { body: Buffer.from(HOSTILE_XML.broken()), type: XML },
    '/contradiction.pdf': { body: Buffer.from(await pdfWithXml(printedLines(SAMPLE, { total: '1587.50' }), ciiInvoice())), type: 'application/pdf' },
    '/hostile-embedded.pdf': { body: Buffer.from(await pdfWithXml(printedLines(), HOSTILE_XML.billionLaughs())), type: 'application/pdf' },
  });
  workers = await startTestWorkers(ctx);
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
  await files.close();
});

const submit = (t: TestTenant, file: string, workspaceId: number) => createTask(ctx.app, t, files.url(file), { workspaceId });
const invoiceWorkspace = async (t: TestTenant) => (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'invoices', templateType: TemplateType.InvoicesUniversal })).workspaceId;

async function exportedEntities(t: TestTenant, taskId: number): Promise<Entity[]> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/v1.0/external/sdtask/GetExportData/${taskId}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().chunks as Array<{ entities: Entity[] }>).flatMap((c) => c.entities);
}

const fieldValue = (entities: readonly Entity[], category: string) => entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected);

describe('an e-invoice XML as a task', { timeout: 180_000 }, () => {
  it('reaches ToReview in an invoice workspace as one page, its fields read from the data in the export', async () => {
    const t = await createTestTenant(ctx, { freeVolume: 10 });
    const workspaceId = await invoiceWorkspace(t);
    for (const file of ['/facturx.xml', '/peppol.xml']) {
      const task = await waitForFinalStatus(ctx, await submit(t, file, workspaceId));
      expect(task.taskStatus, `${file}: ${task.failureReason}`).toBe(TaskStatus.ToReview);
      expect(task.totalPages, file).toBe(1);
      expect(task.sourceMimeType, file).toBe(XML);
      const entities = await exportedEntities(t, task.id);
      const total = fieldValue(entities, 'InvoiceTotal');
      expect(total?.keyValues[0]?.contentNormalized, file).toBe(SAMPLE.gross);
      expect(total?.confidence, file).toBe(1);
      expect(total?.documentData, file).toMatchObject({ syntax: file === '/peppol.xml' ? 'UBL' : 'CII', print: 'noPrint', warning: null });
      expect(fieldValue(entities, 'VendorTaxId')?.keyValues[0]?.contentNormalized, file).toBe(SAMPLE.seller.vat);
    }
    // One page each from the free volume.
    expect((await ctx.prisma.tenant.findUniqueOrThrow({ where: { id: t.tenantId } })).freeVolume).toBe(8);
  });

  it('is refused as an unsupported file type outside invoice workspaces', async () => {
    const t = await createTestTenant(ctx);
    const task = await waitForFinalStatus(ctx, await submit(t, '/facturx.xml', t.defaultWorkspaceId));
    expect(task.taskStatus).toBe(TaskStatus.PreProcessingFailed);
    expect(task.failureReason).toMatch(/Unsupported file type application\/xml/);
  });

  it('hostile or broken: ToReview with a warning, never a failed task, and the service stays healthy', async () => {
    const t = await createTestTenant(ctx);
    const workspaceId = await invoiceWorkspace(t);
    const ids = await Promise.all(HOSTILE.map((name) => submit(t, `/${name}.xml`, workspaceId)));
    for (const [i, id] of ids.entries()) {
      const task = await waitForFinalStatus(ctx, id);
      expect(task.taskStatus, `${HOSTILE[i]}: ${task.failureReason}`).toBe(TaskStatus.ToReview);
      const entities = await exportedEntities(t, id);
      expect(entities.find((e) => e.type === 'Warning')?.documentData?.warning, HOSTILE[i]).toMatch(/could not be read as an invoice/);
      expect(JSON.stringify(entities), HOSTILE[i]).not.toMatch(/root:x:0:0|lollollol/);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    // The workers still take work.
    const after = await waitForFinalStatus(ctx, await submit(t, '/facturx.xml', workspaceId));
    expect(after.taskStatus).toBe(TaskStatus.ToReview);
  });
});

describe('a PDF with its invoice data', { timeout: 180_000 }, () => {
  it('carries, in the export, the warning of a print that contradicts the data', async () => {
    const t = await createTestTenant(ctx);
    const task = await waitForFinalStatus(ctx, await submit(t, '/contradiction.pdf', await invoiceWorkspace(t)));
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
    const total = fieldValue(await exportedEntities(t, task.id), 'InvoiceTotal');
    expect(total?.keyValues[0]?.contentNormalized).toBe(SAMPLE.gross);
    expect(total?.documentData).toMatchObject({ syntax: 'CII', fileName: 'factur-x.xml', print: 'contradicted' });
    expect(total?.documentData?.warning).toMatch(/1587,50/);
  });

  it('embedding hostile XML: the printed page\'s fields and a warning', async () => {
    const t = await createTestTenant(ctx);
    const task = await waitForFinalStatus(ctx, await submit(t, '/hostile-embedded.pdf', await invoiceWorkspace(t)));
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
    const entities = await exportedEntities(t, task.id);
    expect(fieldValue(entities, 'InvoiceId')?.keyValues[0]?.contentNormalized).toBe(SAMPLE.number);
    expect(entities.find((e) => e.type === 'Warning')?.documentData?.warning).toMatch(/embedded invoice data was not used/);
  });
});
