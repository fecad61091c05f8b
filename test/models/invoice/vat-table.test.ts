import { describe, expect, it } from 'vitest';
import { chooseFields } from '../../../src/models/fields/field-choice.js';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { vatTableTotals } from '../../../src/models/invoice/vat-table.js';
import { buildPageText, type PageText } from '../../../src/models/page/text/text-lines.js';
import { ocrCells } from '../receipt/ocr-receipt.js';

/** A page of rows, 30 units apart, each a list of `[left, text]` cells. */
function page(...rows: Array<ReadonlyArray<[number, string]>>): PageText {
  return buildPageText(rows.flatMap((cells, i) => ocrCells(100 + 30 * i, cells)));
}

function totals(text: PageText): Record<string, string> {
  return Object.fromEntries(vatTableTotals(text, new Set()).map((c) => [c.category, c.contentNormalized]));
}

function chosen(text: PageText) {
  const { candidates, taxIds } = findPageCandidates(text, { dates: { monthFirst: false }, portuguese: false, itemTables: [] });
  return chooseFields([...candidates, ...taxIds].map((c) => ({ ...c, page: { pageNumber: 1, chunkNumber: 1 } })));
}

describe("a VAT table's totals", () => {
  it('are its totals row, the row the rate rows add up to, whatever its label (net, tax, gross columns)', () => {
    const text = page(
      [[0, 'Steuer %'], [200, 'Netto'], [320, 'Steuer'], [440, 'Brutto']],
      [[0, 'A= 19,0%'], [200, '2,69'], [320, '0,51'], [440, '3,20']],
      [[0, 'B= 7,0%'], [200, '1,85'], [320, '0,13'], [440, '1,98']],
      [[0, 'Gesantbetrag'], [200, '4,54'], [320, '0,64'], [440, '5,18']],
    );
    expect(totals(text)).toEqual({ SubTotal: '4.54', TotalTax: '0.64', InvoiceTotal: '5.18' });
    const fields = chosen(text);
    expect(fields.get('TotalTax')?.contentNormalized).toBe('0.64');
    expect(fields.get('SubTotal')?.contentNormalized).toBe('4.54');
  });

  it('tell the tax from the net by size, whichever column comes first', () => {
    const text = page([[0, 'MWST%'], [120, 'MWST'], [240, 'Netto'], [360, 'Brutto']], [[0, 'Summe'], [120, '0,61'], [240, '8,70'], [360, '9,31']]);
    expect(totals(text)).toEqual({ SubTotal: '8.70', TotalTax: '0.61', InvoiceTotal: '9.31' });
  });

  it('take a row labelled a total as the totals row when the rate rows above it were misread', () => {
    const text = page([[0, 'A 7%'], [120, '0,61'], [240, '69'], [360, '7,00']], [[0, 'Summe'], [120, '0,61'], [240, '8,70'], [360, '9,31']]);
    expect(totals(text)).toEqual({ SubTotal: '8.70', TotalTax: '0.61', InvoiceTotal: '9.31' });
  });

  it('add up the rate rows when no totals row follows them', () => {
    const text = page([[0, 'A 19%'], [200, '10,00'], [320, '1,90'], [440, '11,90']], [[0, 'B 7%'], [200, '20,00'], [320, '1,40'], [440, '21,40']]);
    expect(totals(text)).toEqual({ SubTotal: '30.00', TotalTax: '3.30', InvoiceTotal: '33.30' });
    // A rate's row beside them that does not add up (misread): a rate is missing from the sum.
    const misread = page([[0, 'A 19%'], [200, '10,00'], [320, '1,90'], [440, '11,90']], [[0, 'B 7%'], [200, '20,00'], [320, '1,40'], [440, '27,40']]);
    expect(totals(misread)).toEqual({});
  });

  it('are no VAT table where the amounts do not add up, are apart by words, or the part is no rate of the rest', () => {
    // An item row: quantity, unit price, amount.
    expect(totals(page([[0, 'Kaffee'], [200, '2,00'], [320, '1,50'], [440, '3,00']]))).toEqual({});
    // A row of labelled totals: shipping is no tax.
    expect(totals(page([[0, 'Subtotal 100.00 Shipping 5.00 Total 105.00']]))).toEqual({});
    // Two halves of a sum: 50 is no tax on 60.
    expect(totals(page([[0, 'Anzahlung'], [200, '60,00'], [320, '50,00'], [440, '110,00']]))).toEqual({});
    // An item's row (quantity, price, rate, tax, amount): its gross is one line's, other taxes may follow.
    expect(totals(page([[0, 'P0001 Producto'], [200, '1,0000'], [280, '100,00'], [360, '21%'], [420, '21,00'], [500, '121,00']]))).toEqual({});
    // The sum must stand right of its parts.
    expect(totals(page([[0, 'Brutto'], [200, '11,90'], [320, '10,00'], [440, '1,90']]))).toEqual({});
  });
});
