import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AFRelationship, PDFArray, PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPublicInvoices, PUBLIC_INVOICES_FOLDER, withoutEmbeddedFiles } from '../../bench/accuracy/public-invoices.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDER = path.join(ROOT, PUBLIC_INVOICES_FOLDER);

async function eInvoicePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText('Rechnung 471102', { x: 50, y: 780, font, size: 14 });
  pdf.addPage([595, 842]);
  const xml = new TextEncoder().encode('<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>');
  await pdf.attach(xml, 'factur-x.xml', { mimeType: 'text/xml', afRelationship: AFRelationship.Data });
  return pdf.save();
}

describe('the printed page of an e-invoice', () => {
  it('has neither embedded files nor associated files left, and keeps its pages', async () => {
    const original = await PDFDocument.load(await eInvoicePdf());
    const embedded = (doc: PDFDocument) => doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.get(PDFName.of('EmbeddedFiles'));
    expect(embedded(original)).toBeDefined();
    expect(original.catalog.lookupMaybe(PDFName.of('AF'), PDFArray)).toBeDefined();

    const printed = await PDFDocument.load(await withoutEmbeddedFiles(await original.save()));
    expect(embedded(printed)).toBeUndefined();
    expect(printed.catalog.get(PDFName.of('AF'))).toBeUndefined();
    expect(printed.getPageCount()).toBe(2);
  });
});

describe('the public invoice corpus', () => {
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(path.join(os.tmpdir(), 'public-invoices-'));
  });
  afterAll(async () => {
    await rm(empty, { recursive: true, force: true });
  });

  it('is skipped where its folder is absent', async () => {
    expect(await loadPublicInvoices(path.join(empty, 'invoices-public'))).toBeUndefined();
  });

  it('lists every file of its folder once, each with its source, licence and checked labels', () => {
    const manifest = JSON.parse(readFileSync(path.join(FOLDER, 'manifest.json'), 'utf8')) as {
      documents: Array<{ file: string; kind: string; source: { repository: string; commit: string; path: string; licence: string }; labels: Record<string, unknown> }>;
    };
    const listed = manifest.documents.map((d) => d.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(readdirSync(path.join(FOLDER, 'files')).sort());
    for (const doc of manifest.documents) {
      expect(doc.source.repository, doc.file).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(doc.source.commit, doc.file).toMatch(/^[0-9a-f]{40}$/);
      expect(doc.source.path, doc.file).not.toBe('');
      expect(doc.source.licence, doc.file).not.toBe('');
      expect(['e-invoice', 'text-pdf', 'scan', 'image'], doc.file).toContain(doc.kind);
      const { date, currency, amount, amount_untaxed: untaxed, amount_tax: tax, ...rest } = doc.labels;
      if (date !== undefined) expect(date, doc.file).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (currency !== undefined) expect(currency, doc.file).toMatch(/^[A-Z]{3}$/);
      for (const value of [amount, untaxed, tax].filter((v) => v !== undefined)) expect(typeof value, doc.file).toBe('number');
      expect(Object.keys(rest).filter((key) => !['invoice_number', 'issuer', 'iban', 'vat'].includes(key)), doc.file).toEqual([]);
      expect(existsSync(path.join(FOLDER, 'files', doc.file))).toBe(true);
    }
  });

  it('tells the batch each document came with, the unit measured at first sight', async () => {
    const documents = (await loadPublicInvoices(FOLDER)) ?? [];
    expect(documents.length).toBeGreaterThan(0);
    for (const doc of documents) expect(Number.isInteger(doc.batch) && doc.batch >= 1, doc.name).toBe(true);
  });
});
