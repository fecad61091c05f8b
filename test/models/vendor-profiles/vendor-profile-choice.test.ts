import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import type { VendorProfileSnapshot } from '../../../src/models/vendor-profiles/vendor-profile.js';
import { cappedConfidence } from '../../../src/models/vendor-profiles/vendor-profile-choice.js';
import type { InvoiceField } from '../../../src/models/fields/invoice-field-names.js';
import { learnField, learnIdentity, mergeEvidence, type ReviewedField } from '../../../src/models/vendor-profiles/vendor-profile-learn.js';
import { reviewedDocument } from '../../../src/modules/vendor-profiles/vendor-profile-learning.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

const field = (entities: readonly Entity[], category: string) => entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected);

describe('confidence where a vendor profile and the general model disagree', () => {
  const scratch = useScratchDir();

  it('is capped at 0.75 (0.6 when the general model is kept), whatever check the value passed', () => {
    expect(cappedConfidence(0.99, 'disagreed', true)).toBe(0.75);
    expect(cappedConfidence(0.99, 'disagreed', false)).toBe(0.6);
    expect(cappedConfidence(0.99, 'profileMissed', false)).toBe(0.7);
    expect(cappedConfidence(0.99, 'agreed', true)).toBe(0.99);
    expect(cappedConfidence(0.5, 'disagreed', true)).toBe(0.5);
  });

  it("the vendor's own name found as printed, where the general model read another name, is not given as sure", async () => {
    const page: Placed[] = [
      { text: 'Acme Group Services', x: 50, y: 50, size: 18 },
      { text: 'Hafenstrasse 1, 20457 Hamburg', x: 50, y: 72 },
      { text: 'Rechnung Nr. R-2026-0042', x: 50, y: 140 },
      { text: 'Rechnungsdatum: 12.03.2026', x: 50, y: 156 },
      { text: 'Nettobetrag 100,00 EUR', x: 330, y: 400 },
      { text: 'MwSt 19 % 19,00 EUR', x: 330, y: 416 },
      { text: 'Gesamtbetrag 119,00 EUR', x: 330, y: 432 },
      { text: 'Acme Trading GmbH - USt-IdNr. DE811234567', x: 50, y: 800, size: 8 },
    ];
    const profile: VendorProfileSnapshot = {
      id: 7,
      vendorName: 'Acme Trading GmbH',
      nameKey: 'acmetradinggmbh',
      taxIds: ['DE811234567'],
      ibans: [],
      fingerprint: [],
      weight: 1,
      fields: {
        VendorName: { kind: 'name', value: 'Acme Trading GmbH', content: 'Acme Trading GmbH', chunk: 1, lastPage: true, corrected: true, taskId: 1, learnedOn: '2026-03-01T00:00:00.000Z', confirmations: 0, corrections: 1, weight: 1 },
      },
    };
    const pdf = await writeFixture(scratch.file('disagreed.pdf'), await textPdf([page]));
    const general = field(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'), 'VendorName');
    expect(general?.keyValues[0]!.content, 'the test needs a general model reading another name').not.toBe('Acme Trading GmbH');
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [profile] });
    const name = field(entities, 'VendorName')!;
    expect(name.vendorProfile).toMatchObject({ profileId: 7, fromProfile: true, agreement: 'disagreed' });
    expect(name.keyValues[0]!.content).toBe('Acme Trading GmbH');
    expect(name.confidence).toBeLessThanOrEqual(0.75);
  });
});

/** The profile one review of a page teaches, of the fields named: the general model's values confirmed, those of `typed` typed in by the reviewer. */
async function learnedProfile(file: string, page: Placed[], fields: readonly InvoiceField[], typed: Partial<Record<InvoiceField, string>> = {}): Promise<VendorProfileSnapshot> {
  const pdf = await writeFixture(file, await textPdf([page]));
  const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  const reviewed = reviewedDocument([{ chunkNumber: 1, entities }]);
  const byReviewer = (Object.entries(typed) as Array<[InvoiceField, string]>).map(
    ([f, content]): ReviewedField => ({ field: f, chunk: 1, content, contentNormalized: content, corrected: true, spans: [], box: null }),
  );
  const kept = [...reviewed.fields.filter((f) => fields.includes(f.field) && !(f.field in typed)), ...byReviewer];
  const review = { taskId: 1, learnedOn: new Date('2026-03-12T00:00:00Z'), lastChunk: 1 };
  const identity = learnIdentity(reviewed.pages, kept);
  const profile: VendorProfileSnapshot = { id: 11, ...identity, fields: {}, weight: 1 };
  for (const f of kept) {
    const learned = learnField(reviewed.pages, f, review);
    if (learned) profile.fields[f.field] = mergeEvidence(f.field, undefined, learned, false);
  }
  return profile;
}

describe("a vendor's own values on its later documents", () => {
  const scratch = useScratchDir();
  const invoiceOf = (taxId: string): Placed[] => [
    { text: 'LE FOURNISSEUR', x: 50, y: 50, size: 16 },
    { text: '35 rue d’ici, 75018 PARIS', x: 50, y: 72 },
    { text: `N° TVA : ${taxId}`, x: 50, y: 88 },
    { text: 'FACTURE N° : F20260023', x: 330, y: 50 },
    { text: 'Date : 15/01/2026', x: 330, y: 66 },
    { text: 'TOTAL HT 100,00', x: 330, y: 400 },
    { text: 'TOTAL TVA 20,00', x: 330, y: 416 },
    { text: 'TOTAL TTC 120,00', x: 330, y: 432 },
    { text: 'IBAN : FR76 1254 2547 2569 8542 5874 698', x: 50, y: 700 },
  ];

  it('a tax number other than the learned one is read where the learned one’s label puts it (the seller printing another registration)', async () => {
    const profile = await learnedProfile(scratch.file('fournisseur-1.pdf'), invoiceOf('FR 11 123 456 782'), ['VendorName', 'VendorTaxId', 'IBAN']);
    expect(profile.fields.VendorTaxId, 'the test needs the tax number learned beside its label').toMatchObject({ value: 'FR11123456782', label: { text: expect.stringMatching(/TVA/) } });
    const pdf = await writeFixture(scratch.file('fournisseur-2.pdf'), await textPdf([invoiceOf('FR 88 100 000 009')]));
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [profile] });
    const taxId = field(entities, 'VendorTaxId')!;
    expect(taxId.keyValues[0]!.contentNormalized).toBe('FR88100000009');
    // Read by the profile too, not a value the profile expected and missed.
    expect(taxId.vendorProfile).toMatchObject({ profileId: 11, fromProfile: true });
  });
});

describe("a vendor's tax number printed beside another label of its vocabulary", () => {
  const scratch = useScratchDir();
  /** The FNFE's French invoices: the seller's block at the left, the buyer's at the right, each with its VAT id. */
  const invoiceOf = (sellerLine: string | undefined): Placed[] => [
    { text: 'LE FOURNISSEUR', x: 50, y: 50, size: 16 },
    { text: '35 rue d’ici, 75018 PARIS', x: 50, y: 72 },
    { text: 'SIREN : 123 456 782', x: 50, y: 88 },
    ...(sellerLine ? [{ text: sellerLine, x: 50, y: 104 }] : []),
    { text: 'FACTURE N° : F20260023', x: 330, y: 50 },
    { text: 'Date : 15/01/2026', x: 330, y: 66 },
    { text: 'L’ACHETEUR', x: 330, y: 88 },
    { text: 'N° TVA : FR 37 200 000 008', x: 330, y: 104 },
    { text: 'TOTAL HT 100,00', x: 330, y: 400 },
    { text: 'TOTAL TVA 20,00', x: 330, y: 416 },
    { text: 'TOTAL TTC 120,00', x: 330, y: 432 },
  ];
  const profileOf = (name: string) => learnedProfile(scratch.file(name), invoiceOf('N° TVA intra : FR 11 123 456 782'), ['VendorName', 'VendorTaxId']);
  const read = async (name: string, sellerLine: string | undefined, profile: VendorProfileSnapshot) =>
    field(await firstPageEntities(invoicesUniversalModel, await writeFixture(scratch.file(name), await textPdf([invoiceOf(sellerLine)])), 'pdf', { vendorProfiles: [profile] }), 'VendorTaxId');

  it('is read there when its check digits hold: "N° TVA :" where the reviewed invoice printed "N° TVA intra :"', async () => {
    const profile = await profileOf('intra-1.pdf');
    expect(profile.fields.VendorTaxId, 'the test needs the tax number learned beside its label').toMatchObject({ value: 'FR11123456782', label: { text: expect.stringMatching(/intra/) } });
    const taxId = (await read('intra-2.pdf', 'N° TVA : FR 88 100 000 009', profile))!;
    expect(taxId.keyValues[0]!.contentNormalized).toBe('FR88100000009');
    // Found by the profile (not a value it expected and missed), and the general model's reading agrees.
    expect(taxId.vendorProfile).toMatchObject({ profileId: 11, fromProfile: true, agreement: 'agreed' });
  });

  it('is not a number whose check digits fail, nor the buyer’s number beside the same label in the buyer’s block', async () => {
    const profile = await profileOf('intra-3.pdf');
    const misread = await read('intra-4.pdf', 'N° TVA : FR 12 100 000 009', profile);
    expect(misread?.vendorProfile?.fromProfile ?? false).toBe(false);
    const none = await read('intra-5.pdf', undefined, profile);
    expect(none?.vendorProfile?.fromProfile ?? false).toBe(false);
    expect(none?.keyValues[0]!.contentNormalized).not.toBe('FR37200000008');
  });
});

describe("another kind of document from the profile's vendor", () => {
  const scratch = useScratchDir();
  const letterhead: Placed[] = [
    { text: 'Acme Trading GmbH', x: 50, y: 50, size: 18 },
    { text: 'Hafenstrasse 1, 20457 Hamburg', x: 50, y: 72 },
    { text: 'USt-IdNr. DE811234567', x: 50, y: 88 },
  ];
  // The invoice a reviewer confirmed: its number beside "Beleg-Nr." at the top right.
  const invoice: Placed[] = [
    ...letterhead,
    { text: 'Beleg-Nr. R-2026-0042', x: 330, y: 140 },
    { text: 'Rechnungsdatum: 12.03.2026', x: 330, y: 156 },
    { text: 'Nettobetrag 100,00 EUR', x: 330, y: 400 },
    { text: 'MwSt 19 % 19,00 EUR', x: 330, y: 416 },
    { text: 'Gesamtbetrag 119,00 EUR', x: 330, y: 432 },
  ];
  // A claim letter of the same vendor: no "Beleg-Nr."; where the invoice's number was, the claim's; the invoice number lower down.
  const letter: Placed[] = [
    ...letterhead,
    { text: 'Schaden S-2026-0077', x: 330, y: 140 },
    { text: 'Hamburg, 12.04.2026', x: 330, y: 156 },
    { text: 'Sehr geehrte Damen und Herren, wir erstatten Ihnen den Betrag', x: 50, y: 260 },
    { text: 'Rechnungsnummer: R-2026-0051', x: 50, y: 300 },
    { text: 'Nettobetrag 200,00 EUR', x: 330, y: 400 },
    { text: 'MwSt 19 % 38,00 EUR', x: 330, y: 416 },
    { text: 'Gesamtbetrag 238,00 EUR', x: 330, y: 432 },
  ];

  it('keeps the general reading of a field whose learned label is not on the page, whatever the region holds', async () => {
    const profile = await learnedProfile(scratch.file('acme-invoice.pdf'), invoice, ['VendorName', 'VendorTaxId', 'InvoiceId']);
    expect(profile.fields.InvoiceId, 'the test needs the invoice number learned beside its label').toMatchObject({ value: 'R-2026-0042', label: { text: expect.stringMatching(/^Beleg-Nr/) } });
    const pdf = await writeFixture(scratch.file('acme-letter.pdf'), await textPdf([letter]));
    const general = field(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'), 'InvoiceId');
    expect(general?.keyValues[0]!.contentNormalized, 'the test needs a general model reading the letter’s invoice number').toBe('R-2026-0051');

    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [profile] });
    expect(field(entities, 'VendorTaxId')?.vendorProfile, 'the letter is the vendor’s').toMatchObject({ profileId: 11, agreement: 'agreed' });
    const id = field(entities, 'InvoiceId')!;
    expect(id.keyValues[0]!.contentNormalized).toBe('R-2026-0051');
    expect(id.vendorProfile?.fromProfile).toBe(false);
  });
});

describe("a vendor's name heading a document that shares little else with its reviewed invoice", () => {
  const scratch = useScratchDir();
  const heading: Placed[] = [
    { text: 'KESTREL PARTS', x: 50, y: 50, size: 20 },
    { text: 'Innovation drives progress', x: 50, y: 74 },
  ];
  const invoice: Placed[] = [
    ...heading,
    { text: 'INVOICE', x: 330, y: 50, size: 18 },
    { text: 'Customer: Sharp Consulting', x: 50, y: 120 },
    { text: 'Address: 73 Regal Way, Leeds, LS1 5AB, UK', x: 250, y: 120 },
    { text: 'Delv. Date: 5/16/2024', x: 50, y: 136 },
    { text: 'Invoice Number: 3847193', x: 200, y: 136 },
    { text: 'Item Code   Item Desc.   Unit Price   Quantity   Total', x: 50, y: 170 },
    { text: 'MA197   STRETCHWRAP ROLL   16.62   5   83.10', x: 50, y: 186 },
    { text: 'Total Price: 83.10', x: 330, y: 400 },
  ];
  const returns: Placed[] = [
    ...heading,
    { text: 'RETURNS', x: 330, y: 50, size: 18 },
    { text: 'Customer: White Triangle', x: 250, y: 100 },
    { text: 'Address: Unit 1, Fork Works, Rotherham', x: 250, y: 116 },
    { text: 'Collection Date: 6/12/2024', x: 250, y: 132 },
    { text: 'PRODUCT ID   QUANTITY   REASON', x: 50, y: 200 },
    { text: 'H509M   150   Incorrect size. Too small.', x: 50, y: 216 },
  ];

  it('is the vendor’s, weakly: its name fills in what the general model left empty, for a reviewer to confirm', async () => {
    const profile = await learnedProfile(scratch.file('kestrel-invoice.pdf'), invoice, ['InvoiceId', 'InvoiceTotal'], { VendorName: 'KESTREL PARTS' });
    expect(profile.vendorName, 'the test needs the name learned').toBe('KESTREL PARTS');
    const pdf = await writeFixture(scratch.file('kestrel-returns.pdf'), await textPdf([returns]));
    const general = field(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'), 'VendorName');
    expect(general?.keyValues[0]!.content, 'the test needs a general model that does not read the name').not.toBe('KESTREL PARTS');
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf', { vendorProfiles: [profile] });
    const name = field(entities, 'VendorName');
    expect(name?.keyValues[0]!.content).toBe('KESTREL PARTS');
    expect(name!.confidence).toBeLessThanOrEqual(0.7);
  });
});
