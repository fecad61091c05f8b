/**
 * E-invoices read from their own data: CII (Factur-X EN 16931 and MINIMUM), ZUGFeRD 1.0 and UBL
 * (Invoice, CreditNote) as XML sources and embedded in PDFs, checked against the printed page;
 * broken and hostile XML fall back to the print with a warning.
 */
import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { INVOICE_FIELDS } from '../../../src/models/fields/invoice-field-names.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { parseXml } from '../../../src/models/einvoice/xml-tree.js';
import { sniffFile } from '../../../src/engines/file-type.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, writeFixture } from '../document-fixtures.js';
import { ciiInvoice, HOSTILE_XML, pdfWithXml, printedLines, SAMPLE, ublInvoice, zugferd1Invoice } from './einvoice-fixtures.js';

/** Every field EN 16931 gives that the export has, as the export normalises them. */
const FULL = {
  InvoiceId: SAMPLE.number,
  InvoiceDate: SAMPLE.date,
  DueDate: SAMPLE.due,
  VendorName: SAMPLE.seller.name,
  VendorAddress: 'Industriestraße 7\n70173 Stuttgart\nDE',
  VendorTaxId: SAMPLE.seller.vat,
  CustomerName: SAMPLE.buyer.name,
  CustomerAddress: '12 rue des Lilas\n69003 Lyon\nFR',
  CustomerTaxId: SAMPLE.buyer.vat,
  SubTotal: SAMPLE.net,
  TotalTax: SAMPLE.tax,
  InvoiceTotal: SAMPLE.gross,
  AmountDue: SAMPLE.payable,
  Currency: 'EUR',
  IBAN: SAMPLE.iban,
  BIC: SAMPLE.bic,
};

const dataFields = (entities: readonly Entity[]) => entities.filter((e) => e.type === 'Field' && !e.notDetected);
const warnings = (entities: readonly Entity[]) => entities.filter((e) => e.type === 'Warning');
const lineItems = (entities: readonly Entity[]) => entities.find((e) => e.type === 'Table' && e.category === 'LineItems');

describe('an invoice XML as the task source', () => {
  const scratch = useScratchDir();
  const readXml = async (name: string, xml: string) => firstPageEntities(invoicesUniversalModel, await writeFixture(scratch.file(name), Buffer.from(xml)), 'xml');

  it.each([
    ['Factur-X CII, EN 16931', 'cii.xml', () => ciiInvoice(), 'CII', 'urn:cen.eu:en16931:2017'],
    ['ZUGFeRD 1.0', 'zugferd1.xml', () => zugferd1Invoice(), 'ZUGFeRD1', 'urn:ferd:CrossIndustryDocument:invoice:1p0:basic'],
    ['UBL Invoice (XRechnung, Peppol BIS)', 'ubl.xml', () => ublInvoice(), 'UBL', 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0'],
    ['UBL CreditNote', 'credit.xml', () => ublInvoice(SAMPLE, 'CreditNote'), 'UBL', 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0'],
  ])('%s: every field at confidence 1, marked as read from the data, and its lines', async (_, name, xml, syntax, profile) => {
    const entities = await readXml(name, xml());
    expect(fields(entities)).toEqual(FULL);
    for (const field of dataFields(entities)) {
      expect(field.confidence, field.category).toBe(1);
      expect(field.documentData, field.category).toMatchObject({ syntax, profile, fileName: null, print: 'noPrint', warning: null });
    }
    const table = lineItems(entities)?.table;
    expect(table?.rowCount).toBe(3);
    expect(table?.tableHeaders.map((h) => h.categoryNormalized)).toEqual(['Description', 'Quantity', 'Unit', 'UnitPrice', 'TaxRate', 'Amount']);
    expect(table?.tableRowsTableContent['1']).toBe('Drehmomentschlüssel 40-200 Nm\t5\tC62\t150.00\t19\t750.00');
    expect(warnings(entities)).toEqual([]);
  });

  it('reads a MINIMUM profile for what it has; the expected fields it lacks stay not detected', async () => {
    const entities = await readXml('minimum.xml', ciiInvoice(SAMPLE, 'minimum'));
    expect(fields(entities)).toEqual({
      InvoiceId: SAMPLE.number,
      InvoiceDate: SAMPLE.date,
      VendorName: SAMPLE.seller.name,
      VendorTaxId: SAMPLE.seller.vat,
      CustomerName: SAMPLE.buyer.name,
      SubTotal: SAMPLE.net,
      TotalTax: SAMPLE.tax,
      InvoiceTotal: SAMPLE.gross,
      AmountDue: SAMPLE.payable,
      Currency: 'EUR',
    });
    expect(lineItems(entities)).toBeUndefined();
  });

  it.each([
    ['billion laughs', () => HOSTILE_XML.billionLaughs(), /DTD/],
    ['an external entity', () => HOSTILE_XML.externalEntity(), /DTD/],
    ['10 000 levels of nesting', () => HOSTILE_XML.deepNesting(), /nests/],
    ['a text node of 2 MB', () => HOSTILE_XML.hugeText(2 * 1024 * 1024), /characters of text/],
    ['a file larger than allowed (20 MB)', () => HOSTILE_XML.hugeText(20 * 1024 * 1024), /bytes, more than/],
    ['a truncated invoice', () => HOSTILE_XML.broken(), /not well-formed/],
    ['XML that is no invoice', () => HOSTILE_XML.notAnInvoice(), /no invoice we read/],
  ])('%s: no field, a warning saying why, never an error', async (_, xml, reason) => {
    const entities = await readXml('hostile.xml', xml());
    expect(dataFields(entities)).toEqual([]);
    const [warning] = warnings(entities);
    expect(warning?.keyValues[0]?.content).toMatch(reason);
    expect(warning?.documentData?.warning).toMatch(reason);
    expect(JSON.stringify(entities)).not.toContain('root:');
    // The reviewer still sees what is missing.
    expect(entities.filter((e) => e.notDetected).map((e) => e.category)).toEqual(INVOICE_FIELDS.filter((f) => f !== 'VendorAddress'));
  });

  it('is sniffed as XML with or without a declaration or a byte order mark', async () => {
    for (const [name, xml] of [['declared.xml', ciiInvoice()], ['bom.xml', ublInvoice()], ['bare.xml', ublInvoice().replace(/^\uFEFF<\?xml[^>]*>\s*/, '')]] as const) {
      expect((await sniffFile(await writeFixture(scratch.file(name), Buffer.from(xml)))).kind, name).toBe('xml');
    }
    expect((await sniffFile(await writeFixture(scratch.file('notes.txt'), Buffer.from('just text < not xml')))).kind).toBe('unsupported');
  });
});

describe('a PDF that embeds its invoice data', () => {
  const scratch = useScratchDir();
  const readPdf = async (name: string, pdf: Uint8Array) => firstPageEntities(invoicesUniversalModel, await writeFixture(scratch.file(name), pdf), 'pdf');

  it('gives the data\'s fields, located where the print agrees, with no warning', async () => {
    const entities = await readPdf('facturx.pdf', await pdfWithXml(printedLines(), ciiInvoice()));
    expect(fields(entities)).toEqual(FULL);
    const total = entities.find((e) => e.category === 'InvoiceTotal')!;
    expect(total.confidence).toBe(1);
    expect(total.documentData).toMatchObject({ syntax: 'CII', fileName: 'factur-x.xml', print: 'agreed', warning: null });
    // Found on the page: the reviewer sees where.
    expect(total.keyValues[0]!.boundingBox.width).toBeGreaterThan(0);
    expect(dataFields(entities).filter((e) => e.documentData?.print === 'contradicted')).toEqual([]);
    expect(warnings(entities)).toEqual([]);
  });

  it('keeps a notDetected slot for each typed field neither the data nor the print gives', async () => {
    // A minimum-profile Factur-X (header totals only) on a page printing no IBAN and no due date.
    const entities = await readPdf('minimum.pdf', await pdfWithXml(printedLines().filter((l) => !l.startsWith('IBAN')), ciiInvoice(SAMPLE, 'minimum')));
    const slots = entities.filter((e) => e.notDetected).map((e) => e.category);
    expect(slots).toEqual(expect.arrayContaining(['DueDate', 'IBAN']));
    // Each typed field appears once: given or as its slot.
    const typed = entities.filter((e) => e.type === 'Field' && (INVOICE_FIELDS as readonly string[]).includes(e.category) && e.category !== 'VendorAddress');
    expect(typed.map((e) => e.category).sort()).toEqual(INVOICE_FIELDS.filter((f) => f !== 'VendorAddress').sort());
    expect(entities.find((e) => e.category === 'InvoiceTotal')).toMatchObject({ confidence: 1 });
  });

  it('keeps the data\'s value where the print contradicts it, with a warning on the field', async () => {
    const entities = await readPdf('contradiction.pdf', await pdfWithXml(printedLines(SAMPLE, { total: '1587.50' }), ciiInvoice()));
    const total = entities.find((e) => e.category === 'InvoiceTotal')!;
    expect(total.keyValues[0]!.contentNormalized).toBe(SAMPLE.gross);
    expect(total.documentData).toMatchObject({ print: 'contradicted', printedContent: expect.stringContaining('1587,50') });
    expect(total.documentData?.warning).toMatch(/printed page reads "1587,50.*1487\.50/);
    // Not certain: a reviewer must not skip it.
    expect(total.confidence).toBeLessThan(0.9);
    // The fields the print agrees with carry none, and stay certain.
    const id = entities.find((e) => e.category === 'InvoiceId')!;
    expect(id.documentData).toMatchObject({ print: 'agreed', warning: null });
    expect(id.confidence).toBe(1);
  });

  it('reads any embedded .xml whose root is an invoice, whatever its name', async () => {
    const entities = await readPdf('named.pdf', await pdfWithXml(printedLines(), ublInvoice(), 'rechnung-0815.xml'));
    expect(fields(entities)).toMatchObject({ InvoiceId: SAMPLE.number, InvoiceTotal: SAMPLE.gross });
    expect(entities.find((e) => e.category === 'InvoiceId')!.documentData).toMatchObject({ syntax: 'UBL', fileName: 'rechnung-0815.xml' });
  });

  it('finds the XML named only among the catalog\'s associated files', async () => {
    const pdf = await pdfWithXml(printedLines(), ciiInvoice(), 'factur-x.xml', { associatedOnly: true });
    expect((await PDFDocument.load(pdf)).catalog.get(PDFName.of('Names'))).toBeUndefined();
    const entities = await readPdf('associated.pdf', pdf);
    expect(entities.find((e) => e.category === 'InvoiceTotal')!.documentData).toMatchObject({ syntax: 'CII', fileName: 'factur-x.xml' });
  });

  it('never inflates an embedded file past the size an invoice XML may be (a compression bomb)', async () => {
    // 40 MB of XML deflate to a few tens of kilobytes in the PDF.
    const pdf = await pdfWithXml(printedLines(), HOSTILE_XML.hugeText(40 * 1024 * 1024));
    expect(pdf.byteLength).toBeLessThan(1024 * 1024);
    const entities = await readPdf('bomb.pdf', pdf);
    expect(fields(entities)).toMatchObject({ InvoiceId: SAMPLE.number, InvoiceTotal: SAMPLE.gross });
    expect(warnings(entities)[0]?.keyValues[0]?.content).toMatch(/factur-x\.xml: the embedded file is larger than/);
  });

  it.each([
    ['billion laughs', () => HOSTILE_XML.billionLaughs()],
    ['an external entity', () => HOSTILE_XML.externalEntity()],
    ['deep nesting', () => HOSTILE_XML.deepNesting()],
    ['broken XML', () => HOSTILE_XML.broken()],
  ])('embedding %s: the printed page\'s fields, and a warning', async (_, xml) => {
    const entities = await readPdf('hostile.pdf', await pdfWithXml(printedLines(), xml()));
    expect(fields(entities)).toMatchObject({ InvoiceId: SAMPLE.number, InvoiceTotal: SAMPLE.gross });
    expect(dataFields(entities).filter((e) => e.documentData)).toEqual([]);
    expect(warnings(entities)[0]?.keyValues[0]?.content).toMatch(/embedded invoice data was not used.*factur-x\.xml/);
  });

  it('without embedded data reads as before: no data marks, no warning', async () => {
    const entities = await readPdf('plain.pdf', await pdfWithXml(printedLines()));
    expect(fields(entities)).toMatchObject({ InvoiceId: SAMPLE.number, InvoiceTotal: SAMPLE.gross });
    expect(entities.filter((e) => e.documentData)).toEqual([]);
  });
});

describe('the XML reader', () => {
  it('reads the encoding its declaration names: UTF-8, ISO-8859-1, UTF-16 with its byte order mark', () => {
    const xml = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?><Name>Müller Straße</Name>`;
    expect(parseXml(Buffer.from(xml('UTF-8'), 'utf8'))).toMatchObject({ ok: true, root: { text: 'Müller Straße' } });
    expect(parseXml(Buffer.from(xml('ISO-8859-1'), 'latin1'))).toMatchObject({ ok: true, root: { text: 'Müller Straße' } });
    expect(parseXml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml('UTF-16'), 'utf16le')]))).toMatchObject({ ok: true, root: { text: 'Müller Straße' } });
  });

  it('never expands an entity or reads a file', () => {
    for (const xml of [HOSTILE_XML.billionLaughs(), HOSTILE_XML.externalEntity()]) {
      const parsed = parseXml(xml);
      expect(parsed.ok).toBe(false);
    }
    // Without a DTD, an undeclared entity is an error, not an expansion.
    expect(parseXml('<a>&xxe;</a>')).toMatchObject({ ok: false, reason: expect.stringMatching(/not well-formed/) });
    expect(parseXml('<a>1 &amp; 2 &#x41;</a>')).toMatchObject({ ok: true, root: { text: '1 & 2 A' } });
  });
});
