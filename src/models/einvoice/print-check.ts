import { findAmounts, findDates, plain } from '../fields/normalize.js';
import type { DataField } from './invoice-data.js';

/** How a field's value is compared: each kind has its own normal form. */
type ValueKind = 'amount' | 'date' | 'identifier' | 'code' | 'text' | 'address';

const KINDS: Record<DataField, ValueKind> = {
  InvoiceId: 'identifier',
  InvoiceDate: 'date',
  DueDate: 'date',
  VendorName: 'text',
  VendorAddress: 'address',
  VendorTaxId: 'identifier',
  CustomerName: 'text',
  CustomerAddress: 'address',
  CustomerTaxId: 'identifier',
  SubTotal: 'amount',
  TotalTax: 'amount',
  InvoiceTotal: 'amount',
  AmountDue: 'amount',
  Currency: 'code',
  IBAN: 'identifier',
  BIC: 'identifier',
};

const letters = (text: string) => plain(text).replace(/[^\p{L}\p{N}]+/gu, '');
const identifier = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '').toUpperCase();
const cents = (text: string) => {
  const value = Number(text);
  return Number.isFinite(value) ? Math.round(value * 100) : undefined;
};

/**
 * Whether the printed page's reading of a field (its normalised value) says what the data says.
 * Addresses agree when every line of the data's address is in the printed one (the print writes
 * the country's name where the data has its code, and lines in its own order). A credit note's
 * data states its amounts positive (the document type says they are credited); its print may
 * write them with a minus.
 */
export function printAgrees(field: DataField, data: string, printed: string, creditNote = false): boolean {
  switch (KINDS[field]) {
    case 'amount': {
      const [want, got] = [cents(data), cents(printed)];
      return want !== undefined && got !== undefined && (want === got || (creditNote && want === -got));
    }
    case 'date':
      return data === printed;
    case 'identifier':
    case 'code':
      return identifier(data) === identifier(printed);
    case 'text':
      return letters(data) === letters(printed);
    case 'address': {
      const page = letters(printed);
      return addressLines(data).every((line) => page.includes(line));
    }
  }
}

/** The data's address lines worth finding on a page: not the bare country code. */
function addressLines(address: string): string[] {
  return address
    .split('\n')
    .filter((line) => !/^[A-Z]{2}$/.test(line.trim()))
    .map(letters)
    .filter((line) => line !== '');
}

/**
 * Whether the data's value is printed anywhere on the page, whatever the page reading chose for the
 * field: a reading that picked another number of the page is no contradiction of the print.
 */
export function printedOnPage(field: DataField, data: string, pageText: string, creditNote = false): boolean {
  switch (KINDS[field]) {
    case 'amount': {
      const wanted = cents(data);
      return wanted !== undefined && findAmounts(pageText).some((amount) => printAgrees(field, data, amount.value, creditNote));
    }
    case 'date':
      return [false, true].some((monthFirst) => findDates(pageText, { monthFirst }).some((date) => date.iso === data));
    case 'identifier':
    case 'code':
      return identifier(pageText).includes(identifier(data));
    case 'text':
      return letters(pageText).includes(letters(data));
    case 'address': {
      const page = letters(pageText);
      return addressLines(data).every((line) => page.includes(line));
    }
  }
}
