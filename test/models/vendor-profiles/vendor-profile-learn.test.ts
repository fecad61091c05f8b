import { describe, expect, it } from 'vitest';
import type { InvoiceField } from '../../../src/models/fields/invoice-field-names.js';
import { learnField, type ReviewedField, type ReviewedPage } from '../../../src/models/vendor-profiles/vendor-profile-learn.js';
import { findValue, type ProfileLine } from '../../../src/models/vendor-profiles/vendor-profile-text.js';

/** Characters are 5 points wide and lines 10 high: a line is its words placed at their x. */
const CHAR = 5;
let offset = 0;
function line(y: number, ...segments: Array<[x: number, text: string]>): ProfileLine {
  const words: ProfileLine['words'][number][] = [];
  const base = offset;
  let text = '';
  for (const [x, segment] of segments) {
    segment.split(' ').forEach((word, i) => {
      if (text) text += ' ';
      words.push({ text: word, box: { left: x + (segment.split(' ').slice(0, i).join(' ').length + (i ? 1 : 0)) * CHAR, top: y, width: word.length * CHAR, height: 10 }, span: { offset: base + text.length, length: word.length }, confidence: 1 });
      text += word;
    });
  }
  offset += text.length + 1;
  const left = Math.min(...words.map((w) => w.box.left));
  const right = Math.max(...words.map((w) => w.box.left + w.box.width));
  return { text, box: { left, top: y, width: right - left, height: 10 }, spans: [{ offset: base, length: text.length }], words };
}

/**
 * The foot of a French invoice (as the FNFE's Factur-X examples print it): the item table's
 * discount lines ("5,00% sur 100,00 EUR"), then the totals as a header row over their values, the
 * values printed on the line of a payment-terms sentence; then what is left to pay.
 */
function invoiceFoot(): ReviewedPage {
  offset = 0;
  const lines = [
    line(100, [20, 'FACTURE N° : F20260023']),
    line(300, [40, 'REMISE : REMISE COMMERCIALE'], [300, '5,00% sur 100,00 EUR'], [420, '-5,00'], [470, '20,00%']),
    line(315, [40, 'CHARGE : FRAIS DEPLACEMENT'], [300, '10,00% sur 100,00 EUR'], [420, '10,00'], [470, '20,00%']),
    line(400, [300, 'TOTAL HT'], [380, 'TOTAL TVA'], [460, 'TOTAL TTC']),
    line(415, [20, 'Les réglements reçus avant échéance ne donneront pas lieu à escompte.'], [310, '100,00'], [395, '4,90'], [470, '104,90']),
    line(440, [380, 'Montant déjà payé :'], [480, '0,00']),
    line(460, [300, 'NET A PAYER'], [470, '104,90 EUR']),
  ];
  return { chunk: 1, lines };
}

const review = { taskId: 1, learnedOn: new Date('2026-03-01T00:00:00Z'), lastChunk: 1 };
const corrected = (field: InvoiceField, content: string, contentNormalized: string, box: ReviewedField['box']): ReviewedField => ({ field, chunk: 1, content, contentNormalized, corrected: true, spans: [], box });

describe('learning where a value the reviewer gave without its place is printed', () => {
  it('anchors a subtotal at its own label, never in a discount line of the item table that shows the same figure', () => {
    const page = invoiceFoot();
    // The service had read the subtotal near the discount lines: the nearest occurrence is in one of them.
    const learned = learnField([page], corrected('SubTotal', '100,00', '100.00', { left: 330, top: 300, width: 30, height: 10 }), review)!;
    expect(learned.label?.text).toBe('TOTAL HT');
    const frame = { top: 100, height: 370 };
    expect(learned.region!.top * frame.height + frame.top).toBeCloseTo(415, 0);
  });

  it('anchors a total at the total, not at the amount left to pay that equals it on this invoice', () => {
    const page = invoiceFoot();
    const due = page.lines[6]!;
    const confirmed: ReviewedField = { field: 'InvoiceTotal', chunk: 1, content: '104,90 EUR', contentNormalized: '104.90', corrected: false, spans: [due.words[3]!.span], box: due.words[3]!.box };
    expect(learnField([page], confirmed, review)!.label?.text).toBe('TOTAL TTC');
  });
});

describe("a vendor's name", () => {
  it('is found where its letterhead prints it over two lines, and not where another line merely begins it', () => {
    offset = 0;
    const lines = [
      line(40, [50, 'MVM Musterhafter']),
      line(52, [50, 'Versicherungsverein Musterstadt a.G.']),
      line(120, [50, 'MVM Musterhafter']),
      line(132, [300, 'Versicherungsverein Musterstadt a.G.']),
    ];
    const name = 'MVM Musterhafter Versicherungsverein Musterstadt a.G.';
    expect(findValue(lines, 'name', name, name)).toEqual([{ line: 0, start: 0, end: 'MVM Musterhafter'.length, exact: true }]);
  });
});
