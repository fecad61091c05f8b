/**
 * The reviewer page's flow in Chromium on an invoice read by the invoice model: fields grouped
 * with the unsure ones marked, focus -> highlight on the page, a click on a printed word fills
 * the focused field and the save sends where it is printed, the keys that move, accept, undo and
 * complete, the item table, and the scripted review of bench:review within its action goal.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import type { Entity } from '../src/domain/entities.js';
import { FIXES, focusedCategory, pageImageShown, REVIEW_ACTIONS_GOAL, scriptedReview, withTwoWrongFields } from '../bench/lib/review-actions.js';
import { COMPLETION, logIn, openPage, useReviewerPageStand } from './support/browser.js';
import { createTestTenant } from './support/context.js';
import { expandEntities } from '../src/domain/stored-entities.js';
import { createUser, seedDetectedTask } from './support/review.js';
import { reviewInvoice } from './support/review-invoice.js';

const stand = useReviewerPageStand();

/** The invoice with its two wrong fields, in review for a new reviewer of a new organization; the page open on it. */
async function openInvoice() {
  const t = await createTestTenant(stand.ctx, { defaultTemplate: TemplateType.InvoicesUniversal });
  const user = await createUser(stand.ctx, t);
  const { pdf, chunks } = await reviewInvoice();
  const wrong = withTwoWrongFields(chunks);
  const task = await seedDetectedTask(stand.ctx, t, { source: pdf, mimeType: 'application/pdf', chunks: wrong }, { assignedUsers: [user.email] });
  const { page, problems } = await openPage(stand.browser, { width: 1400, height: 1000 });
  await logIn(page, stand.baseUrl, user);
  await page.click(`button[data-task-id="${task.id}"]`);
  await pageImageShown(page);
  const index = (category: string) => wrong[0]!.entities.findIndex((e) => e.type === 'Field' && e.category === category);
  return { task, page, problems, entities: wrong[0]!.entities, index };
}

/** The data-category of each element (evaluateAll runs it in the page). */
const categories = (elements: unknown[]) => elements.map((e) => (e as { dataset: Record<string, string> }).dataset.category);
const field = (page: Page, category: string) => page.locator(`.field[data-category="${category}"]`);
const input = (page: Page, category: string) => page.locator(`input[data-category="${category}"]`);

/** The on-screen rectangle of an element. */
async function rect(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return box;
}

async function storedEntities(taskId: number): Promise<Entity[]> {
  const chunk = await stand.ctx.prisma.documentChunk.findFirstOrThrow({ where: { taskId, chunkNumber: 1 } });
  // Stored compact (domain/stored-entities.ts): read as every reader of the chunks reads them.
  return expandEntities(chunk.entities);
}

describe('the reviewer page on an invoice', () => {
  it('shows the typed fields first, grouped, with the unsure ones and the empty slots marked; the layout folded below', async () => {
    const { page, problems } = await openInvoice();
    const groups = await page.locator('.fields > .group h3').allTextContents();
    expect(groups).toEqual(['Document', 'Seller', 'Buyer', 'Amounts', 'Payment', 'Line items']);
    expect(await page.locator('.group[data-group="document"] .field').evaluateAll(categories)).toEqual([
      'InvoiceId',
      'InvoiceDate',
      'DueDate',
      'Currency',
    ]);
    // Marked: the slot of the due date and of the buyer's tax id, the total at 62%, the buyer's name at 85%; not the sure ones.
    const unsure = await page.locator('.field.unsure').evaluateAll(categories);
    expect(unsure).toEqual(['DueDate', 'CustomerName', 'CustomerTaxId', 'InvoiceTotal']);
    expect(await field(page, 'InvoiceTotal').locator('.confidence').textContent()).toBe('62%');
    expect(await field(page, 'InvoiceTotal').locator('.doubt').textContent()).toContain('unsure');
    expect(await field(page, 'DueDate').locator('.doubt').textContent()).toBe('not found');
    expect(await input(page, 'DueDate').inputValue()).toBe('');
    expect(await field(page, 'DueDate').getAttribute('class')).toContain('slot');
    // The layout's lines and paragraphs are in a closed <details> after the fields; its values are not shown.
    expect(await page.locator('details.layout-values').getAttribute('open')).toBeNull();
    expect(await page.locator('details.layout-values .field').first().isVisible()).toBe(false);
    // The item table: its columns, its rows editable.
    expect(await page.locator('.items-table th').allTextContents()).toEqual(['Description', 'Quantity', 'Unit Price', 'Amount']);
    expect(await page.locator('.items-table tbody tr').first().locator('input').first().inputValue()).toBe('Website maintenance (March)');
    // The page opens on the first field to check.
    expect(await focusedCategory(page)).toBe('DueDate');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('focus a field -> its words are highlighted; click a word -> the field takes it; save sends the place; complete', async () => {
    const { task, page, problems, entities, index } = await openInvoice();
    // Focusing the total shows where its value was read (the subtotal's figures, wrongly).
    await input(page, 'InvoiceTotal').focus();
    const read = entities[index('InvoiceTotal')]!.keyValues[0]!.content;
    expect(read).toBe('1,290.00');
    const highlight = await rect(page, '.page-image .highlight:not([hidden])');
    const printed = await rect(page, `.page-image .word[data-text="${read}"]`);
    expect(Math.abs(highlight.x - printed.x)).toBeLessThan(4);
    expect(Math.abs(highlight.y - printed.y)).toBeLessThan(4);

    // A click on the printed total fills the focused field (the focus stays in it) and marks it placed.
    const total = page.locator(`.page-image .word[data-text="${FIXES[1].word}"]`);
    await total.click();
    expect(await input(page, 'InvoiceTotal').inputValue()).toBe(FIXES[1].word);
    expect(await focusedCategory(page)).toBe('InvoiceTotal');
    expect(await field(page, 'InvoiceTotal').getAttribute('class')).toContain('placed');
    // The highlight follows to the place pointed at.
    const moved = await rect(page, '.page-image .highlight:not([hidden])');
    const word = await rect(page, `.page-image .word[data-text="${FIXES[1].word}"]`);
    expect(Math.abs(moved.y - word.y)).toBeLessThan(4);

    // Dragging a box over the due date's words fills its empty slot.
    await input(page, 'DueDate').focus();
    const due = await rect(page, `.page-image .word[data-text="${FIXES[0].word}"]`);
    await page.mouse.move(due.x - 3, due.y - 3);
    await page.mouse.down();
    await page.mouse.move(due.x + due.width / 2, due.y + due.height / 2, { steps: 3 });
    await page.mouse.move(due.x + due.width + 3, due.y + due.height + 3, { steps: 3 });
    await page.mouse.up();
    expect(await input(page, 'DueDate').inputValue()).toBe(FIXES[0].content);

    await page.click('#save');
    await expect.poll(() => page.textContent('#message'), COMPLETION).toBe('Saved.');
    // What was stored: the values and where the reviewer pointed, around the printed words.
    const stored = await storedEntities(task.id);
    const wordBox = (text: string) => entities.filter((e) => e.type === 'Line').flatMap((e) => e.keyValues.slice(1)).find((w) => w.content === text)!.boundingBox;
    for (const fix of FIXES) {
      const entity = stored[index(fix.category)]!;
      const printedAt = wordBox(fix.word);
      expect(entity).toMatchObject({ placedByReviewer: true, editedOn: expect.any(String), keyValues: [expect.objectContaining({ content: fix.content, pageNumber: 1 })] });
      const box = entity.keyValues[0]!.boundingBox;
      expect(box.left).toBeLessThanOrEqual(printedAt.left);
      expect(box.top).toBeLessThanOrEqual(printedAt.top);
      expect(box.left + box.width).toBeGreaterThanOrEqual(printedAt.left + printedAt.width);
      expect(box.top + box.height).toBeGreaterThanOrEqual(printedAt.top + printedAt.height);
      expect(box.width).toBeLessThan(printedAt.width + 10);
      expect(entity.keyValues[0]!.spans).toHaveLength(1);
    }
    expect(stored[index('InvoiceTotal')]!.keyValues[0]!.contentNormalized).toBe('1548.00');

    // After the save the page shows the saved values, no longer marked; Ctrl+Enter completes.
    expect(await input(page, 'InvoiceTotal').inputValue()).toBe(FIXES[1].word);
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.textContent('#message'), COMPLETION).toContain(`Review of task #${task.id} completed`);
    expect((await stand.ctx.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).taskStatus).toBe(TaskStatus.ExportCompleted);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('edits the line items in their table: typed, or taken from a word on the page; the save stores the cells', async () => {
    const { task, page, problems, entities } = await openInvoice();
    const items = entities.findIndex((e) => e.type === 'Table' && e.category === 'LineItems');
    const cell = (row: number, column: number) => page.locator(`.items-table input[data-key="c:1:${items}:${row}:${column}"]`);
    await cell(1, 1).fill('13');
    await cell(2, 0).focus();
    await page.locator('.page-image .word[data-text="Domain"]').click();
    expect(await cell(2, 0).inputValue()).toBe('Domain');
    await page.click('#save');
    await expect.poll(() => page.textContent('#message'), COMPLETION).toBe('Saved.');
    const table = (await storedEntities(task.id))[items]!.table!;
    expect(table.tableRowsTableContent).toMatchObject({ '1': 'Website maintenance (March)\t13\t85.00\t1,020.00', '2': 'Domain\t1\t240.00\t240.00' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('moves to the next field to check with Alt+ArrowDown, accepts with Enter, undoes with Ctrl+Z', async () => {
    const { page, problems } = await openInvoice();
    expect(await focusedCategory(page)).toBe('DueDate');
    await page.keyboard.press('Alt+ArrowDown');
    expect(await focusedCategory(page)).toBe('CustomerName');
    await page.keyboard.press('Alt+ArrowDown');
    expect(await focusedCategory(page)).toBe('CustomerTaxId');
    await page.keyboard.press('Alt+ArrowUp');
    expect(await focusedCategory(page)).toBe('CustomerName');
    // Enter accepts the buyer's name (no longer marked) and goes on to the next field to check.
    await page.keyboard.press('Enter');
    expect(await focusedCategory(page)).toBe('CustomerTaxId');
    expect(await field(page, 'CustomerName').getAttribute('class')).toMatch(/\baccepted\b/);
    expect(await field(page, 'CustomerName').getAttribute('class')).not.toMatch(/\bunsure\b/);
    // Typing edits the focused field; Ctrl+Z takes the typing back, then the acceptance.
    await page.keyboard.type('DE811907980');
    expect(await input(page, 'CustomerTaxId').inputValue()).toBe('DE811907980');
    await page.keyboard.press('Control+z');
    expect(await input(page, 'CustomerTaxId').inputValue()).toBe('');
    await page.keyboard.press('Control+z');
    expect(await focusedCategory(page)).toBe('CustomerName');
    expect(await field(page, 'CustomerName').getAttribute('class')).toMatch(/\bunsure\b/);
    // A picked word is undone too.
    await input(page, 'InvoiceTotal').focus();
    await page.locator(`.page-image .word[data-text="${FIXES[1].word}"]`).click();
    expect(await input(page, 'InvoiceTotal').inputValue()).toBe(FIXES[1].word);
    await page.keyboard.press('Control+z');
    expect(await input(page, 'InvoiceTotal').inputValue()).toBe('1,290.00');
    expect(await field(page, 'InvoiceTotal').getAttribute('class')).not.toMatch(/\bplaced\b/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it(`fixes the two wrong fields and completes in at most ${REVIEW_ACTIONS_GOAL} clicks and keys (the scripted review of bench:review)`, async () => {
    const { task, page, problems, index } = await openInvoice();
    const { actions, log } = await scriptedReview(page);
    await expect.poll(() => page.textContent('#message'), COMPLETION).toContain(`Review of task #${task.id} completed`);
    expect(actions, log.join(', ')).toBeLessThanOrEqual(REVIEW_ACTIONS_GOAL);
    const stored = await storedEntities(task.id);
    for (const fix of FIXES) expect(stored[index(fix.category)]).toMatchObject({ placedByReviewer: true, keyValues: [expect.objectContaining({ content: fix.content })] });
    expect(problems).toEqual([]);
    await page.close();
  });
});
