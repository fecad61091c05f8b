import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExpectedField } from './score.js';

/** The fields the e-invoice corpus labels, by the model's field names. */
export const EINVOICE_FIELDS = ['InvoiceId', 'InvoiceDate', 'VendorName', 'VendorTaxId', 'SubTotal', 'TotalTax', 'InvoiceTotal', 'Currency', 'IBAN'] as const;

export interface LabelledEInvoice {
  name: string;
  /** The file as published, its invoice data embedded. */
  withData: string;
  /** The same file with the data removed: only the printed page to read. */
  printedOnly: string;
  expected: Partial<Record<(typeof EINVOICE_FIELDS)[number], ExpectedField>>;
}

/** One labelled invoice of the corpus (`NAME.json`: a list holding one object). */
interface CorpusLabel {
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

/**
 * The dev e-invoices of the shared corpora (`with-xml/NAME.pdf`, `printed-only/NAME.pdf`,
 * `NAME.json`), undefined when the folder is absent: they are never copied into the repository.
 * The labels hold only values printed on the page, so both paths can reach every field.
 */
export async function loadDevEInvoices(corpora: string): Promise<LabelledEInvoice[] | undefined> {
  const folder = path.join(corpora, 'einvoices-dev');
  if (!existsSync(path.join(folder, 'with-xml'))) return undefined;
  const names = (await readdir(folder)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (file) => {
      const name = file.replace(/\.json$/, '');
      const [label] = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as CorpusLabel[];
      const expected: LabelledEInvoice['expected'] = {};
      const amount = (value: number) => ({ kind: 'amount' as const, printed: value.toFixed(2), value: value.toFixed(2) });
      if (label?.invoice_number) expected.InvoiceId = { kind: 'identifier', printed: label.invoice_number, value: label.invoice_number };
      if (label?.date) expected.InvoiceDate = { kind: 'date', printed: label.date, value: label.date };
      if (label?.issuer) expected.VendorName = { kind: 'text', printed: label.issuer, value: label.issuer };
      if (label?.vat) expected.VendorTaxId = { kind: 'identifier', printed: label.vat, value: label.vat };
      if (label?.amount_untaxed !== undefined) expected.SubTotal = amount(label.amount_untaxed);
      if (label?.amount_tax !== undefined) expected.TotalTax = amount(label.amount_tax);
      if (label?.amount !== undefined) expected.InvoiceTotal = amount(label.amount);
      if (label?.currency) expected.Currency = { kind: 'code', printed: label.currency, value: label.currency };
      if (label?.iban) expected.IBAN = { kind: 'identifier', printed: label.iban, value: label.iban };
      return { name, withData: path.join(folder, 'with-xml', `${name}.pdf`), printedOnly: path.join(folder, 'printed-only', `${name}.pdf`), expected };
    }),
  );
}
