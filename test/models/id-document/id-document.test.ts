import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { idDocumentModel } from '../../../src/models/id-document/id-document.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { firstPageEntities, renderPage, scannedLook, textPdf, writeFixture } from '../document-fixtures.js';

// The specimen passport of ICAO Doc 9303 part 4 (Utopia, Anna Maria Eriksson).
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
// The specimen identity card of ICAO Doc 9303 part 5.
const TD1 = ['I<UTOD23145890<1233<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<2', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

function mrzFields(entities: readonly Entity[]): Record<string, string | null> {
  return Object.fromEntries(entities.filter((e) => e.groupName === 'MRZ' && e.type === 'Field').map((e) => [e.category, e.keyValues[0]!.contentNormalized]));
}

function zone(entities: readonly Entity[]) {
  const mrz = entities.find((e) => e.type === 'Mrz')!;
  return { format: mrz.keyValues[0]!.categoryNormalized, lines: mrz.keyValues[0]!.contentNormalized, checksValid: mrz.keyValues[1]!.content };
}

describe('identification document model', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  it('reads the TD3 MRZ of a scanned passport page, every check digit valid, and its visual fields', async () => {
    const page = await renderPage(
      [
        { text: 'PASSPORT', x: 150, y: 150, font: 'sans' },
        { text: 'Surname: ERIKSSON', x: 150, y: 260, font: 'sans' },
        { text: 'Given names: ANNA MARIA', x: 150, y: 340, font: 'sans' },
        { text: 'Date of birth: 12 AUG 1974', x: 150, y: 420, font: 'sans' },
        { text: 'Date of expiry: 15 APR 2012', x: 150, y: 500, font: 'sans' },
        ...TD3.map((text, i) => ({ text, x: 150, y: 700 + 80 * i, size: 44, font: 'mono' as const })),
      ],
      { width: 2480, height: 900 },
    );
    const image = await writeFixture(file('passport.png'), await scannedLook(page, { degrees: 0.7, noise: 60 }));
    const entities = await firstPageEntities(idDocumentModel, image, 'image');

    expect(zone(entities)).toEqual({ format: 'TD3', lines: TD3.join('\n'), checksValid: 'true' });
    expect(mrzFields(entities)).toMatchObject({
      DocumentCode: 'P',
      LastName: 'ERIKSSON',
      FirstName: 'ANNA MARIA',
      DocumentNumber: 'L898902C3',
      DocumentNumberCheckDigit: 'valid',
      BirthDate: '1974-08-12',
      BirthDateCheckDigit: 'valid',
      Sex: 'female',
      ExpirationDate: '2012-04-15',
      ExpirationDateCheckDigit: 'valid',
      PersonalNumber: 'ZE184226B',
      PersonalNumberCheckDigit: 'valid',
      CompositeCheckDigit: 'valid',
    });
    const visual = Object.fromEntries(entities.filter((e) => e.groupName === 'VisualZone').map((e) => [e.category, e.keyValues[0]!.contentNormalized]));
    expect(visual).toEqual({ LastName: 'ERIKSSON', FirstName: 'ANNA MARIA', BirthDate: '1974-08-12', ExpirationDate: '2012-04-15' });
    // Monospaced: the birth date is characters 13..19 of the 44 of the second line.
    const birth = entities.find((e) => e.groupName === 'MRZ' && e.category === 'BirthDate')!.keyValues[0]!.boundingBox;
    const line = entities.find((e) => e.type === 'Mrz')!.keyValues[0]!.boundingBox;
    expect(birth.left).toBeGreaterThan(line.left + (line.width * 12) / 44);
    expect(birth.right).toBeLessThan(line.left + (line.width * 20) / 44);
  });

  it('reads a TD1 identity card from a text PDF', async () => {
    const pdf = await writeFixture(file('id-card.pdf'), await textPdf([TD1.map((text, i) => ({ text, x: 40, y: 300 + 14 * i, size: 11, font: 'mono' as const }))]));
    const entities = await firstPageEntities(idDocumentModel, pdf, 'pdf');
    expect(zone(entities)).toEqual({ format: 'TD1', lines: TD1.join('\n'), checksValid: 'true' });
    expect(mrzFields(entities)).toMatchObject({
      DocumentCode: 'I',
      DocumentNumber: 'D23145890123',
      DocumentNumberCheckDigit: 'valid',
      BirthDate: '1974-08-12',
      ExpirationDate: '2012-04-15',
      CompositeCheckDigit: 'valid',
      LastName: 'ERIKSSON',
      FirstName: 'ANNA MARIA',
    });
  });

  it('reports a check digit that does not match its field', async () => {
    // The birth date altered from 740812 to 740813; its check digit (2) no longer matches.
    const altered = [TD3[0]!, TD3[1]!.replace('7408122', '7408132')];
    const pdf = await writeFixture(file('altered.pdf'), await textPdf([altered.map((text, i) => ({ text, x: 20, y: 300 + 14 * i, size: 10, font: 'mono' as const }))]));
    const entities = await firstPageEntities(idDocumentModel, pdf, 'pdf');
    expect(zone(entities).checksValid).toBe('false');
    expect(mrzFields(entities)).toMatchObject({ BirthDate: '1974-08-13', BirthDateCheckDigit: 'invalid', DocumentNumberCheckDigit: 'valid', CompositeCheckDigit: 'invalid' });
    const check = entities.find((e) => e.category === 'BirthDateCheckDigit')!;
    expect(check.confidence).toBeLessThan(0.5);
  });

  it('finds no MRZ on a page without one', async () => {
    const pdf = await writeFixture(file('letter.pdf'), await textPdf([[{ text: 'Dear Anna, <<< see attached >>>', x: 40, y: 100 }]]));
    const entities = await firstPageEntities(idDocumentModel, pdf, 'pdf');
    expect(entities.filter((e) => e.groupName === 'MRZ')).toEqual([]);
  });
});
