import type { InvoiceField } from '../fields/invoice-field-names.js';

/**
 * Fields only an invoice's data gives (EN 16931 terms the printed-page reading has no field for):
 * the buyer's address, the amount due for payment and the payee bank's BIC.
 */
export const DATA_ONLY_FIELDS = ['CustomerAddress', 'AmountDue', 'BIC'] as const;
export type DataField = InvoiceField | (typeof DATA_ONLY_FIELDS)[number];

/** One invoice line as its data states it; amounts as plain decimals. */
export interface DataLineItem {
  description?: string;
  productCode?: string;
  quantity?: string;
  unit?: string;
  unitPrice?: string;
  taxRate?: string;
  amount?: string;
}

/** The syntaxes an invoice's data comes in: UN/CEFACT CII (Factur-X, ZUGFeRD 2, XRechnung), ZUGFeRD 1.0's CrossIndustryDocument, OASIS UBL (XRechnung, Peppol BIS). */
export type DataSyntax = 'CII' | 'ZUGFeRD1' | 'UBL';

/**
 * What an invoice's own data says, in the export's terms: every field as the export writes its
 * normalised value (dates yyyy-mm-dd, amounts plain decimals, identifiers without spaces, ISO
 * currency codes; names and addresses as the data has them, address lines joined by line feeds).
 */
export interface InvoiceData {
  syntax: DataSyntax;
  /** The specification identifier (Factur-X/ZUGFeRD profile, XRechnung or Peppol customization), when stated. */
  profile?: string;
  creditNote: boolean;
  fields: Partial<Record<DataField, string>>;
  lineItems: DataLineItem[];
}

/** A date of the data as yyyy-mm-dd: CII's format 102 (yyyyMMdd) or UBL's xsd:date; undefined when it is neither or no real date. */
export function dataDate(text: string | undefined): string | undefined {
  const m = /^\s*(\d{4})-?(\d{2})-?(\d{2})/.exec(text ?? '');
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** An amount of the data (xsd:decimal) as a plain decimal with at least two decimals; undefined when it is no number. */
export function dataAmount(text: string | undefined): string | undefined {
  const value = (text ?? '').trim();
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) return undefined;
  const [whole = '0', fraction = ''] = value.replace(/^\+/, '').split('.');
  return `${whole.replace(/^(-?)0+(?=\d)/, '$1') || '0'}.${fraction.padEnd(2, '0')}`;
}

/** A decimal that is no money (a quantity, a rate): as the data writes it, trailing zeros of the fraction dropped. */
export function dataNumber(text: string | undefined): string | undefined {
  const value = (text ?? '').trim();
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) return undefined;
  return value.replace(/^\+/, '').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** An identifier (VAT id, IBAN, BIC) without spaces, upper case. */
export function dataIdentifier(text: string | undefined): string | undefined {
  const value = (text ?? '').replace(/\s+/g, '').toUpperCase();
  return value === '' ? undefined : value;
}

/** A name or free text with its runs of white space made one space. */
export function dataText(text: string | undefined): string | undefined {
  const value = (text ?? '').replace(/\s+/g, ' ').trim();
  return value === '' ? undefined : value;
}

/** Address lines, the postcode and city on one line, the country code last, joined by line feeds. */
export function dataAddress(parts: { lines: Array<string | undefined>; postcode?: string; city?: string; region?: string; country?: string }): string | undefined {
  const lines = [
    ...parts.lines.map(dataText),
    dataText([parts.postcode, parts.city].filter(Boolean).join(' ')),
    dataText(parts.region),
    dataText(parts.country),
  ].filter((line): line is string => line !== undefined);
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** Drops undefined values, so a field the data lacks is absent rather than undefined. */
export function definedFields(fields: Partial<Record<DataField, string | undefined>>): Partial<Record<DataField, string>> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Record<DataField, string>>;
}
