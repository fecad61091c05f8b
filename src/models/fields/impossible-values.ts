/**
 * Values no document can hold, whatever a label or a layout says: a customer tax id that is the
 * seller's own, a party's name that is a contact line (a phone number, an e-mail, "Ansprechpartner:
 * ..."), a date outside the years invoices are processed for, amounts that do not add up.
 * Such a value is never given at a confidence a reviewer would skip, and a review that left it
 * untouched does not confirm it (the reviewer may simply not have looked).
 */
import type { InvoiceField } from './invoice-field-names.js';

/** Earliest plausible document date; and how far ahead a date may lie (an invoice dated for next year's service). */
const EARLIEST_DATE = '1990-01-01';
const LATEST_AHEAD_DAYS = 366;
/**
 * Net + tax may differ from gross by a cent of rounding; and by up to half a unit when the gross is
 * rounded for cash (to five cents, or to a whole unit with a "round off" line).
 */
const ROUNDING_CENTS = 1;
const CASH_ROUNDING_CENTS = 50;
/** The confidence an impossible value keeps at most: well below the 0.9 from which a reviewer may skip it. */
export const IMPOSSIBLE_CAP = 0.5;

const DATE_FIELDS: readonly InvoiceField[] = ['InvoiceDate', 'DueDate'];
const NAME_FIELDS: readonly InvoiceField[] = ['VendorName', 'CustomerName'];

/**
 * The contact lines printed beside a party's address: a phone or fax label before a number, an
 * e-mail or web label, a contact person's label. What follows them is never the party's name.
 */
const CONTACT_LINES: readonly RegExp[] = [
  /^(?:tel|telefon|t[ée]l[ée]phone|phone|fon|fax|mobil|mobile|handy)\b\.?\s*[:.]?\s*[+\d(]/i,
  /^(?:e-?mail|mail|courriel|web|internet|kontakt|contact)\s*:/i,
  /^(?:ansprechpartner|sachbearbeiter|bearbeiter)(?:in)?\b/i,
  /@|https?:\/\/|\bwww\./i,
  /^\+?[\d\s()./-]{6,}$/,
];

/** A name that is a contact line: labelled as one ("Tel.: ...", "E-Mail: ...", "Ansprechpartner: ..."), an e-mail or web address, or a phone number. */
export function isContactLine(name: string): boolean {
  const text = name.trim();
  return CONTACT_LINES.some((pattern) => pattern.test(text));
}
export const AMOUNT_FIELDS: readonly InvoiceField[] = ['SubTotal', 'TotalTax', 'InvoiceTotal'];

/** A tax id without spaces, marks or its country prefix, for comparing "PT501964843" with "501 964 843". */
function taxKey(taxId: string): string {
  return taxId.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^[A-Z]{2}(?=\d)/, '');
}

const cents = (value: string) => Math.round(Number(value) * 100);

/**
 * The fields whose normalised values (ISO dates, dot-decimal amounts) cannot be right together.
 * Amounts that do not add up are all three suspect: which one is wrong, the sum does not say; a
 * total that is net and tax less a tax the page says the buyer withholds (`withheld`, in cents)
 * adds up.
 */
export function impossibleFields(values: Partial<Record<InvoiceField, string>>, now: Date, withheld: readonly number[] = []): Set<InvoiceField> {
  const impossible = new Set<InvoiceField>();
  const seller = values.VendorTaxId && taxKey(values.VendorTaxId);
  if (seller && values.CustomerTaxId && taxKey(values.CustomerTaxId) === seller) impossible.add('CustomerTaxId');
  for (const field of NAME_FIELDS) if (values[field] && isContactLine(values[field])) impossible.add(field);

  const latest = new Date(now.getTime() + LATEST_AHEAD_DAYS * 86_400_000).toISOString().slice(0, 10);
  for (const field of DATE_FIELDS) {
    const date = values[field];
    if (date && /^\d{4}-\d{2}-\d{2}$/.test(date) && (date < EARLIEST_DATE || date > latest)) impossible.add(field);
  }

  const [net, tax, gross] = AMOUNT_FIELDS.map((f) => values[f]).map((v) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? cents(v) : undefined));
  const off = net !== undefined && tax !== undefined && gross !== undefined ? Math.min(Math.abs(net + tax - gross), ...withheld.map((w) => Math.abs(net + tax - Math.abs(w) - gross))) : 0;
  if (off > ROUNDING_CENTS && !(off <= CASH_ROUNDING_CENTS && gross! % 5 === 0)) {
    for (const field of AMOUNT_FIELDS) impossible.add(field);
  }
  return impossible;
}

/** The chosen fields with each impossible value's confidence capped (chooseFields and the profile's choice end with it). */
export function capImpossible<T extends { contentNormalized: string; confidence: number }>(chosen: Map<InvoiceField, T>, now: Date = new Date(), withheld: readonly number[] = []): void {
  const values = Object.fromEntries([...chosen].map(([field, value]) => [field, value.contentNormalized]));
  for (const field of impossibleFields(values, now, withheld)) {
    const value = chosen.get(field)!;
    chosen.set(field, { ...value, confidence: Math.min(value.confidence, IMPOSSIBLE_CAP) });
  }
}
