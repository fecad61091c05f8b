/**
 * The QR code of Chinese VAT invoices (fapiao): "01,<kind>,<invoice code>,<invoice number>,<amount
 * before tax>,<date yyyymmdd>,<check code>,...". It states the invoice's number, its date and its
 * net amount, in yuan, whatever an OCR that reads no Chinese makes of the print.
 */
import type { FieldCandidate } from '../fields/field-candidate.js';
import { compactDate } from '../fields/normalize.js';
import type { PageBarcode } from '../page/barcodes.js';

const FAPIAO_PAYLOAD = /^01,(\d{2}),(\d{0,12}),(\d{8}|\d{20}),(\d+(?:\.\d{1,2})?),(\d{8}),/;

/** What a code states scores as a value a strong label names: the print's reading may still agree or add the rest. */
const STATED = 0.95;

/** The fields a fapiao's QR code states, as candidates on its page (the code's box is where they are). */
export function fapiaoCandidates(barcodes: readonly PageBarcode[]): FieldCandidate[] {
  for (const barcode of barcodes) {
    const match = barcode.format === 'QRCode' ? FAPIAO_PAYLOAD.exec(barcode.text.trim()) : null;
    if (!match) continue;
    const [, , , number = '', net = '', printedDate = ''] = match;
    const date = compactDate(printedDate);
    if (!date) continue;
    const at = (text: string) => ({ text, box: barcode.box, confidence: 1, spans: [], words: [] });
    const stated = (category: FieldCandidate['category'], text: string, contentNormalized: string): FieldCandidate => ({ category, value: at(text), contentNormalized, score: STATED, label: 1 });
    return [stated('InvoiceId', number, number), stated('InvoiceDate', printedDate, date), stated('SubTotal', net, net), stated('Currency', 'CNY', 'CNY')];
  }
  return [];
}
