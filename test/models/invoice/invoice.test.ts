import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesPortugalModel, invoicesUniversalModel, receiptsModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, renderPage, scannedLook, textPdf, valueOf, writeFixture, type Placed } from '../document-fixtures.js';

/** The normalised value of every field found, by category. */
const ITEMS = [
  ['Description', 'Qty', 'Unit price', 'Amount'],
  ['Consulting services', '10', '100.00', '1,000.00'],
  ['Travel expenses', '2', '125.00', '250.00'],
];

/** An English invoice in points: vendor at the top, parties, dates, items, totals, bank details. */
function universalInvoice(): Placed[] {
  return [
    { text: 'Northwind Supplies Ltd', x: 50, y: 60, size: 16 },
    { text: '12 Harbour Road, Bristol', x: 50, y: 78 },
    { text: 'VAT No: GB123456789', x: 50, y: 92 },
    { text: 'INVOICE', x: 450, y: 60, size: 16 },
    { text: 'Invoice No: INV-2024-0117', x: 330, y: 100 },
    { text: 'Invoice date: January 15, 2024', x: 330, y: 116 },
    { text: 'Due date: 14/02/2024', x: 330, y: 132 },
    { text: 'Bill to:', x: 50, y: 130 },
    { text: 'Contoso Trading GmbH', x: 50, y: 144 },
    ...ITEMS.flatMap((row, r) => row.map((text, c) => ({ text, x: [50, 300, 380, 480][c]!, y: 220 + 18 * r }))),
    { text: 'Subtotal', x: 380, y: 300 },
    { text: '1,250.00', x: 480, y: 300 },
    { text: 'VAT 23%', x: 380, y: 316 },
    { text: '287.50', x: 480, y: 316 },
    { text: 'Total due', x: 380, y: 332 },
    { text: '1,537.50 EUR', x: 480, y: 332 },
    { text: 'IBAN: GB82 WEST 1234 5698 7654 32', x: 50, y: 400 },
  ];
}

// The fiscal QR code of a Portuguese invoice (Portaria 195/2020), as certified software prints it.
const ATCUD = 'A:501964843*B:999999990*C:PT*D:FT*E:N*F:20240115*G:FT A/17*H:JJ3PN4QK-17*I1:PT*I7:1250.00*I8:287.50*N:287.50*O:1537.50*Q:xY3z*R:1234';

function portugueseInvoice(): Placed[] {
  return [
    { text: 'Papelaria Central, Lda', x: 50, y: 60, size: 16 },
    { text: 'NIF: 501964843', x: 50, y: 78 },
    { text: 'Fatura n.º FT A/17', x: 330, y: 100 },
    { text: 'Data de emissão: 15-01-2024', x: 330, y: 116 },
    { text: 'Cliente: Maria Lopes', x: 50, y: 130 },
    { text: 'NIF: 999999990', x: 50, y: 144 },
    { text: 'Total a pagar: 1.537,50 €', x: 330, y: 332 },
    { text: 'ATCUD: JJ3PN4QK-17', x: 50, y: 332 },
  ];
}

describe('invoice models', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  describe('InvoicesUniversal on a text PDF', () => {
    let entities: Entity[];

    beforeAll(async () => {
      const pdf = await writeFixture(file('invoice.pdf'), await textPdf([universalInvoice()]));
      entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
    });

    it('finds every typed field, normalised', () => {
      expect(fields(entities)).toEqual({
        VendorName: 'Northwind Supplies Ltd',
        VendorTaxId: 'GB123456789',
        InvoiceId: 'INV-2024-0117',
        InvoiceDate: '2024-01-15',
        DueDate: '2024-02-14',
        CustomerName: 'Contoso Trading GmbH',
        SubTotal: '1250.00',
        TotalTax: '287.50',
        InvoiceTotal: '1537.50',
        Currency: 'EUR',
        IBAN: 'GB82WEST12345698765432',
      });
      // The one typed field it does not print has its slot, for a reviewer to fill in.
      expect(entities.filter((e) => e.notDetected).map((e) => e.category)).toEqual(['CustomerTaxId']);
    });

    it('locates each field where it is printed', () => {
      const total = valueOf(entities, 'InvoiceTotal')!;
      expect(total).toMatchObject({ content: '1,537.50 EUR', categoryNormalized: 'InvoiceTotal', pageNumber: 1 });
      expect(total.boundingBox.left).toBeCloseTo(480, 0);
      expect(total.boundingBox.top).toBeLessThan(332);
      expect(total.boundingBox.bottom).toBeGreaterThan(332);
      // The date is the date, not its label.
      expect(valueOf(entities, 'InvoiceDate')!.content).toBe('January 15, 2024');
      expect(valueOf(entities, 'InvoiceDate')!.boundingBox.left).toBeGreaterThan(380);
    });

    it('reads the item table as LineItems with named columns', () => {
      const items = entities.find((e) => e.category === 'LineItems')!.table!;
      expect(items.tableHeaders.map((h) => h.categoryNormalized)).toEqual(['Description', 'Quantity', 'UnitPrice', 'Amount']);
      expect(items.tableRows['2']!.map((c) => c.contentNormalized)).toEqual(['Travel expenses', '2', '125.00', '250.00']);
    });

    it('keeps the layout entities beside the fields', () => {
      expect(entities.some((e) => e.type === 'Line' && e.keyValues[0]!.content === 'Northwind Supplies Ltd')).toBe(true);
      expect(entities.some((e) => e.type === 'Paragraph')).toBe(true);
    });
  });

  it('reads id, date and total from a turned, noisy scan', async () => {
    const page = await renderPage([
      { text: 'Northwind Supplies Ltd', x: 150, y: 180, size: 60 },
      { text: 'Invoice No: INV-2024-0117', x: 1300, y: 300 },
      { text: 'Invoice date: 15/01/2024', x: 1300, y: 380 },
      ...ITEMS.flatMap((row, r) => row.map((text, c) => ({ text, x: [150, 1000, 1300, 1800][c]!, y: 600 + 80 * r }))),
      { text: 'Total due: 1,537.50 EUR', x: 1300, y: 1000 },
    ]);
    const image = await writeFixture(file('invoice-scan.png'), await scannedLook(page));
    const entities = await firstPageEntities(invoicesUniversalModel, image, 'image');
    expect(fields(entities)).toMatchObject({ InvoiceId: 'INV-2024-0117', InvoiceDate: '2024-01-15', InvoiceTotal: '1537.50', Currency: 'EUR' });
    expect(valueOf(entities, 'InvoiceTotal')!.confidence).toBeGreaterThan(0.7);
    // Pixels of the scan: the total is in the right half of a 2480 px page.
    expect(valueOf(entities, 'InvoiceTotal')!.boundingBox.left).toBeGreaterThan(1300);
  });

  it('marks the fields it expected and did not find', async () => {
    const pdf = await writeFixture(file('memo.pdf'), await textPdf([[{ text: 'Northwind Supplies Ltd', x: 50, y: 60 }, { text: 'A note without amounts.', x: 50, y: 100 }]]));
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
    // Every typed field an invoice has, but the vendor's address (read for receipts only): a slot for each the page lacks.
    expect(entities.filter((e) => e.notDetected).map((e) => e.category)).toEqual([
      'InvoiceId',
      'InvoiceDate',
      'DueDate',
      'VendorTaxId',
      'CustomerName',
      'CustomerTaxId',
      'SubTotal',
      'TotalTax',
      'InvoiceTotal',
      'Currency',
      'IBAN',
    ]);
  });

  describe('InvoicesPortugal', () => {
    let qr: Buffer;

    beforeAll(async () => {
      qr = await QRCode.toBuffer(ATCUD, { type: 'png', scale: 4, margin: 2, errorCorrectionLevel: 'M' });
    });

    it('decodes the fiscal QR code into named fields and confirms the printed ones with it', async () => {
      const pdf = await writeFixture(file('fatura.pdf'), await textPdf([portugueseInvoice()], [{ page: 1, png: qr, x: 420, y: 420, size: 120 }]));
      const entities = await firstPageEntities(invoicesPortugalModel, pdf, 'pdf', { language: 'pt-PT' });
      const code = entities.find((e) => e.type === 'QrCode')!.qrCode!;
      expect(code.qrCodeContent).toBe(ATCUD);
      expect(Object.fromEntries(code.keyValues.map((kv) => [kv.categoryNormalized, kv.contentNormalized]))).toMatchObject({
        IssuerTaxId: '501964843',
        BuyerTaxId: '999999990',
        BuyerCountry: 'PT',
        DocumentType: 'FT',
        DocumentStatus: 'N',
        DocumentDate: '2024-01-15',
        DocumentId: 'FT A/17',
        Atcud: 'JJ3PN4QK-17',
        TaxCountryRegion: 'PT',
        NormalRateTaxableBase: '1250.00',
        NormalRateVat: '287.50',
        TotalTaxes: '287.50',
        GrossTotal: '1537.50',
        HashCharacters: 'xY3z',
        CertificateNumber: '1234',
      });
      expect(code.keyValues.map((kv) => kv.category)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I1', 'I7', 'I8', 'N', 'O', 'Q', 'R']);
      expect(fields(entities)).toMatchObject({
        VendorName: 'Papelaria Central, Lda',
        VendorTaxId: '501964843',
        CustomerName: 'Maria Lopes',
        CustomerTaxId: '999999990',
        InvoiceId: 'FT A/17',
        InvoiceDate: '2024-01-15',
        InvoiceTotal: '1537.50',
        TotalTax: '287.50',
        Currency: 'EUR',
      });
      // Printed and confirmed by the code: located in the text, certain.
      expect(valueOf(entities, 'InvoiceTotal')).toMatchObject({ content: '1.537,50 €', confidence: 1 });
      // Stated only by the code: located at the code.
      expect(valueOf(entities, 'TotalTax')!.boundingBox).toEqual(code.boundingBox);
    });

    it('refuses a tax number whose check digit is wrong', async () => {
      const pdf = await writeFixture(
        file('fatura-bad-nif.pdf'),
        await textPdf([[{ text: 'Papelaria Central, Lda', x: 50, y: 60 }, { text: 'NIF: 501964844', x: 50, y: 80 }, { text: 'Total: 10,00 €', x: 50, y: 100 }]]),
      );
      const entities = await firstPageEntities(invoicesPortugalModel, pdf, 'pdf');
      expect(fields(entities)).toEqual({ VendorName: 'Papelaria Central, Lda', InvoiceTotal: '10.00', Currency: 'EUR' });
      expect(entities.find((e) => e.category === 'VendorTaxId')?.notDetected).toBe(true);
    });
  });

  it('Receipts: shop, date and total of a till receipt scan', async () => {
    const receipt = await renderPage(
      [
        { text: 'CAFE CENTRAL', x: 200, y: 150, size: 56, font: 'mono' },
        { text: 'Rua Augusta 10, Lisboa', x: 200, y: 230, font: 'mono' },
        { text: 'Date: 15.01.2024 12:41', x: 200, y: 330, font: 'mono' },
        { text: '2 x Espresso      3.00', x: 200, y: 430, font: 'mono' },
        { text: '1 x Croissant     2.50', x: 200, y: 500, font: 'mono' },
        { text: 'TOTAL EUR         5.50', x: 200, y: 600, font: 'mono' },
      ],
      { width: 1200, height: 800 },
    );
    const image = await writeFixture(file('receipt.png'), await scannedLook(receipt, { degrees: 1 }));
    const entities = await firstPageEntities(receiptsModel, image, 'image');
    expect(fields(entities)).toMatchObject({ VendorName: 'CAFE CENTRAL', InvoiceDate: '2024-01-15', InvoiceTotal: '5.50', Currency: 'EUR' });
    expect(entities.find((e) => e.category === 'InvoiceTotal')!.groupName).toBe('ReceiptFields');
  });
});
