import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { IntegrationStatus, TaskAssignmentOrderType, TaskStatus, TemplateType } from '../src/domain/enums.js';
import type { DocumentExportResponse } from '../src/modules/exports/document-export.schemas.js';
import type { TranscriptExportResponse } from '../src/modules/exports/transcript-export.schemas.js';
import { createTestTenant } from './support/context.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { invoicesUniversalModel } from '../src/models/invoice/invoice.js';
import { documentResult, modelInput } from './models/document-fixtures.js';
import { ciiInvoice, pdfWithXml, printedLines, SAMPLE } from './models/einvoice/einvoice-fixtures.js';
import { COMPLETION, logIn as logInAt, openPage as openBrowserPage, useReviewerPageStand } from './support/browser.js';
import { createUser, entityIndex, seedDetectedTask, seedDocumentTask, seedTranscriptTask, type TestUser } from './support/review.js';

const stand = useReviewerPageStand();

function openPage() {
  return openBrowserPage(stand.browser);
}

function logIn(page: Page, user: TestUser) {
  return logInAt(page, stand.baseUrl, user);
}

describe('reviewer page in Chromium', () => {
  it('logs in, opens a task, edits a field and completes the review; the export shows the edit', async () => {
    const t = await createTestTenant(stand.ctx);
    const user = await createUser(stand.ctx, t);
    const task = await seedDocumentTask(stand.ctx, t, { assignedUsers: [user.email], order: TaskAssignmentOrderType.Sequential });
    const total = await entityIndex('Total');

    const { page, problems } = await openPage();
    await logIn(page, user);
    // The task list: the document's pages (all read, it is in review).
    const row = page.locator('#task-table tbody tr', { has: page.locator(`button[data-task-id="${task.id}"]`) });
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('1');
    await page.click(`button[data-task-id="${task.id}"]`);
    const field = page.locator(`input[data-chunk="1"][data-entity="${total}"]`);
    await expect.poll(() => field.inputValue()).toBe('12.50 EUR');
    // The page image arrived (fetched with the token) and the words of its lines are placed on it to point at.
    const image = page.locator('.page-image img');
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(1000);
    await expect.poll(() => page.locator('.page-image .word').count()).toBeGreaterThan(3);
    // A document without typed fields shows its layout's values unfolded: they are what there is to review.
    expect(await page.locator('details.layout-values').getAttribute('open')).not.toBeNull();
    expect(await page.textContent('#task-state')).toContain('checked out until');

    await field.fill('99.00 EUR');
    await page.click('#complete');
    await expect.poll(() => page.textContent('#message'), COMPLETION).toContain(`Review of task #${task.id} completed`);
    expect(await page.locator(`button[data-task-id="${task.id}"]`).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();

    expect(await stand.ctx.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({
      taskStatus: TaskStatus.ExportCompleted,
      integrationStatus: IntegrationStatus.Queued,
    });
    const res = await stand.ctx.app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/${task.id}`, headers: t.headers });
    const exported: DocumentExportResponse = res.json();
    expect(exported.chunks[0]!.entities[total]).toMatchObject({
      editedBy: user.id,
      keyValues: [expect.objectContaining({ content: '99.00 EUR', contentNormalized: '99.00' })],
    });
    expect(exported.chunks[0]).toMatchObject({ lastModifiedBy: user.id, version: '2' });
    expect(exported).toMatchObject({ lastCheckedOutBy: user.id, lastCheckoutByUserName: user.name });
  });

  it('edits a transcript segment and adds an annotation; the transcript export shows both', async () => {
    const t = await createTestTenant(stand.ctx, { defaultTemplate: TemplateType.Transcripts });
    const user = await createUser(stand.ctx, t);
    const task = await seedTranscriptTask(stand.ctx, t);
    const { page, problems } = await openPage();
    await logIn(page, user);
    // The task list: a recording's minutes.
    const row = page.locator('#task-table tbody tr', { has: page.locator(`button[data-task-id="${task.id}"]`) });
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('1 min');
    await page.click(`button[data-task-id="${task.id}"]`);

    const text = page.locator('textarea[data-segment="1"]');
    await expect.poll(() => text.inputValue()).toBe('how can I help');
    await text.fill('how may I help');
    await page.locator('.segment').nth(1).locator('select').selectOption('agent');
    await page.click('text=Add annotation');
    await page.locator('#annotations [name=content]').fill('caller greets');
    await page.click('#save');
    await expect.poll(() => page.textContent('#message'), COMPLETION).toBe('Saved.');
    await page.click('#complete');
    await expect.poll(() => page.textContent('#message'), COMPLETION).toContain(`Review of task #${task.id} completed`);
    expect(problems).toEqual([]);
    await page.close();

    const res = await stand.ctx.app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/Transcript/${task.id}`, headers: t.headers });
    const exported: TranscriptExportResponse = res.json();
    expect(exported.transcript.transcripts[1]).toMatchObject({ speakerId: 'agent', displayText: 'how may I help' });
    expect(exported.transcript.annotations).toEqual([expect.objectContaining({ content: 'caller greets', createdBy: user.id, createdByUserName: user.name })]);
  });

  it('marks the fields read from an invoice\'s data and shows the warning of a print that contradicts it; an XML task shows its fields without a page', async () => {
    const t = await createTestTenant(stand.ctx, { defaultTemplate: TemplateType.InvoicesUniversal });
    const user = await createUser(stand.ctx, t);
    const dir = await mkdtemp(path.join(tmpdir(), 'review-einvoice-'));
    const detect = async (name: string, content: Uint8Array | string, kind: 'pdf' | 'xml', mimeType: string) => {
      const file = path.join(dir, name);
      await writeFile(file, content);
      const { chunks } = documentResult(await invoicesUniversalModel(await modelInput(file, kind, [1])));
      return seedDetectedTask(stand.ctx, t, { source: Buffer.from(content), mimeType, chunks }, { assignedUsers: [user.email] });
    };
    try {
      const printed = await detect('contradiction.pdf', await pdfWithXml(printedLines(SAMPLE, { total: '1587.50' }), ciiInvoice()), 'pdf', 'application/pdf');
      const xml = await detect('invoice.xml', ciiInvoice(), 'xml', 'application/xml');
      const { page, problems } = await openPage();
      await logIn(page, user);

      await page.click(`button[data-task-id="${printed.id}"]`);
      const total = page.locator('.field.data-backed[data-category="InvoiceTotal"]');
      await expect.poll(() => total.locator('input').inputValue()).toBe(SAMPLE.gross);
      expect(await total.locator('.data-badge').textContent()).toBe('invoice data');
      expect(await total.locator('.data-warning').textContent()).toMatch(/printed page reads "1587,50/);
      // Where the print agrees, the field is boxed on the page image and carries no warning.
      const number = page.locator('.field.data-backed[data-category="InvoiceId"]');
      expect(await number.locator('.data-warning').count()).toBe(0);

      await page.click('#back');
      await page.click(`button[data-task-id="${xml.id}"]`);
      await expect.poll(() => page.textContent('#task-title')).toContain(`#${xml.id} `);
      const vendor = page.locator('.field.data-backed[data-category="VendorName"]');
      await expect.poll(() => vendor.locator('input').inputValue()).toBe(SAMPLE.seller.name);
      expect(await page.locator('.page-image').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
