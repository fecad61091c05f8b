import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { headerFingerprint, type VendorProfileSnapshot } from '../../../src/models/vendor-profiles/vendor-profile.js';
import { namesAnotherSeller, pageMonthFirst } from '../../../src/models/vendor-profiles/vendor-profile-read.js';
import type { ProfileLine } from '../../../src/models/vendor-profiles/vendor-profile-text.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

const field = (entities: readonly Entity[], category: string) => entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected);

describe("a vendor's own values read with its profile", () => {
  const scratch = useScratchDir();

  it("on a text layer, another IBAN within OCR's tolerance of the vendor's is not the vendor's", async () => {
    const page: Placed[] = [
      { text: 'LE FOURNISSEUR', x: 50, y: 50, size: 16 },
      { text: '35 rue d’ici, 75018 PARIS', x: 50, y: 72 },
      { text: 'N° TVA intra : FR 32 123 456 789', x: 50, y: 88 },
      { text: 'FACTURE N° : F20200027', x: 330, y: 50 },
      { text: 'Date : 15/01/2020', x: 330, y: 66 },
      { text: 'TOTAL HT 100,00', x: 330, y: 400 },
      { text: 'TOTAL TVA 10,00', x: 330, y: 416 },
      { text: 'TOTAL TTC 110,00', x: 330, y: 432 },
      { text: 'IBAN : FR76 1254 2547 2569 8542 5874 698', x: 200, y: 700 },
    ];
    const evidence = { chunk: 1, lastPage: true, corrected: true, taskId: 1, learnedOn: '2026-03-01T00:00:00.000Z', confirmations: 0, corrections: 1, weight: 1 };
    const profile: VendorProfileSnapshot = {
      id: 9,
      vendorName: 'LE FOURNISSEUR',
      nameKey: 'lefournisseur',
      taxIds: ['FR32123456789'],
      ibans: ['FR2012542547256985425874698'],
      fingerprint: [],
      weight: 1,
      fields: {
        VendorName: { kind: 'name', value: 'LE FOURNISSEUR', content: 'LE FOURNISSEUR', ...evidence },
        IBAN: { kind: 'iban', value: 'FR2012542547256985425874698', content: 'FR20 1254 2547 2569 8542 5874 698', ...evidence },
      },
    };
    const pdf = await writeFixture(scratch.file('iban.pdf'), await textPdf([page]));
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [profile] });
    expect(field(entities, 'VendorName')?.vendorProfile, 'the profile must be the document’s').toMatchObject({ profileId: 9 });
    // The printed IBAN fails its check digits, so the general model reports none; the profile's must not stand in.
    expect(field(entities, 'IBAN')?.keyValues[0]?.contentNormalized).not.toBe('FR2012542547256985425874698');
  });
});

describe('the order of a page’s dates', () => {
  const lines = (...texts: string[]) => texts.map((text) => ({ text }));

  it('is the one its unambiguous dates show, whatever a profile learned on another of the vendor’s documents', () => {
    // A French vendor's English invoice: "Invoice Date 11/03/2017" is 3 November, as "11/17/2017" shows.
    expect(pageMonthFirst(lines('Invoice Date 11/03/2017', 'Due Date 12/03/2017', 'SEPA Wire transfer 11/17/2017 623.00 €'))).toBe(true);
    expect(pageMonthFirst(lines('Date de facture 05/11/2017', 'Règlement 31/10/2017'))).toBe(false);
  });

  it('is unknown where no date tells or they disagree, and amounts or versions are no dates', () => {
    expect(pageMonthFirst(lines('Date 05/11/2017', 'Échéance 05/12/2017'))).toBeUndefined();
    expect(pageMonthFirst(lines('31/01/2026', '01/31/2026'))).toBeUndefined();
    expect(pageMonthFirst(lines('Total 1.234,56 €', 'Version 1.13.2024.7'))).toBeUndefined();
  });
});

describe('two sellers printing the same VAT id (a placeholder of sample invoices)', () => {
  const scratch = useScratchDir();
  // MUSTERLIEFERANT GMBH's invoice; a profile of "Lieferant GmbH" was learned from another seller's invoice with the same number.
  const page: Placed[] = [
    { text: 'MUSTERLIEFERANT GMBH', x: 50, y: 50, size: 16 },
    { text: 'Bahnhofstrasse 99, 99199 Musterhausen', x: 50, y: 72 },
    { text: 'USt-IdNr. DE123456789', x: 50, y: 88 },
    { text: 'Rechnung Nr. R-2026-0042', x: 330, y: 50 },
    { text: 'Rechnungsdatum: 12.03.2026', x: 330, y: 66 },
    { text: 'Nettobetrag 100,00 EUR', x: 330, y: 400 },
    { text: 'MwSt 19 % 19,00 EUR', x: 330, y: 416 },
    { text: 'Gesamtbetrag 119,00 EUR', x: 330, y: 432 },
  ];
  const evidence = { chunk: 1, lastPage: true, corrected: false, taskId: 1, learnedOn: '2026-03-01T00:00:00.000Z', confirmations: 1, corrections: 0, weight: 1 };
  const sellerProfile = (id: number, name: string, fingerprint: string[]): VendorProfileSnapshot => ({
    id,
    vendorName: name,
    nameKey: name.toLowerCase().replace(/[^a-z0-9]/g, ''),
    taxIds: ['DE123456789'],
    ibans: [],
    fingerprint,
    weight: 1,
    fields: {
      VendorName: { kind: 'name', value: name, content: name, ...evidence },
      VendorTaxId: { kind: 'taxId', value: 'DE123456789', content: 'DE123456789', ...evidence },
    },
  });
  // The letterhead's words as a profile learned from this very layout would hold them.
  const letterhead = headerFingerprint(page.map((p): ProfileLine => ({ text: p.text, box: { left: p.x, top: p.y, width: 6 * p.text.length, height: p.size ?? 10 }, spans: [], words: [] })));

  it("keep the page's own seller: the other seller's profile, found by the number alone, does not replace the name the general model read", async () => {
    const pdf = await writeFixture(scratch.file('shared-vat.pdf'), await textPdf([page]));
    const general = field(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'), 'VendorName');
    expect(general?.keyValues[0]!.content, 'the test needs a general model reading the right seller').toBe('MUSTERLIEFERANT GMBH');
    // "Lieferant GmbH" is not printed in "MUSTERLIEFERANT GMBH": another name, and no letterhead in common: no match at all.
    const other = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [sellerProfile(1, 'Lieferant GmbH', [])] });
    expect(field(other, 'VendorName')?.keyValues[0]!.content).toBe('MUSTERLIEFERANT GMBH');
    expect(field(other, 'VendorName')?.vendorProfile).toBeUndefined();
    // The same letterhead beside another name: a weak match, which may confirm and fill in but never replaces a reading.
    const twin = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [sellerProfile(2, 'Lieferant GmbH', letterhead)] });
    const name = field(twin, 'VendorName')!;
    expect(name.keyValues[0]!.content).toBe('MUSTERLIEFERANT GMBH');
    expect(name.vendorProfile?.fromProfile ?? false).toBe(false);
  });

  it("are told apart by the name the page prints: the seller's own profile is the one chosen", async () => {
    const pdf = await writeFixture(scratch.file('shared-vat-both.pdf'), await textPdf([page]));
    // The other seller's profile has the page's letterhead; the name still decides.
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [sellerProfile(1, 'Lieferant GmbH', letterhead), sellerProfile(2, 'MUSTERLIEFERANT GMBH', [])] });
    const name = field(entities, 'VendorName')!;
    expect(name.vendorProfile).toMatchObject({ profileId: 2, agreement: 'agreed' });
    expect(name.keyValues[0]!.content).toBe('MUSTERLIEFERANT GMBH');
  });
});

describe('another seller named on the page', () => {
  const profile = { vendorName: 'Acme Trading GmbH', nameKey: 'acmetradinggmbh' };

  it('is a name neither holding nor held by the profile’s as whole words', () => {
    expect(namesAnotherSeller('MUSTERLIEFERANT GMBH', { vendorName: 'Lieferant GmbH', nameKey: 'lieferantgmbh' })).toBe(true);
    expect(namesAnotherSeller('Globex Corporation', profile)).toBe(true);
  });

  it('is not the profile’s name shortened, lengthened or misread, nor no name at all', () => {
    expect(namesAnotherSeller('Acme Trading', profile)).toBe(false);
    expect(namesAnotherSeller('ACME TRADING GMBH, Hafenstrasse 1', profile)).toBe(false);
    expect(namesAnotherSeller('Acme Tradlng GmbH', profile)).toBe(false);
    expect(namesAnotherSeller(undefined, profile)).toBe(false);
    expect(namesAnotherSeller('AG', profile)).toBe(false);
  });
});
