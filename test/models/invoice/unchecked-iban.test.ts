import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { findUncheckedIban } from '../../../src/models/fields/identifiers.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

const PAGE: Placed[] = [
  { text: 'Harbour Supplies Ltd', x: 50, y: 40, size: 14 },
  { text: 'Invoice number: HS-2026-077', x: 330, y: 40 },
  { text: 'Invoice date: 12 March 2026', x: 330, y: 56 },
  { text: 'Net total: 100.00 GBP', x: 330, y: 300 },
  { text: 'VAT 20%: 20.00 GBP', x: 330, y: 316 },
  { text: 'Total due: 120.00 GBP', x: 330, y: 332 },
];

describe('an IBAN whose check digits fail', () => {
  const scratch = useScratchDir();
  let count = 0;
  const iban = async (lines: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`iban-${++count}.pdf`), await textPdf([[...PAGE, ...lines]]));
    const entity = (await firstPageEntities(invoicesUniversalModel, pdf, 'pdf')).find((e) => e.type === 'Field' && e.category === 'IBAN' && !e.notDetected);
    return entity && { value: entity.keyValues[0]?.contentNormalized, confidence: entity.confidence };
  };

  it('is the account its label names when it has its country\'s form, reported for review', async () => {
    const found = await iban([{ text: 'IBAN: GB99 NWBK 6016 1312 3456 78', x: 50, y: 400 }]);
    expect(found?.value).toBe('GB99NWBK60161312345678');
    expect(found?.confidence).toBeLessThan(0.9);
  });

  it('is no account without its label, nor in another form than its country\'s', async () => {
    expect(await iban([{ text: 'Ref GB99 NWBK 6016 1312 3456 78', x: 50, y: 400 }])).toBeUndefined();
    // Eighteen characters: a German IBAN has twenty-two.
    expect(await iban([{ text: 'IBAN: DE12 1234 4321 9876 00', x: 50, y: 400 }])).toBeUndefined();
  });

  it('loses to a valid IBAN', async () => {
    const found = await iban([
      { text: 'IBAN: GB99 NWBK 6016 1312 3456 78', x: 50, y: 400 },
      { text: 'IBAN: GB82 WEST 1234 5698 7654 32', x: 50, y: 416 },
    ]);
    expect(found).toEqual({ value: 'GB82WEST12345698765432', confidence: expect.any(Number) });
    expect(found!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('has its country\'s length and kinds of characters, and ends there', () => {
    expect(findUncheckedIban('DE75123456780000001234, BIC WELADED1MST')).toMatchObject({ normalized: 'DE75123456780000001234' });
    expect(findUncheckedIban('DE7512345678000000123456')).toBeUndefined();
    expect(findUncheckedIban('GB99 NW8K 6016 1312 3456 78')).toBeUndefined();
  });
});
