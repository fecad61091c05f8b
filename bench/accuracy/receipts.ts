import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { amountValue, dayFirstDate, type ExpectedField } from './score.js';

/** The dev receipts' fields (SROIE keys) by the model's field names. */
export const RECEIPT_FIELDS = ['VendorName', 'InvoiceDate', 'VendorAddress', 'InvoiceTotal'] as const;

export interface LabelledReceipt {
  name: string;
  image: string;
  expected: Partial<Record<(typeof RECEIPT_FIELDS)[number], ExpectedField>>;
}

interface SroieKey {
  company?: string;
  date?: string;
  address?: string;
  total?: string;
}

/**
 * The dev receipts of the shared corpora (`img/NNN.jpg`, `key/NNN.json`), undefined when the
 * folder is absent: they are never copied into the repository.
 */
export async function loadDevReceipts(corpora: string): Promise<LabelledReceipt[] | undefined> {
  const folder = path.join(corpora, 'receipts-dev');
  if (!existsSync(path.join(folder, 'key'))) return undefined;
  const names = (await readdir(path.join(folder, 'key'))).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (file) => {
      const name = file.replace(/\.json$/, '');
      const key = JSON.parse(await readFile(path.join(folder, 'key', file), 'utf8')) as SroieKey;
      const expected: LabelledReceipt['expected'] = {};
      if (key.company) expected.VendorName = { kind: 'text', printed: key.company, value: key.company };
      if (key.address) expected.VendorAddress = { kind: 'text', printed: key.address, value: key.address };
      const date = key.date && dayFirstDate(key.date);
      if (key.date && date) expected.InvoiceDate = { kind: 'date', printed: key.date, value: date };
      const total = key.total ? amountValue(key.total) : undefined;
      if (key.total && total !== undefined) expected.InvoiceTotal = { kind: 'amount', printed: key.total, value: total.toFixed(2) };
      return { name, image: path.join(folder, 'img', `${name}.jpg`), expected };
    }),
  );
}
