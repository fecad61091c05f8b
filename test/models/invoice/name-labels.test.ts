/**
 * Words that label a party ("Client", "Customer", "Supplier", "Buyer") are also words of company
 * names: inside a name they are no label (label-hits.ts labelsAName).
 */
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

const TOTALS: Placed[] = [
  { text: 'Net total: 1,200.00 GBP', x: 330, y: 400 },
  { text: 'VAT 20%: 240.00 GBP', x: 330, y: 416 },
  { text: 'Total due: 1,440.00 GBP', x: 330, y: 432 },
];

describe('labels of the parties', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`names-${++count}.pdf`), await textPdf([[...page, ...TOTALS]]));
    return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
  };

  it('are words of names inside a name: the vendor "Bright Client Services Ltd", the customer "Supplier Direct Ltd"', async () => {
    const found = await read([
      { text: 'Bright Client Services Ltd', x: 50, y: 60, size: 14 },
      { text: '12 High Street, London EC1A 1BB', x: 50, y: 80 },
      { text: 'Invoice #: 1042', x: 50, y: 140 },
      { text: 'Date: 3 March 2026', x: 50, y: 156 },
      { text: 'Customer: Supplier Direct Ltd', x: 50, y: 200 },
    ]);
    expect(found).toMatchObject({ VendorName: 'Bright Client Services Ltd', CustomerName: 'Supplier Direct Ltd', InvoiceId: '1042' });
  });

  it('are words of names after a label: "Bill to: Example Buyer Ltd"', async () => {
    const found = await read([
      { text: 'Acme Widgets GmbH', x: 50, y: 60, size: 14 },
      { text: 'Invoice number: INV-2026-0042', x: 50, y: 140 },
      { text: 'Bill to: Example Buyer Ltd', x: 50, y: 200 },
    ]);
    expect(found).toMatchObject({ VendorName: 'Acme Widgets GmbH', CustomerName: 'Example Buyer Ltd' });
  });

  it('label the name as one, with the other name of the label beside it in brackets: "Buyer (Bill to)"', async () => {
    const found = await read([
      { text: 'Shree Ganesh Traders', x: 50, y: 60, size: 14 },
      { text: 'Invoice No: SGT/2025-26/0412', x: 330, y: 60 },
      { text: 'Buyer (Bill to)', x: 50, y: 200 },
      { text: 'Kaveri Textiles Pvt Ltd', x: 50, y: 214 },
    ]);
    expect(found).toMatchObject({ CustomerName: 'Kaveri Textiles Pvt Ltd', VendorName: 'Shree Ganesh Traders' });
  });

  it('head the two parties side by side, the addressee left and the issuer right: "Empfänger" and "Aussteller"', async () => {
    const found = await read([
      { text: 'Rechnung', x: 250, y: 30, size: 16 },
      { text: 'Rechnungsnummer: 2026-118', x: 200, y: 56 },
      { text: 'Empfänger', x: 50, y: 100 },
      { text: 'Clara Weiß', x: 50, y: 116 },
      { text: 'Lindenallee 4', x: 50, y: 130 },
      { text: '50667 Köln', x: 50, y: 144 },
      { text: 'USt-IdNr.: DE987654321', x: 50, y: 158 },
      { text: 'Aussteller', x: 330, y: 100 },
      { text: 'Jonas Brandt', x: 330, y: 116 },
      { text: 'Uferweg 9', x: 330, y: 130 },
      { text: '80331 München', x: 330, y: 144 },
      { text: 'USt-IdNr.: DE123456789', x: 330, y: 158 },
    ]);
    expect(found).toMatchObject({ VendorName: 'Jonas Brandt', CustomerName: 'Clara Weiß', VendorTaxId: 'DE123456789', CustomerTaxId: 'DE987654321' });
  });

  it('have no other field\'s label for their value: words ending in a colon', async () => {
    const found = await read([
      { text: 'Nordwerk Maschinenbau GmbH', x: 50, y: 40, size: 14 },
      { text: 'Rechnungsnummer: R-2026-5', x: 330, y: 40 },
      { text: 'Verkäufer', x: 50, y: 100 },
      { text: 'Weitere Informationen:', x: 150, y: 100 },
    ]);
    expect(found).toMatchObject({ VendorName: 'Nordwerk Maschinenbau GmbH' });
  });

  it('still label the name with a colon, alone on their line, or opening it', async () => {
    expect(await read([{ text: 'Acme Widgets GmbH', x: 50, y: 60, size: 14 }, { text: 'Customer: Harbourside Design', x: 50, y: 200 }])).toMatchObject({ CustomerName: 'Harbourside Design' });
    expect(await read([{ text: 'Acme Widgets GmbH', x: 50, y: 60, size: 14 }, { text: 'CUSTOMER', x: 50, y: 200 }, { text: 'Harbourside Design', x: 50, y: 216 }])).toMatchObject({ CustomerName: 'Harbourside Design' });
    expect(await read([{ text: 'Acme Widgets GmbH', x: 50, y: 60, size: 14 }, { text: 'Bill to Harbourside Design', x: 50, y: 200 }])).toMatchObject({ CustomerName: 'Harbourside Design' });
    expect(await read([{ text: 'Rossi Forniture S.r.l.', x: 50, y: 60, size: 14 }, { text: 'Spett.le Bianchi SpA', x: 50, y: 200 }])).toMatchObject({ CustomerName: 'Bianchi SpA' });
  });
});
