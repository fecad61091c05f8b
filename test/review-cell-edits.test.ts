/**
 * Table cells through the reviewer API (`cellEdits` of PATCH .../entities): the line items of an
 * invoice read by the invoice model, corrected, filled in and cleared by a reviewer; bad cells are 400s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../src/domain/enums.js';
import type { Entity } from '../src/domain/entities.js';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { createUser, seedDetectedTask, userHeaders } from './support/review.js';
import { reviewInvoice } from './support/review-invoice.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

async function checkedOutInvoice() {
  const t = await createTestTenant(ctx, { defaultTemplate: TemplateType.InvoicesUniversal });
  const user = await createUser(ctx, t);
  const headers = await userHeaders(ctx.app, user);
  const { pdf, chunks } = await reviewInvoice();
  const task = await seedDetectedTask(ctx, t, { source: pdf, mimeType: 'application/pdf', chunks });
  expect((await ctx.app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/tasks/${task.id}/checkout`, headers })).statusCode).toBe(200);
  const items = chunks[0]!.entities.findIndex((e) => e.type === 'Table' && e.category === 'LineItems');
  const patch = (cellEdits: unknown[], version?: number) =>
    ctx.app.inject({ method: 'PATCH', url: `${REVIEW_PREFIX}/tasks/${task.id}/entities`, headers, payload: { chunks: [{ chunkNumber: 1, ...(version ? { version } : {}), cellEdits }] } });
  return { user, items, patch, entities: chunks[0]!.entities };
}

describe('table cells edited by a reviewer', () => {
  it('corrects a cell, fills in an empty one and clears one; the row text and the reviewer are recorded', async () => {
    const { user, items, patch } = await checkedOutInvoice();
    const res = await patch(
      [
        { entityIndex: items, rowIndex: 1, columnIndex: 1, content: '13' },
        { entityIndex: items, rowIndex: 4, columnIndex: 0, content: 'Totals' },
        { entityIndex: items, rowIndex: 3, columnIndex: 0, content: '' },
      ],
      1,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [chunk] = res.json().chunks;
    expect(chunk.version).toBe(2);
    const table = (chunk.entities as Entity[])[items]!;
    expect(table).toMatchObject({ editedBy: user.id, editedOn: expect.any(String) });
    const cell = (row: number, column: number) => table.table!.tableRows[String(row)]?.find((c) => c.columnIndex === column);
    expect(cell(1, 1)).toMatchObject({ content: '13', contentNormalized: '13', rowIndex: 1, columnIndex: 1 });
    // The corrected cell keeps its place on the page; the filled-in one has none.
    expect(cell(1, 1)!.boundingBox.width).toBeGreaterThan(0);
    expect(cell(4, 0)).toMatchObject({ content: 'Totals', boundingBox: expect.objectContaining({ width: 0 }) });
    expect(cell(3, 0)).toBeUndefined();
    expect(table.table!.tableRowsTableContent).toMatchObject({ '1': 'Website maintenance (March)\t13\t85.00\t1,020.00', '3': '\t2\t15.00\t30.00', '4': 'Totals\t\tSubtotal\t1,290.00' });
  });

  it('refuses a cell of no table, outside the table, or in the header row', async () => {
    const { items, patch, entities } = await checkedOutInvoice();
    const line = entities.findIndex((e) => e.type === 'Line');
    const { rowCount, columnCount } = entities[items]!.table!;
    expectProblem(await patch([{ entityIndex: line, rowIndex: 1, columnIndex: 0, content: 'x' }]), 400);
    expectProblem(await patch([{ entityIndex: entities.length, rowIndex: 1, columnIndex: 0, content: 'x' }]), 400);
    expectProblem(await patch([{ entityIndex: items, rowIndex: rowCount, columnIndex: 0, content: 'x' }]), 400);
    expectProblem(await patch([{ entityIndex: items, rowIndex: 1, columnIndex: columnCount, content: 'x' }]), 400);
    expectProblem(await patch([{ entityIndex: items, rowIndex: 0, columnIndex: 0, content: 'x' }]), 400);
    expectProblem(await patch([]), 400);
    // Nothing of the refused edits was stored: the chunk is still at its first version, and a good cell is taken.
    const good = await patch([{ entityIndex: items, rowIndex: 2, columnIndex: 1, content: '2' }], 1);
    expect(good.statusCode, good.body).toBe(200);
  });
});
