import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expectedOfLabels, LABELLED_INVOICE_FIELDS, type InvoiceLabels, type LabelledInvoiceField } from './invoice-labels.js';
import type { ExpectedField } from './score.js';

/** The fields the e-invoice corpus labels, by the model's field names. */
export const EINVOICE_FIELDS = LABELLED_INVOICE_FIELDS;

export interface LabelledEInvoice {
  name: string;
  /** The file as published, its invoice data embedded. */
  withData: string;
  /** The same file with the data removed: only the printed page to read. */
  printedOnly: string;
  expected: Partial<Record<LabelledInvoiceField, ExpectedField>>;
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
      const [label] = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as InvoiceLabels[];
      const expected = expectedOfLabels(label);
      return { name, withData: path.join(folder, 'with-xml', `${name}.pdf`), printedOnly: path.join(folder, 'printed-only', `${name}.pdf`), expected };
    }),
  );
}
