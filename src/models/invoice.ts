import { findBarcodes, parseKeyValuePayload, type PageBarcode } from './barcodes.js';
import { detectPerPage } from './chunks.js';
import { averageConfidence, keyValueOf, newEntity, notDetectedEntity, type Located, type PageRef } from './entities.js';
import { findInvoiceFields, invoiceFieldRules, LAST_ONE_WINS, type InvoiceField } from './invoice-fields.js';
import { layoutEntities } from './layout-entities.js';
import { isLineItemTable, lineItemColumn } from './line-items.js';
import type { Model } from './model.js';
import { dateOptionsFor, findCurrencies, pascalCase } from './normalize.js';
import { analyzeLayout } from './page-layout.js';
import { ocrLanguages } from './page-reader.js';
import { FISCAL_QR_INVOICE_FIELDS, fiscalQrValue, isFiscalQrPayload, readFiscalQrPair } from './pt-fiscal-qr.js';
import type { LayoutTable } from './tables.js';
import { runInRange, type PageText } from './text-lines.js';

interface InvoiceKind {
  groupName: string;
  /** Fields reported as not detected when missing, so a reviewer sees the gap. */
  expected: readonly InvoiceField[];
  /** Portuguese documents: NIF check digits, Portuguese OCR, the fiscal QR code. */
  portuguese: boolean;
}

/** A field's value as the document states it, printed or in the fiscal QR code. */
interface FieldValue {
  page: PageRef;
  where: Located;
  content: string;
  contentNormalized: string;
}

interface FiscalCode {
  page: PageRef;
  barcode: PageBarcode;
  pairs: ReadonlyMap<string, string>;
}

/**
 * The invoice and receipt models: the Layout output of every page, the item table as
 * LineItems, and typed fields (ids, dates, parties, tax numbers, totals, currency, IBAN), each
 * where the document states it. Portuguese invoices are checked against their fiscal QR code.
 */
function invoiceModel(kind: InvoiceKind): Model {
  return async (input) => {
    const dates = dateOptionsFor(input.language);
    const rules = invoiceFieldRules(dates, kind.portuguese);
    const fields: Array<FieldValue & { category: InvoiceField }> = [];
    const currencies: FieldValue[] = [];
    const fiscalCodes: FiscalCode[] = [];
    const languages = ocrLanguages(input, kind.portuguese ? ['pt'] : []);

    const chunks = await detectPerPage(input, { languages }, async (page, ref) => {
      const layout = analyzeLayout(page.words);
      const barcodes = await findBarcodes(page);
      // Item rows are not fields ("Total" heads the amount column); a block of totals found as a
      // table of two columns still holds fields.
      const itemLines = new Set(layout.tables.filter(isLineItemTable).flatMap((table) => [...table.lines]));
      for (const field of findInvoiceFields(layout.text, rules, itemLines)) {
        fields.push({ page: ref, category: field.category, where: field.value, content: field.value.text, contentNormalized: field.contentNormalized });
      }
      currencies.push(...currencyMentions(ref, layout.text));
      if (kind.portuguese) fiscalCodes.push(...fiscalQrCodes(ref, barcodes));
      return layoutEntities(ref, layout, barcodes, {
        dates,
        tableOptions: lineItemsOptions,
        payloadReader: (keys) => (kind.portuguese && isFiscalQrPayload(keys) ? readFiscalQrPair : undefined),
      });
    });

    const chosen = chooseFields(fields);
    const [fiscalCode] = fiscalCodes;
    if (fiscalCode) confirmWithFiscalCode(chosen, fiscalCode);
    const currency = chosen.get('Currency') ?? currencyOf(currencies, chosen.get('InvoiceTotal'));
    if (currency) chosen.set('Currency', currency);

    for (const [category, value] of chosen) {
      chunks[value.page.chunkNumber - 1]!.entities.push(fieldEntity(kind.groupName, category, value));
    }
    const [first] = chunks;
    if (first) {
      const firstPage = { pageNumber: first.pageNumber, chunkNumber: 1 };
      for (const category of kind.expected.filter((c) => !chosen.has(c))) {
        first.entities.push(notDetectedEntity(firstPage, FIELD_TYPE, category, kind.groupName));
      }
    }
    for (const chunk of chunks) chunk.averageConfidence = averageConfidence(chunk.entities);
    return { kind: 'document', chunks };
  };
}

const FIELD_TYPE = 'Field';

function fieldEntity(groupName: string, category: InvoiceField, value: FieldValue) {
  return newEntity(value.page, {
    type: FIELD_TYPE,
    category,
    groupName,
    confidence: value.where.confidence,
    keyValues: [
      keyValueOf(value.page, value.where, {
        category,
        categoryNormalized: category,
        content: value.content,
        contentNormalized: value.contentNormalized,
      }),
    ],
  });
}

function lineItemsOptions(table: LayoutTable) {
  return isLineItemTable(table) ? { category: 'LineItems', columnName: (header: string) => lineItemColumn(header) ?? pascalCase(header) } : {};
}

/** The first statement of each field in reading order; for totals the last (see LAST_ONE_WINS). */
function chooseFields(fields: ReadonlyArray<FieldValue & { category: InvoiceField }>): Map<InvoiceField, FieldValue> {
  const chosen = new Map<InvoiceField, FieldValue>();
  for (const { category, ...value } of fields) {
    if (LAST_ONE_WINS.has(category) || !chosen.has(category)) chosen.set(category, value);
  }
  return chosen;
}

function fiscalQrCodes(page: PageRef, barcodes: readonly PageBarcode[]): FiscalCode[] {
  return barcodes.flatMap((barcode) => {
    const payload = parseKeyValuePayload(barcode.text);
    const keys = payload?.pairs.map((p) => p.key) ?? [];
    return payload && isFiscalQrPayload(keys) ? [{ page, barcode, pairs: new Map(payload.pairs.map((p) => [p.key, p.value])) }] : [];
  });
}

/**
 * The fiscal QR code is written by certified invoicing software: a printed value it confirms
 * becomes certain, and where the print is missing or disagrees, the code's value is the field,
 * located at the code.
 */
function confirmWithFiscalCode(chosen: Map<InvoiceField, FieldValue>, code: FiscalCode): void {
  for (const [key, category] of Object.entries(FISCAL_QR_INVOICE_FIELDS)) {
    const raw = code.pairs.get(key);
    if (raw === undefined || category === undefined) continue;
    const stated = fiscalQrValue(key, raw);
    const printed = chosen.get(category);
    if (printed && sameValue(printed.contentNormalized, stated)) {
      chosen.set(category, { ...printed, where: { ...printed.where, confidence: 1 } });
    } else {
      chosen.set(category, { page: code.page, where: { box: code.barcode.box, confidence: 1, spans: [] }, content: raw, contentNormalized: stated });
    }
  }
}

/** Equal once spaces, case and a PT prefix of a tax number are set aside. */
function sameValue(a: string, b: string): boolean {
  const key = (value: string) => value.replace(/\s+/g, '').toUpperCase().replace(/^PT(?=\d{9}$)/, '');
  return key(a) === key(b);
}

function currencyMentions(page: PageRef, text: PageText): FieldValue[] {
  return findCurrencies(text.text).flatMap(({ code, index, length }) => {
    const run = runInRange(text, index, index + length);
    return run ? [{ page, where: run, content: run.text, contentNormalized: code }] : [];
  });
}

/** Without a currency label: the currency of the total, else the one the document mentions most. */
function currencyOf(mentions: readonly FieldValue[], total: FieldValue | undefined): FieldValue | undefined {
  const inTotal = total && mentions.find((m) => m.page.chunkNumber === total.page.chunkNumber && spansOverlap(m.where, total.where));
  if (inTotal) return inTotal;
  const counts = new Map<string, number>();
  for (const m of mentions) counts.set(m.contentNormalized, (counts.get(m.contentNormalized) ?? 0) + 1);
  const [top] = [...counts].sort((a, b) => b[1] - a[1]);
  return top && mentions.find((m) => m.contentNormalized === top[0]);
}

function spansOverlap(a: Located, b: Located): boolean {
  return a.spans.some((x) => b.spans.some((y) => x.offset < y.offset + y.length && y.offset < x.offset + x.length));
}

export const invoicesUniversalModel = invoiceModel({
  groupName: 'InvoiceFields',
  expected: ['InvoiceId', 'InvoiceDate', 'VendorName', 'InvoiceTotal'],
  portuguese: false,
});

export const invoicesPortugalModel = invoiceModel({
  groupName: 'InvoiceFields',
  expected: ['InvoiceId', 'InvoiceDate', 'VendorName', 'VendorTaxId', 'InvoiceTotal'],
  portuguese: true,
});

export const receiptsModel = invoiceModel({
  groupName: 'ReceiptFields',
  expected: ['VendorName', 'InvoiceDate', 'InvoiceTotal'],
  portuguese: false,
});
