import { describe, expect, it } from 'vitest';
import { chooseFields } from '../../../src/models/fields/field-choice.js';
import type { FieldCandidate } from '../../../src/models/fields/field-candidate.js';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { dateOptionsFor } from '../../../src/models/fields/normalize.js';
import { buildPageText, type PageWord } from '../../../src/models/page/text/text-lines.js';
import { guessVendor } from '../../../src/models/fields/vendor.js';

/** A word as OCR gives it: its text, where it is (left, top, height), how sure the OCR was, its OCR line. */
interface OcrWordSpec {
  text: string;
  left: number;
  top: number;
  size: number;
  confidence?: number;
  line: string;
}

/** Words laid out left to right from `left`, one OCR line, `size` tall. */
function ocrLine(text: string, left: number, top: number, size: number, line: string, confidence = 0.95): OcrWordSpec[] {
  let x = left;
  return text.split(' ').map((word) => {
    const spec = { text: word, left: x, top, size, confidence, line };
    x += word.length * size * 0.6 + size * 0.4;
    return spec;
  });
}

function page(specs: readonly OcrWordSpec[]) {
  const words: PageWord[] = specs.map((s) => ({
    text: s.text,
    box: { left: s.left, top: s.top, width: s.text.length * s.size * 0.6, height: s.size },
    confidence: s.confidence ?? 0.95,
    ocrLine: s.line,
  }));
  return buildPageText(words);
}

function best(candidates: readonly FieldCandidate[], category: string): string | undefined {
  return candidates.filter((c) => c.category === category).sort((a, b) => b.score - a.score)[0]?.contentNormalized;
}

const read = (text: ReturnType<typeof page>) => findPageCandidates(text, { dates: dateOptionsFor(undefined), portuguese: false, itemTables: [] });

describe('fields of OCR pages', () => {
  it('reads the supplier under its label, not the customer across the page under "Bill To", past a speck of the scan', () => {
    const text = page([
      ...ocrLine('Supplier', 130, 240, 22, '1.1.1'),
      ...ocrLine('Bill To', 1230, 240, 20, '1.1.1'),
      // A speck, on the line of the customer's name.
      { text: '4', left: 165, top: 272, size: 7, confidence: 0.67, line: '1.2.1' },
      ...ocrLine('Pieter Kumar', 1230, 268, 20, '1.2.1'),
      ...ocrLine('Pioneer Systems S.L.', 130, 275, 34, '1.2.2'),
      ...ocrLine('Calle Mayor 4', 130, 330, 22, '1.3.1'),
      ...ocrLine('18771 Valencia', 130, 360, 22, '1.3.2'),
    ]);
    const { candidates } = read(text);
    expect(best(candidates, 'VendorName')).toBe('Pioneer Systems S.L.');
    expect(best(candidates, 'CustomerName')).toBe('Pieter Kumar');
  });

  it('leaves a name not detected when OCR read it with next to no confidence', () => {
    const text = page([
      ...ocrLine('Bill To', 130, 240, 20, '1.1.1'),
      { text: 'sartiodh', left: 130, top: 270, size: 20, confidence: 0.02, line: '1.2.1' },
      { text: 'Mlactdicalc', left: 240, top: 270, size: 20, confidence: 0.1, line: '1.2.1' },
      { text: 'VF.', left: 390, top: 270, size: 20, confidence: 0.6, line: '1.2.1' },
      ...ocrLine('Keizersgracht 12', 130, 300, 20, '1.3.1'),
    ]);
    const { candidates } = read(text);
    expect(best(candidates, 'CustomerName')).toBe('sartiodh Mlactdicalc VF.');
    expect(chooseFields(candidates.map((c) => ({ ...c, page: { pageNumber: 1, chunkNumber: 1 } }))).has('CustomerName')).toBe(false);
    // A mark without letters read unsurely ("S.L." read "S . L %") does not make the name unreadable.
    const marked = page([
      ...ocrLine('Bill To', 130, 240, 20, '1.1.1'),
      ...ocrLine('Harrison Electricals', 130, 270, 20, '1.2.1'),
      { text: '%', left: 400, top: 270, size: 20, confidence: 0, line: '1.2.1' },
    ]);
    const chosen = chooseFields(read(marked).candidates.map((c) => ({ ...c, page: { pageNumber: 1, chunkNumber: 1 } })));
    expect(chosen.get('CustomerName')?.contentNormalized).toMatch(/^Harrison Electricals/);
  });

  it('takes no street number beside a large title for the invoice number', () => {
    const text = page([
      ...ocrLine('Invoice', 120, 140, 55, '1.1.1'),
      ...ocrLine('BLUE HARBOR FOODS', 1110, 146, 34, '1.2.1'),
      ...ocrLine('42 Station Street', 1300, 200, 19, '1.3.1'),
      ...ocrLine('Manchester TH16 1OV', 1276, 227, 19, '1.3.2'),
    ]);
    expect(best(read(text).candidates, 'InvoiceId')).toBeUndefined();
  });

  it('reads the invoice number after "nº" that OCR read as "n2" or "N.2"', () => {
    const glued = page([...ocrLine('Factura n2 20251085', 50, 100, 10, '1.1.1')]);
    expect(best(read(glued).candidates, 'InvoiceId')).toBe('20251085');
    const apart = page([...ocrLine('N.2', 88, 323, 15, '1.1.1'), ...ocrLine('472319', 708, 322, 16, '1.1.2')]);
    expect(best(read(apart).candidates, 'InvoiceId')).toBe('472319');
  });

  it('starts a wrapped vendor name with the line above, without what OCR glued to that line', () => {
    const text = page([
      ...ocrLine('BILL', 780, 122, 29, '1.1.1'),
      ...ocrLine('JUNIPER OFFICE SOLUTIONS', 127, 190, 33, '1.2.1'),
      { text: '|', left: 600, top: 173, size: 62, confidence: 0.15, line: '1.2.1' },
      { text: '!\\v2<*', left: 630, top: 185, size: 19, confidence: 0, line: '1.2.1' },
      ...ocrLine('LLP', 133, 242, 32, '1.3.1'),
      ...ocrLine('218 Ring Road', 131, 298, 25, '1.4.1'),
      ...ocrLine('Bengaluru, Karnataka - 385727', 130, 327, 25, '1.4.2'),
      ...ocrLine('GSTIN/UIN: 33SZFQK0884W4Z8', 129, 357, 25, '1.4.3'),
      ...ocrLine('Invoice To', 130, 442, 20, '1.5.1'),
      ...ocrLine('Sharma Electricals', 129, 471, 21, '1.5.2'),
    ]);
    const { hits } = read(text);
    const customer = hits.filter((h) => h.definition.category === 'CustomerName').map((h) => h.line);
    expect(guessVendor(text, hits, customer, new Set())?.run.text).toBe('JUNIPER OFFICE SOLUTIONS LLP');
  });
});
