/**
 * The labelled corpus of public invoices (bench/corpora/invoices-public): real invoices published
 * in open-source repositories (e-invoices with their printed page, text PDFs, scans, images), each
 * with its source, licence and labels in `manifest.json`. The documents are bench data kept in the
 * repository beside the manifest, never product code.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import type { FileKind } from '../../src/engines/file-type.js';
import { expectedOfLabels, LABELLED_INVOICE_FIELDS, type InvoiceLabels, type LabelledInvoiceField } from './invoice-labels.js';
import type { ExpectedField } from './score.js';

/** The fields the corpus labels, by the model's field names (the e-invoice data's own fields). */
export const PUBLIC_INVOICE_FIELDS = LABELLED_INVOICE_FIELDS;
export type PublicInvoiceField = LabelledInvoiceField;

/** How a document was delivered: an e-invoice (PDF carrying its data), a text PDF, a scan, or an image. */
export type PublicInvoiceKind = 'e-invoice' | 'text-pdf' | 'scan' | 'image';

interface ManifestEntry {
  file: string;
  kind: PublicInvoiceKind;
  country: string;
  language: string;
  labels: InvoiceLabels;
  batch: number;
}

export interface PublicInvoice {
  name: string;
  file: string;
  kind: PublicInvoiceKind;
  country: string;
  language: string;
  /** The batch the document was added with (each batch is measured at first sight before study). */
  batch: number;
  expected: Partial<Record<PublicInvoiceField, ExpectedField>>;
}

export const PUBLIC_INVOICES_FOLDER = path.join('bench', 'corpora', 'invoices-public');

/** The corpus of `folder` (its manifest and files), undefined when the folder or its files are absent. */
export async function loadPublicInvoices(folder: string): Promise<PublicInvoice[] | undefined> {
  const manifestFile = path.join(folder, 'manifest.json');
  if (!existsSync(manifestFile) || !existsSync(path.join(folder, 'files'))) return undefined;
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { documents: ManifestEntry[] };
  return manifest.documents.map((entry) => ({
    name: entry.file.replace(/\.[a-z]+$/i, ''),
    file: path.join(folder, 'files', entry.file),
    kind: entry.kind,
    country: entry.country,
    language: entry.language,
    batch: entry.batch,
    expected: expectedOfLabels(entry.labels),
  }));
}

export function fileKindOf(file: string): FileKind {
  return /\.pdf$/i.test(file) ? 'pdf' : 'image';
}

/**
 * The PDF as a reader without e-invoice support sees it: the embedded files (the EmbeddedFiles name
 * tree) and the catalog's associated files (/AF) removed, so a model that reads embedded invoice
 * data has to read the printed page. Done in memory rather than storing a second copy of each file.
 */
export async function withoutEmbeddedFiles(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  names?.delete(PDFName.of('EmbeddedFiles'));
  pdf.catalog.delete(PDFName.of('AF'));
  return pdf.save({ updateFieldAppearances: false });
}

/** Writes the printed-only copy of an e-invoice into `dir` and returns its path. */
export async function printedOnlyCopy(file: string, dir: string): Promise<string> {
  const target = path.join(dir, `printed-${path.basename(file)}`);
  await writeFile(target, await withoutEmbeddedFiles(await readFile(file)));
  return target;
}

export async function pageCount(file: string): Promise<number> {
  if (fileKindOf(file) !== 'pdf') return 1;
  const pdf = await PDFDocument.load(await readFile(file), { updateMetadata: false, ignoreEncryption: true });
  return pdf.getPageCount();
}
