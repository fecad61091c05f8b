import { describe, expect, it } from 'vitest';
import { findIbans, findTaxId, isLuhnValid, isValidIban, isValidPtNif } from '../../src/models/identifiers.js';
import { findCurrency, findDate, isAmount, normalizeValue, parseAmount, pascalCase } from '../../src/models/normalize.js';
import { parseKeyValuePayload } from '../../src/models/barcodes.js';

describe('normalisation', () => {
  it('reads dates in the formats and languages invoices use', () => {
    const iso = (text: string, monthFirst = false) => findDate(text, { monthFirst })?.iso;
    expect(iso('2024-01-15')).toBe('2024-01-15');
    expect(iso('15/01/2024')).toBe('2024-01-15');
    expect(iso('15.01.24')).toBe('2024-01-15');
    expect(iso('01/02/2024')).toBe('2024-02-01');
    expect(iso('01/02/2024', true)).toBe('2024-01-02');
    expect(iso('01/15/2024')).toBe('2024-01-15');
    expect(iso('January 15, 2024')).toBe('2024-01-15');
    expect(iso('15 de janeiro de 2024')).toBe('2024-01-15');
    expect(iso('15. März 2024')).toBe('2024-03-15');
    expect(iso('3 juil. 2023')).toBe('2023-07-03');
    expect(iso('12 AUG 1974')).toBe('1974-08-12');
    expect(iso('15 diciembre 2023')).toBe('2023-12-15');
    expect(iso('31/02/2024')).toBeUndefined();
    expect(iso('FT 2024/17')).toBeUndefined();
    expect(findDate('Issued on 15/01/2024 in Lisbon')).toEqual({ iso: '2024-01-15', index: 10, length: 10 });
  });

  it('reads amounts with either decimal separator as plain decimals', () => {
    expect(parseAmount('1,537.50 EUR')).toBe('1537.50');
    expect(parseAmount('€ 1.537,50')).toBe('1537.50');
    expect(parseAmount('1 537,50 €')).toBe('1537.50');
    expect(parseAmount("CHF 1'537.50")).toBe('1537.50');
    expect(parseAmount('-12.00')).toBe('-12.00');
    expect(parseAmount('1,250')).toBe('1250');
    expect(parseAmount('VAT 23% 287.50')).toBe('287.50');
    expect(isAmount('287.50 EUR')).toBe(true);
    expect(isAmount('$12')).toBe(true);
    expect(isAmount('123456789')).toBe(false);
    expect(findCurrency('Total 12.50 €')?.code).toBe('EUR');
    expect(findCurrency('USD 40')?.code).toBe('USD');
  });

  it('normalises free values and labels', () => {
    expect(normalizeValue(' 15/01/2024 ')).toBe('2024-01-15');
    expect(normalizeValue('1,537.50 EUR')).toBe('1537.50');
    expect(normalizeValue('FT  2024/17')).toBe('FT 2024/17');
    expect(normalizeValue('+351 912 345 678')).toBe('+351 912 345 678');
    expect(pascalCase('Invoice number')).toBe('InvoiceNumber');
    expect(pascalCase('N.º Contribuinte')).toBe('NContribuinte');
  });
});

describe('identifiers', () => {
  it('checks IBANs with mod-97 and finds them in text', () => {
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 33')).toBe(false);
    expect(isValidIban('PT50 0002 0123 1234 5678 9015 4')).toBe(true);
    expect(findIbans('IBAN: PT50 0002 0123 1234 5678 9015 4 BIC BCOMPTPL')).toEqual([
      { index: 6, length: 31, normalized: 'PT50000201231234567890154' },
    ]);
  });

  it('checks Portuguese tax numbers and card numbers', () => {
    expect(isValidPtNif('999999990')).toBe(true);
    expect(isValidPtNif('501964843')).toBe(true);
    expect(isValidPtNif('501964844')).toBe(false);
    expect(isValidPtNif('401964843')).toBe(false);
    expect(findTaxId('PT 501 964 843', false)?.normalized).toBe('PT501964843');
    expect(findTaxId('501964844', true)).toBeUndefined();
    expect(findTaxId('GB123456789', false)?.normalized).toBe('GB123456789');
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
  });

  it('splits KEY:VALUE*KEY:VALUE payloads, counting bad parts and repeated keys', () => {
    expect(parseKeyValuePayload('A:1*B:2*A:3*oops')).toEqual({
      pairs: [
        { key: 'A', value: '1' },
        { key: 'B', value: '2' },
        { key: 'A', value: '3' },
      ],
      invalidCount: 1,
      duplicatedKeys: ['A'],
    });
    expect(parseKeyValuePayload('https://example.com/a*b')).toBeUndefined();
    expect(parseKeyValuePayload('plain text')).toBeUndefined();
  });
});
