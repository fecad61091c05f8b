import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture } from '../document-fixtures.js';
import { capImpossible, impossibleFields, IMPOSSIBLE_CAP } from '../../../src/models/fields/impossible-values.js';
import type { InvoiceField } from '../../../src/models/fields/invoice-field-names.js';
import { confirmable } from '../../../src/modules/vendor-profiles/vendor-profile-learning.js';
import type { ReviewedField } from '../../../src/models/vendor-profiles/vendor-profile-learn.js';

const now = new Date('2026-06-01T00:00:00Z');

describe('impossible values', () => {
  it("a customer tax id that is the seller's own VAT id, however spaced or prefixed", () => {
    expect(impossibleFields({ VendorTaxId: 'PT501964843', CustomerTaxId: '501 964 843' }, now)).toEqual(new Set(['CustomerTaxId']));
    expect(impossibleFields({ VendorTaxId: 'PT501964843', CustomerTaxId: 'PT509876543' }, now).size).toBe(0);
  });

  it("a party's name that is a contact line: a phone, an e-mail, a contact person", () => {
    for (const line of ['Tel.: 0431 123456', 'Telefon 0431/12 34 56', 'E-Mail: info@nordlicht.de', 'buchhaltung@stadtwerke-kiel.de', 'Ansprechpartner: Herr Jansen', 'Fax: +49 431 99', '+49 431 123 456']) {
      expect(impossibleFields({ CustomerName: line }, now), line).toEqual(new Set(['CustomerName']));
    }
    expect(impossibleFields({ VendorName: 'Tel.: 0431 123456' }, now)).toEqual(new Set(['VendorName']));
    for (const name of ['Stadtwerke Kiel', 'Telekom Deutschland GmbH', 'Contact Energy Ltd', 'Faxe Kondi A/S', 'Mailand Moden GmbH']) {
      expect(impossibleFields({ CustomerName: name }, now).size, name).toBe(0);
    }
  });

  it('a date before 1990 or more than a year ahead', () => {
    expect(impossibleFields({ InvoiceDate: '1989-12-31', DueDate: '2027-07-01' }, now)).toEqual(new Set(['InvoiceDate', 'DueDate']));
    expect(impossibleFields({ InvoiceDate: '1990-01-01', DueDate: '2027-05-30' }, now).size).toBe(0);
  });

  it('net + tax that is not the gross beyond rounding, when all three are there', () => {
    expect(impossibleFields({ SubTotal: '100.00', TotalTax: '23.00', InvoiceTotal: '128.00' }, now)).toEqual(new Set(['SubTotal', 'TotalTax', 'InvoiceTotal']));
    expect(impossibleFields({ SubTotal: '100.00', TotalTax: '23.00', InvoiceTotal: '123.01' }, now).size).toBe(0);
    // A gross rounded for cash (a "round off" line) is no contradiction.
    expect(impossibleFields({ SubTotal: '100.00', TotalTax: '17.60', InvoiceTotal: '118.00' }, now).size).toBe(0);
    expect(impossibleFields({ SubTotal: '100.00', InvoiceTotal: '128.00' }, now).size).toBe(0);
  });

  it('are never given at a confidence a reviewer would skip', () => {
    const field = (contentNormalized: string) => ({ contentNormalized, confidence: 0.99 });
    const chosen = new Map<InvoiceField, { contentNormalized: string; confidence: number }>([
      ['VendorTaxId', field('DE811234567')],
      ['CustomerTaxId', field('DE 811 234 567')],
      ['InvoiceDate', field('1970-01-01')],
      ['InvoiceId', field('R-1')],
      ['CustomerName', field('E-Mail: einkauf@stadtwerke-kiel.de')],
    ]);
    capImpossible(chosen, now);
    expect(chosen.get('CustomerTaxId')!.confidence).toBe(IMPOSSIBLE_CAP);
    expect(chosen.get('CustomerName')!.confidence).toBe(IMPOSSIBLE_CAP);
    expect(chosen.get('InvoiceDate')!.confidence).toBe(IMPOSSIBLE_CAP);
    expect(chosen.get('VendorTaxId')!.confidence).toBe(0.99);
    expect(chosen.get('InvoiceId')!.confidence).toBe(0.99);
  });

  it('amounts that add up only less a tax the page says is withheld are possible, by no other amount', () => {
    const values = { SubTotal: '1000.00', TotalTax: '160.00', InvoiceTotal: '1053.33' };
    expect(impossibleFields(values, now).size).toBe(3);
    expect(impossibleFields(values, now, [10667]).size).toBe(0);
    expect(impossibleFields(values, now, [-10667]).size).toBe(0);
    expect(impossibleFields(values, now, [10000]).size).toBe(3);
  });

  it('left untouched by a reviewer are not confirmed; typed by one they are learned', () => {
    const reviewed = (field: InvoiceField, value: string, corrected = false): ReviewedField => ({ field, chunk: 1, content: value, contentNormalized: value, corrected, spans: [], box: null });
    const fields = [
      reviewed('VendorTaxId', 'DE811234567'),
      reviewed('CustomerTaxId', 'DE811234567'),
      reviewed('CustomerName', 'Tel.: 0431 123456'),
      reviewed('InvoiceDate', '2036-01-01'),
      reviewed('DueDate', '1980-02-01', true),
      reviewed('InvoiceId', 'R-1'),
    ];
    expect(confirmable({ pages: [], fields }, now).fields.map((f) => f.field)).toEqual(['VendorTaxId', 'DueDate', 'InvoiceId']);
    // A contact line the reviewer typed as the customer is theirs to keep.
    expect(confirmable({ pages: [], fields: [reviewed('CustomerName', 'Ansprechpartner Jansen', true)] }, now).fields).toHaveLength(1);
  });
});

describe('the invoice model', () => {
  const scratch = useScratchDir();

  it("never gives an impossible value as sure: the seller's VAT id as the customer's", async () => {
    const lines = [
      'Nordlicht Handel GmbH',
      'USt-IdNr. DE811234567',
      'Rechnung an: Stadtwerke Kiel',
      'Kunden-USt-IdNr.: DE811234567',
      'Rechnung Nr. R-2026-0042',
      'Rechnungsdatum: 12.03.2026',
      'Nettobetrag 100,00 EUR',
      'MwSt 19 % 19,00 EUR',
      'Gesamtbetrag 119,00 EUR',
    ].map((text, i) => ({ text, x: 50, y: 60 + 18 * i }));
    const pdf = await writeFixture(scratch.file('impossible.pdf'), await textPdf([lines]));
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
    const found = fields(entities);
    expect(found).toMatchObject({ VendorTaxId: 'DE811234567', CustomerTaxId: 'DE811234567', InvoiceTotal: '119.00' });
    const confidence = (category: string) => entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)!.confidence;
    expect(confidence('CustomerTaxId')).toBeLessThan(0.9);
    expect(confidence('InvoiceTotal')).toBeGreaterThanOrEqual(0.9);
  });
});
