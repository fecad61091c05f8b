import type { ExpectedField } from './score.js';

/**
 * The labels of a real invoice as the e-invoice corpora write them (the names of the invoice data
 * they were taken from), and the fields of the invoice model they score. A key is absent when
 * its value is not printed on the page.
 */
export const LABELLED_INVOICE_FIELDS = ['InvoiceId', 'InvoiceDate', 'VendorName', 'VendorTaxId', 'SubTotal', 'TotalTax', 'InvoiceTotal', 'Currency', 'IBAN'] as const;
export type LabelledInvoiceField = (typeof LABELLED_INVOICE_FIELDS)[number];

export interface InvoiceLabels {
  invoice_number?: string;
  date?: string;
  amount?: number;
  currency?: string;
  issuer?: string;
  amount_untaxed?: number;
  amount_tax?: number;
  iban?: string;
  vat?: string;
}

/** The expected fields of one labelled invoice. */
export function expectedOfLabels(labels: InvoiceLabels | undefined): Partial<Record<LabelledInvoiceField, ExpectedField>> {
  const expected: Partial<Record<LabelledInvoiceField, ExpectedField>> = {};
  if (!labels) return expected;
  const as = (kind: ExpectedField['kind'], value: string): ExpectedField => ({ kind, printed: value, value });
  const amount = (value: number): ExpectedField => as('amount', value.toFixed(2));
  if (labels.invoice_number) expected.InvoiceId = as('identifier', labels.invoice_number);
  if (labels.date) expected.InvoiceDate = as('date', labels.date);
  if (labels.issuer) expected.VendorName = as('text', labels.issuer);
  if (labels.vat) expected.VendorTaxId = as('identifier', labels.vat);
  if (labels.amount_untaxed !== undefined) expected.SubTotal = amount(labels.amount_untaxed);
  if (labels.amount_tax !== undefined) expected.TotalTax = amount(labels.amount_tax);
  if (labels.amount !== undefined) expected.InvoiceTotal = amount(labels.amount);
  if (labels.currency) expected.Currency = as('code', labels.currency);
  if (labels.iban) expected.IBAN = as('identifier', labels.iban);
  return expected;
}
