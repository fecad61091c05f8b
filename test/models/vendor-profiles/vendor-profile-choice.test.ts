import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import type { VendorProfileSnapshot } from '../../../src/models/vendor-profiles/vendor-profile.js';
import { cappedConfidence } from '../../../src/models/vendor-profiles/vendor-profile-choice.js';
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
