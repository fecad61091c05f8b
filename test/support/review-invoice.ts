/**
 * A realistic one-page invoice for the reviewer page's tests, benchmark and screenshot: a PDF
 * drawn by pdf-lib (seller, buyer, dates, an item table, totals, bank details) and read by the
 * invoice model as the detect stage reads it. Made once per process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { invoicesUniversalModel } from '../../src/models/invoice/invoice.js';
import { documentResult, modelInput, textPdf, type Placed } from '../models/document-fixtures.js';

const ITEMS = [
  ['Description', 'Qty', 'Unit price', 'Amount'],
  ['Website maintenance (March)', '12', '85.00', '1,020.00'],
  ['Hosting, business plan', '1', '240.00', '240.00'],
  ['Domain renewal', '2', '15.00', '30.00'],
];

/** The invoice as printed, in points from the top-left. */
export function invoicePlacements(): Placed[] {
  return [
    { text: 'Harbour Web Studio Ltd', x: 50, y: 60, size: 16 },
    { text: '12 Quay Street, Bristol BS1 4DJ', x: 50, y: 78 },
    { text: 'VAT No: GB123456789', x: 50, y: 92 },
    { text: 'INVOICE', x: 450, y: 60, size: 16 },
    { text: 'Invoice No: HWS-2026-0311', x: 330, y: 100 },
    { text: 'Invoice date: 11/03/2026', x: 330, y: 116 },
    { text: 'Due date: 10/04/2026', x: 330, y: 132 },
    { text: 'Bill to:', x: 50, y: 130 },
    { text: 'Contoso Trading GmbH', x: 50, y: 144 },
    { text: 'Hafenstrasse 5, 20457 Hamburg', x: 50, y: 158 },
    ...ITEMS.flatMap((row, r) => row.map((text, c) => ({ text, x: [50, 300, 380, 480][c]!, y: 220 + 18 * r }))),
    { text: 'Subtotal', x: 380, y: 310 },
    { text: '1,290.00', x: 480, y: 310 },
    { text: 'VAT 20%', x: 380, y: 326 },
    { text: '258.00', x: 480, y: 326 },
    { text: 'Total due', x: 380, y: 342 },
    { text: '1,548.00 EUR', x: 480, y: 342 },
    { text: 'Payment within 30 days by bank transfer.', x: 50, y: 400 },
    { text: 'IBAN: GB82 WEST 1234 5698 7654 32', x: 50, y: 416 },
  ];
}

export type InvoiceDetection = { pdf: Buffer; chunks: ReturnType<typeof documentResult>['chunks'] };

let made: Promise<InvoiceDetection> | undefined;

/** The invoice's PDF and the chunks the invoice model detects in it. */
export function reviewInvoice(): Promise<InvoiceDetection> {
  made ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'review-invoice-'));
    try {
      const pdf = Buffer.from(await textPdf([invoicePlacements()]));
      const file = path.join(dir, 'invoice.pdf');
      await writeFile(file, pdf);
      const { chunks } = documentResult(await invoicesUniversalModel(await modelInput(file, 'pdf', [1])));
      return { pdf, chunks };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return made;
}
