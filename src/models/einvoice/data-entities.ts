import type { Cell, DocumentDataSource, Entity, Header } from '../../domain/entities.js';
import { keyValueOf, newEntity, type PageRef } from '../page/text/entities.js';
import { cornerPoints, geometryOf, toBoundingBox, type Box } from '../page/text/geometry.js';
import type { DataField, DataLineItem, InvoiceData } from './invoice-data.js';

/** Where an invoice's data came from: the embedded file's name, or null for an XML source. */
export interface DataOrigin {
  data: InvoiceData;
  fileName: string | null;
}

/** Where a value read from data is on the page, when the printed page states it there. */
export interface PrintedPlace {
  page: PageRef;
  box: Box;
  spans: Array<{ offset: number; length: number }>;
}

/** The data's values have no place on a page unless the print locates them. */
const NOWHERE: Box = { left: 0, top: 0, width: 0, height: 0 };

export const FIELD_GROUP = 'InvoiceFields';

export function documentDataOf(origin: DataOrigin | undefined, check: Pick<DocumentDataSource, 'print' | 'printedContent' | 'warning'>): DocumentDataSource {
  return { syntax: origin?.data.syntax ?? null, profile: origin?.data.profile ?? null, fileName: origin?.fileName ?? null, ...check };
}

/**
 * A typed field read from the invoice's data: certain (confidence 1), its content the data's value
 * (what a reviewer compares with the print), located where the print states it, if it does. A value
 * the print contradicts is kept but not certain: which of the two the issuer meant is for a
 * reviewer to decide, so it must not pass as a field a reviewer may skip.
 */
export const CONTRADICTED_CONFIDENCE = 0.5;

export function dataFieldEntity(page: PageRef, field: DataField, value: string, documentData: DocumentDataSource, place?: PrintedPlace): Entity {
  const where = place ?? { page, box: NOWHERE, spans: [] };
  const confidence = documentData.print === 'contradicted' ? CONTRADICTED_CONFIDENCE : 1;
  const entity = newEntity(where.page, {
    type: 'Field',
    category: field,
    groupName: FIELD_GROUP,
    confidence,
    keyValues: [keyValueOf(where.page, { box: where.box, confidence, spans: where.spans }, { category: field, categoryNormalized: field, content: value, contentNormalized: value })],
  });
  return { ...entity, documentData };
}

/** Why the document's data could not be used (or what else a reviewer should know of it): a Warning entity, certain. */
export function dataWarningEntity(page: PageRef, message: string, origin?: DataOrigin): Entity {
  const entity = newEntity(page, {
    type: 'Warning',
    category: 'DocumentData',
    groupName: FIELD_GROUP,
    confidence: 1,
    keyValues: [keyValueOf(page, { box: NOWHERE, confidence: 1, spans: [] }, { category: 'DocumentData', categoryNormalized: 'DocumentData', content: message, contentNormalized: null })],
  });
  return { ...entity, documentData: documentDataOf(origin, { print: null, printedContent: null, warning: message }) };
}

/** The columns of a data line-item table, in this order, named as the printed item tables name theirs. */
const LINE_COLUMNS: ReadonlyArray<readonly [keyof DataLineItem, string]> = [
  ['productCode', 'ProductCode'],
  ['description', 'Description'],
  ['quantity', 'Quantity'],
  ['unit', 'Unit'],
  ['unitPrice', 'UnitPrice'],
  ['taxRate', 'TaxRate'],
  ['amount', 'Amount'],
];

/** The data's invoice lines as a LineItems table (one row per line; only the columns some line has). */
export function dataLineItemsEntity(page: PageRef, lines: readonly DataLineItem[], documentData: DocumentDataSource): Entity {
  const columns = LINE_COLUMNS.filter(([key]) => lines.some((line) => line[key] !== undefined));
  const cellOf = (rowIndex: number, columnIndex: number, content: string): Cell => ({ ...geometryOf(NOWHERE, 1), rowIndex, columnIndex, content, contentNormalized: content, pageNumber: page.pageNumber });
  const tableHeaders: Header[] = columns.map(([, name], columnIndex) => ({ ...cellOf(0, columnIndex, name), category: name, categoryNormalized: name }));
  const rows = lines.map((line, index) => ({ rowIndex: index + 1, line }));
  const entity = newEntity(page, {
    type: 'Table',
    category: 'LineItems',
    groupName: 'Tables',
    confidence: 1,
    table: {
      ...geometryOf(NOWHERE, 1),
      rowCount: lines.length + 1,
      columnCount: columns.length,
      tableHeaders,
      tableRows: Object.fromEntries(
        rows.map(({ rowIndex, line }) => [String(rowIndex), columns.flatMap(([key], columnIndex) => (line[key] !== undefined ? [cellOf(rowIndex, columnIndex, line[key])] : []))]),
      ),
      boundsAndPoints: [{ pageNumber: page.pageNumber, boundingBox: toBoundingBox(NOWHERE), points: cornerPoints(NOWHERE) }],
      tableRowsTableContent: Object.fromEntries(rows.map(({ rowIndex, line }) => [String(rowIndex), columns.map(([key]) => line[key] ?? '').join('\t')])),
      hasAlternativeHeaders: false,
    },
  });
  return { ...entity, documentData };
}
