import type { Cell, Entity, Header } from '../../domain/entities.js';
import { isQrCode, parseKeyValuePayload, type PageBarcode } from './barcodes.js';
import { childKeyValueOf, keyValueOf, newEntity, type Located, type PageRef } from './text/entities.js';
import { cornerPoints, geometryOf, toBoundingBox } from './text/geometry.js';
import type { LabelledValue } from './text/key-values.js';
import { normalizeValue, pascalCase, type DateOptions } from '../fields/normalize.js';
import type { PageLayout } from './text/page-layout.js';
import type { LayoutTable } from './text/tables.js';
import { joinRuns, meanConfidence, type PageText, type PlacedWord, type TextRun } from './text/text-lines.js';

export interface LayoutOptions {
  dates: DateOptions;
  /** What a model knows about a table (an invoice's items). */
  tableOptions?: (table: LayoutTable) => Omit<TableOptions, 'dates'>;
  /** How to read the pairs of a KEY:VALUE code with these keys; as written when undefined. */
  payloadReader?: (keys: readonly string[]) => PayloadPairReader | undefined;
}

/** The Layout model's entities of a page, also the base of the models built on it. */
export function layoutEntities(page: PageRef, layout: PageLayout, barcodes: readonly PageBarcode[], options: LayoutOptions): Entity[] {
  const { dates, tableOptions, payloadReader } = options;
  return [
    ...lineEntities(page, layout.text),
    ...layout.paragraphs.map((paragraph) => textEntity(page, 'Paragraph', paragraph)),
    ...layout.tables.map((table) => tableEntity(page, table, { dates, ...tableOptions?.(table) })),
    ...layout.labelledValues.map((pair) => labelledValueEntity(page, pair, dates)),
    ...barcodes.map((barcode, index) => barcodeEntity(page, barcode, index, payloadReader)),
  ];
}

/** Lines, each carrying its words as keyValues after the line itself. */
export function lineEntities(page: PageRef, text: PageText): Entity[] {
  return text.lines.map((line) => {
    const entity = textEntity(page, 'Line', line);
    entity.keyValues.push(...line.words.map((word) => wordKeyValue(page, word)));
    return entity;
  });
}

function wordKeyValue(page: PageRef, word: PlacedWord) {
  return keyValueOf(page, { ...word, spans: [word.span] }, plainText('Word', word.text));
}

/** An entity holding one run of text as it reads (Line, Paragraph). */
function textEntity(page: PageRef, type: string, run: TextRun): Entity {
  return newEntity(page, {
    type,
    category: type,
    groupName: 'Layout',
    confidence: run.confidence,
    keyValues: [keyValueOf(page, run, plainText(type, run.text))],
  });
}

function plainText(category: string, content: string) {
  return { category, categoryNormalized: category, content, contentNormalized: null };
}

function labelledValueEntity(page: PageRef, pair: LabelledValue, dates: DateOptions): Entity {
  return newEntity(page, {
    type: 'KeyValue',
    category: pair.label,
    groupName: 'KeyValuePairs',
    confidence: meanConfidence([pair.labelLine, pair.value]),
    keyValues: [
      keyValueOf(page, pair.value, {
        category: pair.label,
        categoryNormalized: pascalCase(pair.label),
        content: pair.value.text,
        contentNormalized: normalizeValue(pair.value.text, dates),
      }),
    ],
  });
}

interface TableOptions {
  /** Entity category; "Table" unless the model knows what the table is (LineItems). */
  category?: string;
  /** The normalised name of a column from its header text; PascalCase of the header by default. */
  columnName?: (header: string) => string;
  dates: DateOptions;
}

function tableEntity(page: PageRef, table: LayoutTable, options: TableOptions): Entity {
  const cells = table.rows.flatMap((row, rowIndex) =>
    row.flatMap((run, columnIndex) => (run ? [{ rowIndex, columnIndex, run, ...cellText(run, options.dates) }] : [])),
  );
  const cellOf = ({ rowIndex, columnIndex, run, content, contentNormalized }: (typeof cells)[number]): Cell => ({
    ...geometryOf(run.box, run.confidence, run.spans),
    rowIndex,
    columnIndex,
    content,
    contentNormalized,
    pageNumber: page.pageNumber,
  });
  const columnName = options.columnName ?? pascalCase;
  const tableHeaders: Header[] = cells
    .filter((c) => c.rowIndex === 0)
    .map((c) => ({ ...cellOf(c), category: c.content, categoryNormalized: columnName(c.content) }));
  const bodyRows = table.rows.map((_, rowIndex) => rowIndex).slice(1);
  const whole = joinRuns(cells.map((c) => c.run));
  return newEntity(page, {
    type: 'Table',
    category: options.category ?? 'Table',
    groupName: 'Tables',
    confidence: whole.confidence,
    table: {
      ...geometryOf(table.box, whole.confidence, whole.spans),
      rowCount: table.rows.length,
      columnCount: table.columnCount,
      tableHeaders,
      tableRows: Object.fromEntries(bodyRows.map((r) => [String(r), cells.filter((c) => c.rowIndex === r).map(cellOf)])),
      boundsAndPoints: [{ pageNumber: page.pageNumber, boundingBox: toBoundingBox(table.box), points: cornerPoints(table.box) }],
      tableRowsTableContent: Object.fromEntries(bodyRows.map((r) => [String(r), table.rows[r]!.map((run) => run?.text ?? '').join('\t')])),
      hasAlternativeHeaders: false,
    },
  });
}

function cellText(run: TextRun, dates: DateOptions) {
  return { content: run.text, contentNormalized: normalizeValue(run.text, dates) };
}

/** How a model reads one KEY:VALUE pair of a code's payload (the fiscal QR code names its keys). */
export type PayloadPairReader = (key: string, value: string) => { categoryNormalized: string; contentNormalized: string };

const keyAsIs: PayloadPairReader = (key, value) => ({ categoryNormalized: key, contentNormalized: value });

/** A QR code (type QrCode) or another barcode (type Barcode), with the pairs of a KEY:VALUE*... payload. */
function barcodeEntity(page: PageRef, barcode: PageBarcode, index: number, payloadReader?: LayoutOptions['payloadReader']): Entity {
  // zxing reports only codes whose error correction succeeded: their content is certain.
  const where: Located = { box: barcode.box, confidence: 1, spans: [] };
  const payload = parseKeyValuePayload(barcode.text);
  const readPair = (payload && payloadReader?.(payload.pairs.map((p) => p.key))) ?? keyAsIs;
  const qr = isQrCode(barcode);
  return newEntity(page, {
    type: qr ? 'QrCode' : 'Barcode',
    category: qr ? 'QrCode' : barcode.format,
    groupName: 'Barcodes',
    confidence: where.confidence,
    qrCode: {
      ...geometryOf(barcode.box, where.confidence),
      points: barcode.points,
      keyValues: (payload?.pairs ?? []).map(({ key, value }, position) =>
        childKeyValueOf(page, where, { category: key, content: value, ...readPair(key, value) }, `p${page.pageNumber}-code${index}-${position}`),
      ),
      qrCodeContent: barcode.text,
      invalidKeysCount: payload?.invalidCount ?? 0,
      duplicatedKeys: payload?.duplicatedKeys ?? [],
    },
  });
}
