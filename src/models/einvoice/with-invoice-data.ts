import { open, readFile } from 'node:fs/promises';
import type { Entity } from '../../domain/entities.js';
import { averageConfidence, notDetectedEntity, type PageRef } from '../page/text/entities.js';
import type { EntityChunk } from '../page/chunks.js';
import type { InvoiceField } from '../fields/invoice-field-names.js';
import type { DocumentResult, Model, ModelInput } from '../model.js';
import { dataFieldEntity, dataLineItemsEntity, dataWarningEntity, documentDataOf, FIELD_GROUP, type DataOrigin, type PrintedPlace } from './data-entities.js';
import { embeddedXmlFiles } from './embedded-xml.js';
import type { DataField } from './invoice-data.js';
import { printAgrees, printedOnPage } from './print-check.js';
import { readInvoiceXml } from './read-invoice-xml.js';
import { XML_LIMITS } from './xml-tree.js';

/** What the document's data gave: its fields, or why it could not be used. */
type FoundData = { ok: true; origin: DataOrigin } | { ok: false; warning: string };

const FIRST_PAGE: PageRef = { pageNumber: 1, chunkNumber: 1 };

/**
 * An invoice model that reads the document's own data first: an e-invoice's XML embedded in the
 * PDF (Factur-X, ZUGFeRD, XRechnung) or an XML file as the source (CII or UBL). Its fields are
 * certain and replace the printed page's reading of them; the printed page is still read, and
 * where it contradicts the data the field carries a warning. Data that cannot be used (broken,
 * hostile, no invoice) leaves the printed reading with a Warning entity, never a failed task.
 */
export function withInvoiceData(model: Model, expected: readonly InvoiceField[]): Model {
  return async (input) => {
    if (input.kind === 'xml') return xmlSourceResult(input, expected);
    const found = input.kind === 'pdf' ? await embeddedData(input.sourcePath) : undefined;
    const printed = await model(input);
    if (!found || printed.kind !== 'document') return printed;
    const chunks = printed.chunks as EntityChunk[];
    if (!found.ok) {
      chunks[0]?.entities.push(dataWarningEntity(chunks[0].entities[0] ? pageOf(chunks[0].entities[0]) : FIRST_PAGE, found.warning));
      return { ...printed, chunks: withAverages(chunks) };
    }
    return { ...printed, chunks: withAverages(mergeWithPrint(chunks, found.origin)) };
  };
}

const pageOf = (entity: Entity): PageRef => ({ pageNumber: entity.pageNumber, chunkNumber: entity.chunkNumber });

/** The invoice data of a PDF: its first embedded XML that is an invoice we read; undefined when it embeds none. */
async function embeddedData(pdfPath: string): Promise<FoundData | undefined> {
  // A PDF the reader cannot open fails on the printed path with its own reason.
  const files = await embeddedXmlFiles(pdfPath).catch(() => []);
  const problems: string[] = [];
  for (const file of files) {
    if ('problem' in file) {
      problems.push(`${file.fileName}: ${file.problem}`);
      continue;
    }
    const reading = readInvoiceXml(file.content);
    if (reading.ok) return { ok: true, origin: { data: reading.data, fileName: file.fileName } };
    problems.push(`${file.fileName}: ${reading.reason}`);
  }
  return problems.length === 0 ? undefined : { ok: false, warning: `The document's embedded invoice data was not used, the fields are read from the printed page (${problems.join('; ')})` };
}

/** An XML file as the task: its data's fields on one page, or a warning when it is no invoice we can read. */
async function xmlSourceResult(input: ModelInput, expected: readonly InvoiceField[]): Promise<DocumentResult> {
  // Read no more than the limit allows: the parse refuses anything larger anyway.
  const bytes = await readBounded(input.sourcePath, XML_LIMITS.maxBytes + 1);
  const reading = readInvoiceXml(bytes);
  const entities: Entity[] = [];
  if (reading.ok) {
    const origin: DataOrigin = { data: reading.data, fileName: null };
    const documentData = documentDataOf(origin, { print: 'noPrint', printedContent: null, warning: null });
    for (const [field, value] of Object.entries(reading.data.fields) as Array<[DataField, string]>) entities.push(dataFieldEntity(FIRST_PAGE, field, value, documentData));
    if (reading.data.lineItems.length > 0) entities.push(dataLineItemsEntity(FIRST_PAGE, reading.data.lineItems, documentData));
  } else {
    entities.push(dataWarningEntity(FIRST_PAGE, `The XML file could not be read as an invoice: ${reading.reason}`));
  }
  const found = new Set(entities.map((e) => e.category));
  for (const field of expected.filter((f) => !found.has(f))) entities.push(notDetectedEntity(FIRST_PAGE, 'Field', field, FIELD_GROUP));
  return { kind: 'document', chunks: [{ pageNumber: 1, entities, averageConfidence: averageConfidence(entities) }] };
}

async function readBounded(filePath: string, maxBytes: number): Promise<Buffer> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    if (size <= maxBytes) return await readFile(file);
    const head = Buffer.alloc(maxBytes);
    await file.read(head, 0, maxBytes, 0);
    return head;
  } finally {
    await file.close();
  }
}

/**
 * The printed reading with the data's fields in place of its own: each data field where the page
 * reading found the same value (or, not located, on the first page), checked against the print;
 * the data's line items in place of the printed item tables.
 */
function mergeWithPrint(chunks: EntityChunk[], origin: DataOrigin): EntityChunk[] {
  const all = chunks.flatMap((chunk) => chunk.entities);
  const pageText = all.filter((e) => e.type === 'Line').map((e) => e.keyValues[0]?.content ?? '').join('\n');
  const printed = new Map<string, Entity>();
  for (const entity of all) {
    if (entity.type === 'Field' && entity.groupName === FIELD_GROUP && !entity.notDetected && !printed.has(entity.category)) printed.set(entity.category, entity);
  }
  const { fields, lineItems } = origin.data;
  const replaced = (entity: Entity) =>
    (entity.type === 'Field' && entity.groupName === FIELD_GROUP && entity.category in fields) || (lineItems.length > 0 && entity.type === 'Table' && entity.category === 'LineItems');
  const merged = chunks.map((chunk) => ({ ...chunk, entities: chunk.entities.filter((entity) => !replaced(entity)) }));
  const first = merged[0];
  if (!first) return merged;
  const firstPage: PageRef = { pageNumber: first.pageNumber, chunkNumber: 1 };
  for (const [field, value] of Object.entries(fields) as Array<[DataField, string]>) {
    const reading = printed.get(field);
    const readValue = reading?.keyValues[0];
    const readNormalized = readValue ? (readValue.contentNormalized ?? readValue.content) : undefined;
    const sameAsRead = readNormalized !== undefined && printAgrees(field, value, readNormalized, origin.data.creditNote);
    const onPage = sameAsRead || printedOnPage(field, value, pageText, origin.data.creditNote);
    const place: PrintedPlace | undefined = sameAsRead && reading && readValue ? { page: pageOf(reading), box: boxOf(readValue.boundingBox), spans: readValue.spans } : undefined;
    const contradicted = readValue !== undefined && !onPage;
    const documentData = documentDataOf(origin, {
      print: onPage ? 'agreed' : contradicted ? 'contradicted' : 'notRead',
      printedContent: contradicted ? readValue.content : null,
      warning: contradicted ? `The printed page reads "${readValue.content}" for ${field}, the invoice's data "${value}": the data's value is kept; check which one is right` : null,
    });
    const entity = dataFieldEntity(firstPage, field, value, documentData, place);
    merged[entity.chunkNumber - 1]!.entities.push(entity);
  }
  if (lineItems.length > 0) first.entities.push(dataLineItemsEntity(firstPage, lineItems, documentDataOf(origin, { print: null, printedContent: null, warning: null })));
  return merged;
}

function boxOf(box: { left: number; top: number; width: number; height: number }) {
  return { left: box.left, top: box.top, width: box.width, height: box.height };
}

function withAverages(chunks: EntityChunk[]): EntityChunk[] {
  return chunks.map((chunk) => ({ ...chunk, averageConfidence: averageConfidence(chunk.entities) }));
}
