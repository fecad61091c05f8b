import { describe, expect, it } from 'vitest';
import { chooseFields, type PagedCandidate } from '../../../src/models/fields/field-choice.js';
import { dateOptionsFor } from '../../../src/models/fields/normalize.js';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { receiptCandidates } from '../../../src/models/receipt/receipt-fields.js';
import { ocrReceipt, type Row } from './ocr-receipt.js';

/** The receipt's fields as the Receipts model chooses them: its label candidates, its header and checks. */
function receiptFields(rows: readonly Row[], confidence?: number) {
  const text = ocrReceipt(rows, confidence);
  const { candidates, hits } = findPageCandidates(text, { dates: dateOptionsFor(undefined), portuguese: false, itemTables: [] });
  const page = { pageNumber: 1, chunkNumber: 1 };
  const all: PagedCandidate[] = [...candidates, ...receiptCandidates(text, hits)].map((c) => ({ ...c, page }));
  const chosen = chooseFields(all);
  const field = (name: 'VendorName' | 'VendorAddress' | 'InvoiceDate' | 'InvoiceTotal') => {
    const value = chosen.get(name);
    return value && { value: value.contentNormalized, confidence: value.confidence };
  };
  return { VendorName: field('VendorName'), VendorAddress: field('VendorAddress'), InvoiceDate: field('InvoiceDate'), InvoiceTotal: field('InvoiceTotal') };
}

const HEADER: Row[] = ['KEDAI MAJU JAYA SDN BHD', '(123456-X)', 'NO. 12, JALAN BESAR,', '43000 KAJANG, SELANGOR', 'TEL: 03-8736 1234', 'TAX INVOICE'];
const ITEMS: Row[] = [
  { text: '2 x MILO', right: '7.00' },
  { text: '1 x ROTI BAKAR', right: '2.60' },
];
const PAID: Row[] = [
  { text: 'TOTAL', right: 'RM 9.60' },
  { text: 'CASH', right: 'RM 9.60' },
];

describe('the confidence of a receipt read by OCR', () => {
  it('reports the shop, its address, the date and the total at 0.9 or more when the print confirms each', () => {
    const fields = receiptFields([...HEADER, { text: 'Date: 23/03/2018', right: '14:22' }, ...ITEMS, ...PAID, 'THANK YOU']);
    expect(fields.VendorName?.value).toBe('KEDAI MAJU JAYA SDN BHD');
    expect(fields.VendorAddress?.value).toBe('NO. 12, JALAN BESAR, 43000 KAJANG, SELANGOR');
    expect(fields.InvoiceDate?.value).toBe('2018-03-23');
    expect(fields.InvoiceTotal?.value).toBe('9.60');
    for (const field of Object.values(fields)) expect(field!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps the same fields below 0.9 when nothing but their label and place says so', () => {
    // No company number or legal form, no contact line after the address, the total printed once.
    const fields = receiptFields(['KEDAI MAJU JAYA', 'NO. 12, JALAN BESAR,', '43000 KAJANG, SELANGOR', 'TAX INVOICE', 'Date: 10/03/2018', ...ITEMS, { text: 'TOTAL', right: '$9.60' }, 'THANK YOU']);
    expect(fields.VendorName?.value).toBe('KEDAI MAJU JAYA');
    expect(fields.VendorAddress?.value).toBe('NO. 12, JALAN BESAR, 43000 KAJANG, SELANGOR');
    // Dollars: the receipt may write the month first, and 10/03 reads both ways.
    expect(fields.InvoiceDate?.value).toBe('2018-03-10');
    expect(fields.InvoiceTotal?.value).toBe('9.60');
    for (const field of Object.values(fields)) expect(field!.confidence).toBeLessThan(0.9);
  });

  it('confirms a date that reads two ways only on a receipt in the currency of a country that writes the day first', () => {
    const dated = (date: string, paid: Row[] = PAID) => receiptFields([...HEADER, { text: `Date: ${date}`, right: '14:22' }, ...ITEMS, ...paid]).InvoiceDate!;
    expect(dated('10/03/2018').value).toBe('2018-03-10');
    expect(dated('10/03/2018').confidence).toBeGreaterThanOrEqual(0.9);
    const inDollars = PAID.map((row) => (typeof row === 'string' ? row : { ...row, right: row.right!.replace('RM ', '$') }));
    expect(dated('10/03/2018', inDollars).confidence).toBeLessThan(0.9);
    expect(dated('23/03/2018', inDollars).confidence).toBeGreaterThanOrEqual(0.9);
    // A two-digit year may come first ("18-03-23"): no form to confirm.
    expect(dated('23-03-18')).toMatchObject({ value: '2018-03-23' });
    expect(dated('23-03-18').confidence).toBeLessThan(0.9);
  });

  it('does not confirm a date beside another date, nor one without a label or the time of the sale', () => {
    const withValidity = receiptFields([...HEADER, { text: 'Date: 23/03/2018', right: '14:22' }, ...ITEMS, ...PAID, 'VOUCHER VALID UNTIL 30/04/2018']);
    expect(withValidity.InvoiceDate?.value).toBe('2018-03-23');
    expect(withValidity.InvoiceDate!.confidence).toBeLessThan(0.9);
    const bare = receiptFields([...HEADER, '23/03/2018', ...ITEMS, ...PAID]);
    expect(bare.InvoiceDate?.value).toBe('2018-03-23');
    expect(bare.InvoiceDate!.confidence).toBeLessThan(0.9);
  });

  it('does not confirm a total that another amount of the receipt exceeds', () => {
    // The subtotal before the discount is larger: the total printed twice may be a part of it.
    const fields = receiptFields([...HEADER, { text: 'Date: 23/03/2018', right: '14:22' }, ...ITEMS, { text: 'SUBTOTAL', right: '12.60' }, { text: 'DISCOUNT', right: '-3.00' }, ...PAID]);
    expect(fields.InvoiceTotal?.value).toBe('9.60');
    expect(fields.InvoiceTotal!.confidence).toBeLessThan(0.9);
  });

  it('leaves a confirmed field below 0.9 when OCR was unsure of a word of it', () => {
    const unsure = HEADER.map((row, i) => (i === 0 ? { text: row as string, confidence: 0.8 } : row));
    const fields = receiptFields([...unsure, { text: 'Date: 23/03/2018', right: '14:22' }, ...ITEMS, ...PAID]);
    expect(fields.VendorName?.value).toBe('KEDAI MAJU JAYA SDN BHD');
    expect(fields.VendorName!.confidence).toBeLessThan(0.9);
    expect(fields.InvoiceTotal!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe('confirming candidates', () => {
  it('never offer a value of their own: one that differs from the chosen value changes neither the value nor its confidence', () => {
    const text = ocrReceipt(['TOTAL 9.60']);
    const page = { pageNumber: 1, chunkNumber: 1 };
    const [line] = text.lines;
    const total: PagedCandidate = { category: 'InvoiceTotal', value: line!, contentNormalized: '9.60', score: 0.8, label: 1, page };
    const alone = chooseFields([total]).get('InvoiceTotal')!;
    const other = chooseFields([total, { ...total, contentNormalized: '19.60', score: 0.97, confirms: true }]).get('InvoiceTotal')!;
    expect(other).toEqual(alone);
    expect(alone.confidence).toBeLessThan(0.9);
    const same = chooseFields([total, { ...total, contentNormalized: '9.6', score: 0.97, confirms: true }]).get('InvoiceTotal')!;
    expect(same.contentNormalized).toBe('9.60');
    expect(same.confidence).toBeGreaterThanOrEqual(0.9);
    // Alone, a confirmation is no candidate.
    expect(chooseFields([{ ...total, score: 0.97, confirms: true }]).has('InvoiceTotal')).toBe(false);
  });
});
