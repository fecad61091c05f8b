import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../src/models/invoice.js';
import { layoutModel } from '../../src/models/layout.js';
import { useScratchDir } from '../engines/fixtures.js';
import { entitiesOf, fields, modelInput, renderPage, scannedLook, textPdf, writeFixture, type Placed } from './document-fixtures.js';

/** An invoice as a 300 dpi scan of A4 shows it, in pixels. */
const SCANNED_INVOICE: Placed[] = [
  { text: 'Northwind Supplies Ltd', x: 200, y: 250, size: 70 },
  { text: 'Invoice No: INV-2024-0117', x: 200, y: 450 },
  { text: 'Invoice date: 15/01/2024', x: 200, y: 530 },
  { text: 'Subtotal: 1,250.00 EUR', x: 1300, y: 900 },
  { text: 'VAT 23%: 287.50 EUR', x: 1300, y: 980 },
  { text: 'Total due: 1,537.50 EUR', x: 1300, y: 1060 },
];

describe('OCR input', () => {
  const scratch = useScratchDir();

  it('enlarges a small, low-resolution image before reading it', async () => {
    // About 70 dpi: text 11 pixels high, which tesseract misreads at its own size.
    const small = SCANNED_INVOICE.map((p) => ({ ...p, x: Math.round(p.x / 4.3), y: Math.round(p.y / 4.3), size: Math.round((p.size ?? 46) / 4.3) }));
    const image = await writeFixture(scratch.file('small.png'), await renderPage(small, { width: 577, height: 400 }));
    const found = fields(entitiesOf(await invoicesUniversalModel(await modelInput(image, 'image', [1]))));
    expect(found).toMatchObject({ InvoiceId: 'INV-2024-0117', InvoiceDate: '2024-01-15', SubTotal: '1250.00', TotalTax: '287.50', InvoiceTotal: '1537.50' });
  });

  it('reads labels and amounts joined by dot leaders on a scan', async () => {
    // Tesseract reads a row of dots as words glued to the label before it: label and amount are lost.
    const leader = (label: string, amount: string) => `${label}${'.'.repeat(44 - label.length - amount.length)}${amount}`;
    const page = await renderPage(
      [
        { text: 'Northwind Supplies Ltd', x: 200, y: 250, size: 70 },
        { text: leader('Invoice number', 'INV-2024-0117'), x: 200, y: 450, font: 'mono' },
        { text: leader('Invoice date', '15/01/2024'), x: 200, y: 530, font: 'mono' },
        { text: leader('Subtotal', '1,250.00 EUR'), x: 900, y: 900, font: 'mono' },
        { text: leader('VAT 23%', '287.50 EUR'), x: 900, y: 980, font: 'mono' },
        { text: leader('Total', '1,537.50 EUR'), x: 900, y: 1060, font: 'mono' },
      ],
      { width: 2480, height: 1300 },
    );
    const image = await writeFixture(scratch.file('leaders.png'), await scannedLook(page, { degrees: 0.5, noise: 60 }));
    const found = fields(entitiesOf(await invoicesUniversalModel(await modelInput(image, 'image', [1]))));
    expect(found).toMatchObject({ InvoiceId: 'INV-2024-0117', InvoiceDate: '2024-01-15', SubTotal: '1250.00', TotalTax: '287.50', InvoiceTotal: '1537.50' });
  });

  it('reads the cells of ruled tables on a scan', async () => {
    // Tesseract takes a ruled table for a picture and leaves its cells out.
    const cells: Placed[] = [
      { text: 'Invoice No.', x: 220, y: 560, font: 'mono' },
      { text: 'Invoice Date', x: 720, y: 560, font: 'mono' },
      { text: '2023/349', x: 220, y: 660, font: 'mono' },
      { text: '4 April 2023', x: 720, y: 660, font: 'mono' },
      { text: 'Total before tax:', x: 1320, y: 1060, font: 'mono' },
      { text: '3,340.10', x: 1950, y: 1060, font: 'mono' },
      { text: 'Total VAT:', x: 1320, y: 1160, font: 'mono' },
      { text: '668.02', x: 1950, y: 1160, font: 'mono' },
      { text: 'Total:', x: 1320, y: 1260, font: 'mono' },
      { text: '4,008.12', x: 1950, y: 1260, font: 'mono' },
    ];
    const text = await renderPage([{ text: 'Blue Harbor Foods Ltd', x: 200, y: 250, size: 70 }, ...cells], { width: 2480, height: 1500 });
    // Cell borders: a 2 x 2 grid around the id and date, a 3 x 2 grid around the totals.
    const grid = (left: number, top: number, columns: number[], rows: number) =>
      `<rect x="${left}" y="${top}" width="${columns.reduce((a, b) => a + b)}" height="${rows * 100}" fill="none" stroke="#000" stroke-width="4"/>` +
      columns.slice(0, -1).map((_, i) => { const x = left + columns.slice(0, i + 1).reduce((a, b) => a + b); return `<line x1="${x}" y1="${top}" x2="${x}" y2="${top + rows * 100}" stroke="#000" stroke-width="4"/>`; }).join('') +
      Array.from({ length: rows - 1 }, (_, r) => `<line x1="${left}" y1="${top + (r + 1) * 100}" x2="${left + columns.reduce((a, b) => a + b)}" y2="${top + (r + 1) * 100}" stroke="#000" stroke-width="4"/>`).join('');
    const rules = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="1500">${grid(180, 490, [500, 500], 2)}${grid(1280, 990, [600, 450], 3)}</svg>`);
    const page = await sharp(text).composite([{ input: rules }]).png().toBuffer();
    const image = await writeFixture(scratch.file('ruled.png'), await scannedLook(page, { degrees: 0.8, noise: 60 }));
    const found = fields(entitiesOf(await invoicesUniversalModel(await modelInput(image, 'image', [1]))));
    expect(found).toMatchObject({ InvoiceId: '2023/349', InvoiceDate: '2023-04-04', SubTotal: '3340.10', TotalTax: '668.02', InvoiceTotal: '4008.12' });
  });

  it('OCRs a scanned page whose only text layer is a stamped word', async () => {
    const scan = await renderPage(SCANNED_INVOICE, { width: 2480, height: 3508 });
    const pdf = await writeFixture(
      scratch.file('stamped-scan.pdf'),
      await textPdf([[{ text: 'PAID', x: 480, y: 60, size: 18 }]], [{ page: 1, png: scan, x: 0, y: 0, size: 595.28, height: 841.89 }]),
    );
    const found = fields(entitiesOf(await invoicesUniversalModel(await modelInput(pdf, 'pdf', [1]))));
    expect(found).toMatchObject({ VendorName: 'Northwind Supplies Ltd', InvoiceId: 'INV-2024-0117', InvoiceTotal: '1537.50' });
  });

  it('reads the text inside images on a text page: a letterhead with the vendor and its IBAN', async () => {
    const letterhead = await renderPage(
      [
        { text: 'Kestrel Logistics B.V.', x: 40, y: 90, size: 64 },
        { text: 'Keizersgracht 128, 1015 CX Amsterdam', x: 40, y: 170 },
        { text: 'IBAN NL91 ABNA 0417 1643 00', x: 40, y: 240 },
      ],
      { width: 1400, height: 290 },
    );
    const pdf = await writeFixture(
      scratch.file('letterhead.pdf'),
      await textPdf(
        [
          [
            { text: 'Invoice No: 2024/17', x: 350, y: 140 },
            { text: 'Date: 15/01/2024', x: 350, y: 156 },
            { text: 'Total due: 1,210.00 EUR', x: 350, y: 300 },
          ],
        ],
        [{ page: 1, png: letterhead, x: 40, y: 30, size: 336, height: 69.6 }],
      ),
    );
    const found = fields(entitiesOf(await invoicesUniversalModel(await modelInput(pdf, 'pdf', [1]))));
    expect(found).toMatchObject({ VendorName: 'Kestrel Logistics B.V.', IBAN: 'NL91ABNA0417164300', InvoiceId: '2024/17', InvoiceTotal: '1210.00' });
    // The layout model shows those words as lines too.
    const lines = entitiesOf(await layoutModel(await modelInput(pdf, 'pdf', [1])), 'Line').map((e) => e.keyValues[0]!.content);
    expect(lines).toContain('IBAN NL91 ABNA 0417 1643 00');
  });
});
