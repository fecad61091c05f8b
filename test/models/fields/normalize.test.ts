import { describe, expect, it } from 'vitest';
import { findIbans, findTaxId, isLuhnValid, isValidIban, isValidPtNif } from '../../../src/models/fields/identifiers.js';
import { findAmounts, findCurrencies, findCurrency, findDate, isAmount, normalizeValue, numericDateOrder, parseAmount, pascalCase } from '../../../src/models/fields/normalize.js';
import { parseKeyValuePayload } from '../../../src/models/page/barcodes.js';

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

  it('reads month names in Dutch and Italian, ordinals, two-digit years and stray spaces', () => {
    const iso = (text: string) => findDate(text)?.iso;
    expect(iso('15 maart 2024')).toBe('2024-03-15');
    expect(iso('3 mrt 2024')).toBe('2024-03-03');
    expect(iso('1 mei 2024')).toBe('2024-05-01');
    expect(iso('12 gennaio 2024')).toBe('2024-01-12');
    expect(iso('3 settembre 2024')).toBe('2024-09-03');
    expect(iso('1er mars 2024')).toBe('2024-03-01');
    expect(iso('05-Mar-24')).toBe('2024-03-05');
    expect(iso('March 15 , 2024')).toBe('2024-03-15');
    expect(iso('23- 03-18 18:09')).toBe('2018-03-23');
    // A dotted date is day first even for a document that writes slashed dates month first.
    expect(findDate('05.06.2023', { monthFirst: true })?.iso).toBe('2023-06-05');
    // The first real date, past words that only look like one.
    expect(iso('12 items 2024, delivered 15 March 2024')).toBe('2024-03-15');
  });

  it('tells day-first from month-first by the dates a document prints', () => {
    expect(numericDateOrder('Date 03/04/2024 Due 18/04/2024')).toBe(false);
    expect(numericDateOrder('Date 03/04/2024 Due 04/18/2024')).toBe(true);
    expect(numericDateOrder('Date 03/04/2024')).toBeUndefined();
  });

  it('reads the currencies of Indian, Malaysian and Swiss documents, and amounts with symbols glued to them', () => {
    expect(findCurrencies('₹ 500, Rs. 1,200, INR 30, RM 8.35, MYR 12, Fr. 10.00, CHF 5, US$ 7').map((c) => c.code)).toEqual(['INR', 'INR', 'INR', 'MYR', 'MYR', 'CHF', 'CHF', 'USD']);
    // "Rs" and "Fr." count only before an amount: "Hrs" and "Fr. Müller" are not money.
    expect(findCurrencies('Hrs 12, Fr. Müller')).toEqual([]);
    expect(parseAmount('₹ 1,23,456.00')).toBe('123456.00');
    expect(parseAmount('1\u202f234,56 €')).toBe('1234.56');
    expect(findAmounts('TOTAL RM8.35').map((a) => [a.value, a.currency?.code])).toEqual([['8.35', 'MYR']]);
    expect(findAmounts('EUR1,234.56').map((a) => a.value)).toEqual(['1234.56']);
    // Not amounts: dates, times, codes, rates.
    expect(findAmounts('15.03.2024 10:45 INV-0042 VAT 20 %')).toEqual([]);
  });

  it('reads an amount with cents OCR glued to the word before it, never a code\'s digits', () => {
    expect(findAmounts('TOTAL FACTURA393,25 €').map((a) => a.value)).toEqual(['393.25']);
    expect(findAmounts('Total:12.50').map((a) => a.value)).toEqual(['12.50']);
    expect(findAmounts('A1234.50 FT2024.12 INV0042 at 10:45.30 SN12345.67')).toEqual([]);
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

  it('takes of a longer number only the prefix its country registers as the length of its IBANs, not a shorter one the check digits pass by chance', () => {
    // A shipping label's number after "DE00": its first 26 characters pass mod-97, but German IBANs have 22.
    expect(findIbans('NVE DE0001346484600000000000000100038')).toEqual([]);
    expect(findIbans('IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX')).toEqual([{ index: 5, length: 27, normalized: 'DE89370400440532013000' }]);
  });

  it('puts right the letters and digits OCR confused in an IBAN where its country fixes their kind, when the check digits then pass', () => {
    expect(findIbans('IBAN GB82 WE5T 1234 5698 7654 32')).toEqual([{ index: 5, length: 27, normalized: 'GB82WEST12345698765432', repaired: true }]);
    expect(findIbans('NL91 A8NA 0417 1643 00')).toEqual([{ index: 0, length: 22, normalized: 'NL91ABNA0417164300', repaired: true }]);
    expect(findIbans('DE89 3704 OO44 0532 0130 00')[0]).toMatchObject({ normalized: 'DE89370400440532013000', repaired: true });
    // No change of kind makes these valid: a wrong digit, and a confusion where the format allows either kind.
    expect(findIbans('GB82 WEST 1234 5698 7654 33')).toEqual([]);
    expect(findIbans('FR61 3828 5873 6231 SRCZ PBEP C47')).toEqual([]);
  });

  it('checks Portuguese tax numbers and card numbers', () => {
    expect(isValidPtNif('999999990')).toBe(true);
    expect(isValidPtNif('501964843')).toBe(true);
    expect(isValidPtNif('501964844')).toBe(false);
    expect(isValidPtNif('401964843')).toBe(false);
    expect(findTaxId('PT 501 964 843', false)?.normalized).toBe('PT501964843');
    expect(findTaxId('501964844', true)).toBeUndefined();
    expect(findTaxId('GB123456789', false)?.normalized).toBe('GB123456789');
    // Numbers whose shape names their country: GSTIN, Swiss UID, Dutch and Austrian VAT, Spanish CIF.
    expect(findTaxId('GSTIN: 27AAPFU0939F1ZV', false)?.normalized).toBe('27AAPFU0939F1ZV');
    // A GSTIN whose PAN letter O OCR read as a zero, or whose Z as a 2: its strict form puts them back.
    expect(findTaxId('GSTIN/UIN: 31BPATW823906Z8', false)?.normalized).toBe('31BPATW8239O6Z8');
    expect(findTaxId('GSTIN: 27AAPFU0939F12V', false)?.normalized).toBe('27AAPFU0939F1ZV');
    expect(findTaxId('GSTIN/UIN: 33SZFQK0884W4z8', false)?.normalized).toBe('33SZFQK0884W4Z8');
    expect(findTaxId('CHE-123.456.789 MWST', false)?.normalized).toBe('CHE123456789');
    expect(findTaxId('NL123456789B01', false)?.normalized).toBe('NL123456789B01');
    expect(findTaxId('ATU12345678', false)?.normalized).toBe('ATU12345678');
    expect(findTaxId('B12345678', false)?.normalized).toBe('B12345678');
    // A country prefix whose letter OCR read as a digit, put back only into a country code.
    expect(findTaxId('P.IVA 1T01234567890', false)?.normalized).toBe('IT01234567890');
    expect(findTaxId('BTW 8E 0123456789', false)?.normalized).toBe('BE0123456789');
    expect(findTaxId('P.IVA 1785845308698', false)?.normalized).toBe('IT85845308698');
    // Not a bare national number that starts with such digits (a Polish NIP, an Italian partita IVA).
    expect(findTaxId('NIP 5112345678', false)?.normalized).toBe('5112345678');
    expect(findTaxId('P.IVA 47123456789', false)?.normalized).toBe('47123456789');
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
