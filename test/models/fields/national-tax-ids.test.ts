import { describe, expect, it } from 'vitest';
import { findTaxId } from '../../../src/models/fields/identifiers.js';
import { findNationalTaxId, nationalCheckDigits } from '../../../src/models/fields/national-tax-ids.js';

/** The number with its last digit moved on by one: a check digit catches it. */
const lastDigitChanged = (id: string) => id.replace(/(\d)(\D*)$/, (_, d: string, rest: string) => `${(Number(d) + 1) % 10}${rest}`);

describe('national tax ids without a country prefix', () => {
  it('passes the check digits of a CNPJ, a CPF, a GSTIN, a Japanese T-number and an ABN, and fails them with a digit changed', () => {
    const valid = ['11.444.777/0001-61', '11444777000161', '529.982.247-25', '33ABCPK1234F1ZC', 'T7000012050002', '51 824 753 556'];
    for (const id of valid) {
      expect(nationalCheckDigits(id), id).toBe(true);
      expect(nationalCheckDigits(lastDigitChanged(id)), lastDigitChanged(id)).toBe(false);
    }
    // One digit repeated is no CPF, though its check digits add up.
    expect(nationalCheckDigits('111.111.111-11')).toBe(false);
  });

  it('reads an RFC by its form only (letters, a date, three characters): its issuer does not keep to its check digit', () => {
    expect(findNationalTaxId('RFC: ABC010101XY9')).toMatchObject({ kind: 'RFC', normalized: 'ABC010101XY9' });
    expect(findNationalTaxId('GODE561231GR8')).toMatchObject({ kind: 'RFC' });
    expect(nationalCheckDigits('ABC010101XY9')).toBeUndefined();
    // No month 34: no RFC (a Swiss UID's digits after CHE are none).
    expect(findNationalTaxId('CHE123456789')).toBeUndefined();
  });

  it('takes a CNPJ whole, never cut at its slash or dash, and knows no id in other numbers', () => {
    expect(findTaxId('11.444.777/0001-61', false)).toMatchObject({ normalized: '11444777000161', length: 18 });
    expect(findTaxId('CNPJ/CPF: 11.444.777/0001-61 IE: 123', false)).toMatchObject({ normalized: '11444777000161' });
    // A date and a postcode are no tax id; nor are fifteen digits a CNPJ.
    expect(findNationalTaxId('01/01/2020 01311-000')).toBeUndefined();
    expect(findNationalTaxId('114447770001612')).toBeUndefined();
  });
});
