import type { InvoiceField } from '../fields/invoice-field-names.js';
import type { PayloadPairReader } from '../page/layout-entities.js';
import { compactDate } from '../fields/normalize.js';

/**
 * The QR code of Portuguese invoices (Portaria n.º 195/2020): "A:<NIF>*B:<NIF>*...*S:<text>".
 * Each key is named here; its date is normalised like the printed ones.
 */

// I = mainland Portugal, J = Azores, K = Madeira: the same eight VAT summary fields per region.
const REGION_FIELDS = [
  'TaxCountryRegion',
  'ExemptTaxableBase',
  'ReducedRateTaxableBase',
  'ReducedRateVat',
  'IntermediateRateTaxableBase',
  'IntermediateRateVat',
  'NormalRateTaxableBase',
  'NormalRateVat',
] as const;
const REGIONS = { I: '', J: 'Azores', K: 'Madeira' } as const;

const FIELD_NAMES: Readonly<Record<string, string>> = {
  A: 'IssuerTaxId',
  B: 'BuyerTaxId',
  C: 'BuyerCountry',
  D: 'DocumentType',
  E: 'DocumentStatus',
  F: 'DocumentDate',
  G: 'DocumentId',
  H: 'Atcud',
  L: 'NonTaxableAmount',
  M: 'StampDuty',
  N: 'TotalTaxes',
  O: 'GrossTotal',
  P: 'WithholdingTax',
  Q: 'HashCharacters',
  R: 'CertificateNumber',
  S: 'OtherInformation',
  ...Object.fromEntries(
    Object.entries(REGIONS).flatMap(([letter, region]) => REGION_FIELDS.map((field, i) => [`${letter}${i + 1}`, `${region}${field}`])),
  ),
};

/** Which invoice field a fiscal QR key states, so the code confirms (or supplies) the printed field. */
export const FISCAL_QR_INVOICE_FIELDS: Readonly<Partial<Record<string, InvoiceField>>> = {
  A: 'VendorTaxId',
  B: 'CustomerTaxId',
  F: 'InvoiceDate',
  G: 'InvoiceId',
  N: 'TotalTax',
  O: 'InvoiceTotal',
};

/** A payload is a fiscal QR code when it has the mandatory issuer, buyer, type, date, id and ATCUD keys. */
export function isFiscalQrPayload(keys: readonly string[]): boolean {
  return ['A', 'B', 'D', 'F', 'G', 'H'].every((key) => keys.includes(key));
}

export const readFiscalQrPair: PayloadPairReader = (key, value) => ({
  categoryNormalized: FIELD_NAMES[key] ?? key,
  contentNormalized: fiscalQrValue(key, value),
});

/** The normalised value of a key: the date (yyyymmdd) in ISO; amounts already are plain decimals. */
export function fiscalQrValue(key: string, value: string): string {
  return (key === 'F' ? compactDate(value) : undefined) ?? value.trim();
}
