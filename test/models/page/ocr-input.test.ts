import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { layoutModel } from '../../../src/models/page/layout.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { entitiesOf, fields, firstPageEntities, modelInput, renderPage, scannedLook, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

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
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({ InvoiceId: 'INV-2024-0117', InvoiceDate: '2024-01-15', SubTotal: '1250.00', TotalTax: '287.50', InvoiceTotal: '1537.50' });
  });

  it('reads a photo of a ruled invoice enlarged, its table and boxed totals too (tesseract told the resolution)', async () => {
    // Text about 20 px high, so the image is enlarged for OCR; tesseract without a resolution took
    // the PNG's density tag (25 dpi) and lost everything inside the rules.
    const cell = (x: number, y: number, w: number, h: number) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="#333" stroke-width="2"/>`;
    const text = (x: number, y: number, t: string, size = 20, weight = 'normal', anchor = 'start') =>
      `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" text-anchor="${anchor}" fill="#333">${t}</text>`;
    const rows = [['Consulting services', '2', 'INR 273.10', 'INR 546.20'], ['Support retainer', '1', 'INR 507.20', 'INR 507.20'], ['Design workshop', '10', 'INR 6,663.00', 'INR 66,630.00']];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1666" height="1300"><rect width="100%" height="100%" fill="#cfcfcf"/>
      ${text(100, 120, 'JUNIPER OFFICE SOLUTIONS LLP', 34, 'bold')}${text(100, 160, '218 Ring Road, Bengaluru 385727')}
      ${cell(90, 480, 1450, 46)}${text(100, 512, 'Description', 22, 'bold')}${text(1530, 512, 'Amount', 22, 'bold', 'end')}
      ${rows.map((r, i) => `${cell(90, 526 + i * 46, 1450, 46)}${text(100, 558 + i * 46, r[0]!)}${text(780, 558 + i * 46, r[1]!, 20, 'normal', 'end')}${text(1140, 558 + i * 46, r[2]!, 20, 'normal', 'end')}${text(1530, 558 + i * 46, r[3]!, 20, 'normal', 'end')}`).join('')}
      ${[['Taxable Value', 'INR 67,683.40'], ['CGST @ 9%', 'INR 6,091.51'], ['SGST @ 9%', 'INR 6,091.51']].map((r, i) => `${cell(920, 700 + i * 44, 250, 44)}${cell(1170, 700 + i * 44, 370, 44)}${text(935, 730 + i * 44, r[0]!)}${text(1525, 730 + i * 44, r[1]!, 20, 'normal', 'end')}`).join('')}
      ${cell(920, 832, 250, 50)}${cell(1170, 832, 370, 50)}${text(935, 866, 'Grand Total', 26, 'bold')}${text(1525, 866, 'INR 79,866.42', 26, 'bold', 'end')}
    </svg>`;
    const photo = await scannedLook(await sharp(Buffer.from(svg)).png().toBuffer(), { degrees: 0.3, noise: 40 });
    const image = await writeFixture(scratch.file('ruled.jpg'), await sharp(photo).jpeg({ quality: 80 }).toBuffer());
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({ SubTotal: '67683.40', InvoiceTotal: '79866.42' });
  });

  it('reads a photo turned by 2.5 degrees level: three columns of small print side by side', async () => {
    // A 150 dpi photo of a Xero-like invoice: the customer's block, the invoice's details and the
    // vendor's block side by side. Turned, tesseract reads such columns into each other.
    const column = (x: number, y: number, lines: readonly string[]): Placed[] => lines.map((text, i) => ({ text, x, y: y + i * 22, size: 15, font: 'sans' }));
    const page = await renderPage(
      [
        { text: 'TAX INVOICE', x: 80, y: 90, size: 30, font: 'sans' },
        ...column(80, 160, ['Avon Valley Cycles Ltd', 'Attention: Marketing Dept.', 'Unit 3, Brassmill Enterprise Centre', 'Brassmill Lane', 'BATH', 'BA1 3JN']),
        ...column(470, 80, ['Invoice Date', '15 Mar 2024', '', 'Invoice Number', 'INV-0472', '', 'Reference', 'PO 2291', '', 'VAT Number', 'GB 318 2746 53']),
        ...column(800, 140, ['Harbourside Print & Design Ltd', 'Unit 6, Feeder Road Trade Park', 'BRISTOL', 'BS2 0TX', '0117 496 0832', 'accounts@harboursideprint.co.uk']),
        ...column(80, 420, ['Description', 'Brochure design - 16pp A5', 'Poster design - A2 event poster', 'Digital print - A2 posters']),
        ...column(620, 420, ['Quantity', '1.00', '1.00', '50.00']),
        ...column(760, 420, ['Unit Price', '650.00', '180.00', '3.20']),
        ...column(1000, 420, ['Amount GBP', '650.00', '180.00', '160.00']),
        ...column(760, 540, ['Subtotal', 'TOTAL VAT 20%', 'TOTAL GBP']),
        ...column(1000, 540, ['990.00', '198.00', '1,188.00']),
        ...column(80, 640, ['Due Date: 14 Apr 2024', 'Account Name: Harbourside Print & Design Ltd', 'IBAN GB06 LOYD 3094 5741 2855 30 - BIC LOYDGB21F09']),
      ],
      { width: 1240, height: 760 },
    );
    for (const degrees of [2.5, -2.5]) {
      const photo = await scannedLook(page, { degrees, noise: 50, blur: 0.6 });
      const image = await writeFixture(scratch.file(`turned${degrees}.jpg`), await sharp(photo).jpeg({ quality: 70 }).toBuffer());
      const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
      expect(found).toMatchObject({ InvoiceId: 'INV-0472', InvoiceDate: '2024-03-15', DueDate: '2024-04-14', SubTotal: '990.00', TotalTax: '198.00', InvoiceTotal: '1188.00', IBAN: 'GB06LOYD30945741285530' });
    }
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
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({ InvoiceId: 'INV-2024-0117', InvoiceDate: '2024-01-15', SubTotal: '1250.00', TotalTax: '287.50', InvoiceTotal: '1537.50' });
  });

  it('keeps the accents of names on a scan read without a language hint', async () => {
    // The English model, the default, has no accented letters: "Krüger" comes back "Kruger".
    const page = await renderPage(
      [
        { text: 'Haustechnik Krüger', x: 200, y: 250, size: 70, font: 'sans' },
        { text: 'Lindenallee 136, 53464 München', x: 200, y: 330, font: 'sans' },
        { text: 'Rechnung Nr. MPD336672', x: 200, y: 500, font: 'sans' },
        { text: 'Rechnungsdatum: 28.07.2025', x: 200, y: 580, font: 'sans' },
        { text: 'Rechnungsadresse:', x: 200, y: 740, font: 'sans' },
        { text: 'Elektro Schneider UG (haftungsbeschränkt)', x: 200, y: 820, font: 'sans' },
        { text: 'Gesamtbetrag: 1.537,50 EUR', x: 1300, y: 1100, font: 'sans' },
      ],
      { width: 2480, height: 1300 },
    );
    const image = await writeFixture(scratch.file('accents.png'), await scannedLook(page, { degrees: 0.5, noise: 40 }));
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({ VendorName: 'Haustechnik Krüger', CustomerName: 'Elektro Schneider UG (haftungsbeschränkt)', InvoiceTotal: '1537.50' });
  });

  it('OCRs a scanned page whose only text layer is a stamped word', async () => {
    const scan = await renderPage(SCANNED_INVOICE, { width: 2480, height: 3508 });
    const pdf = await writeFixture(
      scratch.file('stamped-scan.pdf'),
      await textPdf([[{ text: 'PAID', x: 480, y: 60, size: 18 }]], [{ page: 1, png: scan, x: 0, y: 0, size: 595.28, height: 841.89 }]),
    );
    const found = fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
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
    const found = fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
    expect(found).toMatchObject({ VendorName: 'Kestrel Logistics B.V.', IBAN: 'NL91ABNA0417164300', InvoiceId: '2024/17', InvoiceTotal: '1210.00' });
    // The layout model shows those words as lines too.
    const lines = entitiesOf(await layoutModel(await modelInput(pdf, 'pdf', [1])), 'Line').map((e) => e.keyValues[0]!.content);
    expect(lines).toContain('IBAN NL91 ABNA 0417 1643 00');
  });

  it('reads a strip of small print set as an image in the footer: the vendor and its IBAN, 9 points high', async () => {
    const strip = await renderPage([{ text: 'Instalaciones Navarro S.L. - IBAN ES91 2100 0418 4502 0005 1332', x: 20, y: 30, size: 34 }], { width: 1600, height: 40 });
    const pdf = await writeFixture(
      scratch.file('footer-strip.pdf'),
      await textPdf(
        [
          [
            { text: 'FACTURA', x: 50, y: 80, size: 18 },
            { text: 'Factura n.: 2025/118', x: 350, y: 140 },
            { text: 'Fecha: 15/01/2025', x: 350, y: 156 },
            { text: 'Total: 1.210,00 EUR', x: 350, y: 300 },
          ],
        ],
        [{ page: 1, png: strip, x: 40, y: 800, size: 360, height: 9 }],
      ),
    );
    const found = fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
    expect(found).toMatchObject({ VendorName: 'Instalaciones Navarro S.L.', IBAN: 'ES9121000418450200051332', InvoiceId: '2025/118' });
  });
});
