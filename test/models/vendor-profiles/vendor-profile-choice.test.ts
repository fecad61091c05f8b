import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import type { VendorProfileSnapshot } from '../../../src/models/vendor-profiles/vendor-profile.js';
import { cappedConfidence } from '../../../src/models/vendor-profiles/vendor-profile-choice.js';
import { learnField, learnIdentity, mergeEvidence } from '../../../src/models/vendor-profiles/vendor-profile-learn.js';
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

  /** The profile one review of the invoice teaches (its values confirmed), of the fields named. */
  async function learnedProfile(fields: readonly string[]): Promise<VendorProfileSnapshot> {
    const pdf = await writeFixture(scratch.file('acme-invoice.pdf'), await textPdf([invoice]));
    const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
    const reviewed = reviewedDocument([{ chunkNumber: 1, entities }]);
    const kept = reviewed.fields.filter((f) => fields.includes(f.field));
    const review = { taskId: 1, learnedOn: new Date('2026-03-12T00:00:00Z'), lastChunk: 1 };
    const identity = learnIdentity(reviewed.pages, kept);
    const profile: VendorProfileSnapshot = { id: 11, ...identity, fields: {}, weight: 1 };
    for (const f of kept) {
      const learned = learnField(reviewed.pages, f, review);
      if (learned) profile.fields[f.field] = mergeEvidence(f.field, undefined, learned, false);
    }
    return profile;
  }

  it('keeps the general reading of a field whose learned label is not on the page, whatever the region holds', async () => {
    const profile = await learnedProfile(['VendorName', 'VendorTaxId', 'InvoiceId']);
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
