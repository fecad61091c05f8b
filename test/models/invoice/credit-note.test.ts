/**
 * A credit note: its own number (not the invoice it corrects), and negative amounts whose minus
 * is the amount's, the totals still adding up.
 */
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture } from '../document-fixtures.js';

describe('a credit note', () => {
  const scratch = useScratchDir();

  it('is numbered by its own number, not the invoice it corrects, and keeps the minus of its amounts', async () => {
    const pdf = await writeFixture(
      scratch.file('credit-note.pdf'),
      await textPdf([
        [
          { text: 'Nordic Office Supply AB', x: 50, y: 60, size: 14 },
          { text: 'Storgatan 1, 111 22 Stockholm', x: 50, y: 80 },
          { text: 'CREDIT NOTE', x: 50, y: 140, size: 14 },
          { text: 'Credit note no.: CN-2026-004', x: 50, y: 156 },
          { text: 'Date: 2026-02-02', x: 50, y: 170 },
          { text: 'Original invoice: INV-2026-0150', x: 50, y: 184 },
          { text: 'Customer: Fjord Consulting AS', x: 50, y: 200 },
          { text: 'Net amount -400.00 SEK', x: 330, y: 400 },
          { text: 'VAT 25% -100.00 SEK', x: 330, y: 416 },
          { text: 'Total ........ -500.00 SEK', x: 330, y: 432 },
        ],
      ]),
    );
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
    expect(fields(entities)).toMatchObject({ InvoiceId: 'CN-2026-004', SubTotal: '-400.00', TotalTax: '-100.00', InvoiceTotal: '-500.00', Currency: 'SEK' });
    // The three add up: the check passes, as it does for an invoice.
    const total = entities.find((e) => e.category === 'InvoiceTotal');
    expect(total?.keyValues[0]?.confidence).toBeGreaterThanOrEqual(0.9);
  });
});
