import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { confidenceFromEvidence, evidenceFor, SINGLE_EVIDENCE_CAP } from '../../../src/models/fields/confidence-evidence.js';
import type { FieldCandidate } from '../../../src/models/fields/field-candidate.js';
import { nationalNumberOf, vatCheckDigits } from '../../../src/models/fields/vat-check-digits.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


function confidence(entities: readonly Entity[], category: string): number | undefined {
  return entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)?.confidence;
}

describe('VAT ids\' check digits and the company number they hold', () => {
  it('passes published VAT ids of each country whose rule is known and fails them with a digit changed', () => {
    const valid = ['DE136695976', 'FR40303265045', 'IT00743110157', 'BE0428759497', 'DK13585628', 'LU15027442', 'NL004495445B01', 'GB980780684', 'ATU13585627', 'PL5260250274', 'FI20774740', 'SE556188840401', 'NO974760673MVA', 'PT501964843', 'HR33392005961'];
    for (const id of valid) {
      expect(vatCheckDigits(id), id).toBe(true);
      // Its first digit changed by one: every rule catches a single wrong digit.
      const first = id.search(/\d/);
      const changed = `${id.slice(0, first)}${(Number(id[first]) + 1) % 10}${id.slice(first + 1)}`;
      expect(vatCheckDigits(changed), changed).toBe(false);
    }
    // A placeholder fails; a wrong length for its country fails; countries without a known rule say nothing.
    expect(vatCheckDigits('DE123456789')).toBe(false);
    expect(vatCheckDigits('DE12435679')).toBe(false);
    expect(vatCheckDigits('CHE123456789')).toBeUndefined();
    expect(vatCheckDigits('123456789')).toBeUndefined();
  });

  it('reads the company number a VAT id holds where its country puts one there', () => {
    expect(nationalNumberOf('FR 11 123 456 782')).toBe('123456782');
    expect(nationalNumberOf('BE0428759497')).toBe('0428759497');
    expect(nationalNumberOf('SE556188840401')).toBe('5561888404');
    expect(nationalNumberOf('DE136695976')).toBeUndefined();
  });
});

describe('the confidence rule', () => {
  it('raises a text layer\'s value that two kinds of evidence agree on, caps one kind alone, and caps a contradiction whatever agrees', () => {
    const textLayer = 1;
    expect(confidenceFromEvidence(0.7, { agreeing: ['read', 'term label'] }, textLayer)).toBeGreaterThanOrEqual(0.9);
    expect(confidenceFromEvidence(0.7, { agreeing: ['read', 'term label', 'found again'] }, textLayer)).toBeGreaterThan(confidenceFromEvidence(0.7, { agreeing: ['read', 'term label'] }, textLayer));
    expect(confidenceFromEvidence(0.99, { agreeing: ['read'] }, textLayer)).toBe(SINGLE_EVIDENCE_CAP);
    expect(confidenceFromEvidence(0.99, { agreeing: ['read', 'term label', 'check', 'check'], against: 'other company number' }, textLayer)).toBeLessThan(0.9);
    // A guess (no reading of the field by its label or place) is not made sure by what else agrees.
    expect(confidenceFromEvidence(0.4, { agreeing: ['term label', 'found again'] }, textLayer)).toBeLessThan(0.9);
    // OCR's characters keep the confidence their reading gives them, unless OCR was sure of each word and read the value twice.
    expect(confidenceFromEvidence(0.8, { agreeing: ['read', 'term label'] }, 0.97)).toBe(0.8);
    expect(confidenceFromEvidence(0.8, { agreeing: ['read', 'found again'] }, 0.97)).toBeGreaterThanOrEqual(0.9);
    expect(confidenceFromEvidence(0.8, { agreeing: ['read', 'found again'] }, 0.7)).toBe(0.8);
  });
});

describe('the evidence for a chosen value', () => {
  /** A candidate of a text layer, as the page's label reading gives it. */
  const candidate = (category: FieldCandidate['category'], printed: string, contentNormalized: string, offset: number): FieldCandidate => ({
    category,
    value: { text: printed, box: { left: 0, top: 0, width: 1, height: 1 }, confidence: 1, spans: [{ offset, length: printed.length }], words: [] },
    contentNormalized,
    score: 0.95,
    label: 1,
  });

  it('counts against an invoice number that holds another label, and against an identifier the reader put right', () => {
    const atcud = candidate('InvoiceId', 'ATCUD:JF8346GM-21509', 'ATCUD:JF8346GM-21509', 40);
    expect(evidenceFor('InvoiceId', atcud, 'none', [atcud]).against).toBe('holds a label');
    const number = candidate('InvoiceId', 'FT 18A2401/21509', 'FT 18A2401/21509', 40);
    expect(evidenceFor('InvoiceId', number, 'none', [number])).toEqual({ agreeing: ['read', 'term label'], against: undefined });
    // "GB82 WE5T ..." read as GB82WEST...: its check digits pass because the reader made them.
    const repaired = candidate('IBAN', 'GB82 WE5T 1234 5698 7654 32', 'GB82WEST12345698765432', 90);
    expect(evidenceFor('IBAN', repaired, 'pass', [repaired]).against).toBe('characters put right');
  });

  it('keeps a currency the sign leaves open below 0.9, however often the sign is printed', () => {
    const dollar = candidate('Currency', '$', 'USD', 120);
    const again = { ...candidate('CurrencyMention', '$', 'USD', 400), label: 0 };
    const evidence = evidenceFor('Currency', dollar, 'ambiguous', [dollar, again]);
    expect(evidence.against).toBe('ambiguous');
    expect(confidenceFromEvidence(0.99, evidence, 1)).toBeLessThan(0.9);
  });

  it('does not count the same value printed two ways as a rival, nor the same label again as a second finding', () => {
    const id = candidate('InvoiceId', 'E2018092011804', 'E2018092011804', 300);
    const plain = { ...candidate('InvoiceId', '2018092011804', '2018092011804', 900) };
    expect(evidenceFor('InvoiceId', id, 'none', [id, plain]).against).toBeUndefined();
    const other = candidate('InvoiceId', '2018092011805', '2018092011805', 900);
    expect(evidenceFor('InvoiceId', id, 'none', [id, other]).against).toBe('rival value');
    // The same header on the second page: the same statement, not a second finding.
    const hit = { definition: { category: 'InvoiceId' as const, source: 'rechnungsnummer', strength: 1 }, line: id.value as never, start: 0, labelEnd: 0, valueStart: 0 };
    const first = { ...id, hit };
    const again = { ...id, hit, value: { ...id.value, spans: [{ offset: 1300, length: 14 }] } };
    expect(evidenceFor('InvoiceId', first, 'none', [first, again]).agreeing).not.toContain('found again');
    const unlabelled = { ...again, hit: undefined, label: 0 };
    expect(evidenceFor('InvoiceId', first, 'none', [first, unlabelled]).agreeing).toContain('found again');
  });
});

/** Invoices as text PDFs, read by the whole invoice model: the evidence on real-shaped pages. */
describe('confidence from the evidence of an invoice\'s page', () => {
  const scratch = useScratchDir();
  let count = 0;
  const entities = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`evidence-${++count}.pdf`), await textPdf([page]));
    return await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };

  /** A French invoice: the seller's block with its RCS number (its SIREN) and its VAT id, the client's beside it. */
  const french = (vatId: string, due = "Date d'échéance : 02/03/2026") =>
    rows(
      [['FOURNISSEUR F SARL', 50], ['Facture F20260023', 350]],
      [['35 rue des Lilas', 50], ['Date : 31/01/2026', 350]],
      [['75011 Paris', 50]],
      [['RCS PARIS 123 456 782', 50]],
      [[`N° TVA : ${vatId}`, 50]],
      [['Adresse du client', 350]],
      [['LE CLIENT SAS', 350]],
      [['Total HT', 300], ['100,00 €', 450]],
      [['TVA 4,9 %', 300], ['4,90 €', 450]],
      [['Total TTC', 300], ['104,90 €', 450]],
      [[due, 50]],
    );

  it('does not give as sure a seller\'s VAT id that holds another company number than the seller prints', async () => {
    // FR32 123 456 789 passes its key but holds the SIREN 123 456 789, not the seller's 123 456 782.
    const other = await entities(french('FR32 123 456 789'));
    expect(fields(other).VendorTaxId).toBe('FR32123456789');
    expect(confidence(other, 'VendorTaxId')).toBeLessThan(0.9);
    // The seller's own: its key and SIREN agree with what the seller prints.
    const own = await entities(french('FR11 123 456 782'));
    expect(fields(own).VendorTaxId).toBe('FR11123456782');
    expect(confidence(own, 'VendorTaxId')).toBeGreaterThanOrEqual(0.9);
  });

  it('gives as sure an issue date a generic label reads only when the page states it again or a due date follows it', async () => {
    const undated = 'Conditions : paiement à 30 jours';
    const alone = await entities(french('FR11 123 456 782', undated));
    expect(fields(alone).InvoiceDate).toBe('2026-01-31');
    expect(confidence(alone, 'InvoiceDate')).toBeLessThan(0.9);
    const period = await entities([...french('FR11 123 456 782', undated), { text: 'Période du 01/01/2026 au 31/01/2026', x: 50, y: 300 }]);
    expect(fields(period).InvoiceDate).toBe('2026-01-31');
    expect(confidence(period, 'InvoiceDate')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(await entities(french('FR11 123 456 782')), 'InvoiceDate')).toBeGreaterThanOrEqual(0.9);
    // Due before it was issued: the dates contradict each other.
    expect(confidence(await entities(french('FR11 123 456 782', "Date d'échéance : 02/01/2026")), 'InvoiceDate')).toBeLessThan(0.9);
  });

  it('gives as sure an invoice number its term\'s own label reads, not one a rival number as likely contradicts', async () => {
    const page = (...extra: string[]) => rows('Kraemer Handel GmbH', 'Hafenstrasse 4, 20457 Hamburg', 'Rechnungsnummer: 2024-17', ...extra, 'Gesamtbetrag 119,00 EUR');
    expect(confidence(await entities(page()), 'InvoiceId')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(await entities(page('Belegnummer: 2024-18')), 'InvoiceId')).toBeLessThan(0.9);
  });
});
