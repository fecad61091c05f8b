import QRCode from 'qrcode';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { entity as entitySchema, type Entity } from '../../../src/domain/entities.js';
import { layoutModel } from '../../../src/models/page/layout.js';
import { useScratchDir, wordAccuracy } from '../../engines/fixtures.js';
import {
  documentResult,
  entitiesOf,
  firstPageEntities,
  imagePdf,
  modelInput,
  renderPage,
  scannedLook,
  textPdf,
  valueOf,
  writeFixture,
  type Placed,
} from '../document-fixtures.js';
import { KNOWN_PARAGRAPH, KNOWN_WORDS } from '../../engines/fixtures.js';


const TABLE = [
  ['Description', 'Qty', 'Unit price', 'Amount'],
  ['Consulting services', '10', '100.00', '1,000.00'],
  ['Travel expenses', '2', '125.00', '250.00'],
];
const TABLE_COLUMNS_PT = [50, 300, 380, 480];

const QR_PAYLOAD = 'K1:alpha*K2:beta*K2:gamma*junk';

const NEWS_COLUMNS = [
  ['Markets opened higher on Monday as investors', 'weighed the latest figures on inflation and', 'the outlook for interest rates in Europe.'],
  ['Analysts expect the central bank to hold its', 'main rate steady at the next meeting, citing', 'slower growth in the second quarter.'],
];

/** The page in points: a heading, "Label: value" pairs, a paragraph, an aligned table, prose in two columns. */
function layoutPage(): Placed[] {
  return [
    { text: 'Quarterly Statement', x: 50, y: 60, size: 16 },
    { text: 'Account holder: Contoso Ltd', x: 50, y: 100 },
    { text: 'Statement date: 31/03/2024', x: 50, y: 116 },
    ...KNOWN_PARAGRAPH.map((text, i) => ({ text, x: 50, y: 160 + 14 * i })),
    ...TABLE.flatMap((row, r) => row.map((text, c) => ({ text, x: TABLE_COLUMNS_PT[c]!, y: 270 + 18 * r }))),
    ...NEWS_COLUMNS.flatMap((column, c) => column.map((text, i) => ({ text, x: 50 + 260 * c, y: 620 + 13 * i, size: 9 }))),
  ];
}

function lineTexts(entities: readonly Entity[]): string[] {
  return entities.filter((e) => e.type === 'Line').map((e) => e.keyValues[0]!.content);
}

describe('layout model', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  describe('on a PDF with a text layer', () => {
    let entities: Entity[];

    beforeAll(async () => {
      const qr = await QRCode.toBuffer(QR_PAYLOAD, { type: 'png', scale: 4, margin: 2 });
      const pdf = await writeFixture(file('statement.pdf'), await textPdf([layoutPage()], [{ page: 1, png: qr, x: 420, y: 450, size: 110 }]));
      entities = await firstPageEntities(layoutModel, pdf, 'pdf');
    });

    it('gives every entity in the export shape, with every field present', () => {
      for (const entity of entities) expect(entitySchema.strict().parse(entity)).toEqual(entity);
    });

    it('reads lines and their words, with geometry in points and spans into the page text', () => {
      const lines = entities.filter((e) => e.type === 'Line');
      expect(lineTexts(lines)).toEqual(expect.arrayContaining(['Quarterly Statement', ...KNOWN_PARAGRAPH, 'Consulting services', '1,000.00']));
      // The page text is the lines joined by line feeds: each line starts one character after the previous one ends.
      const spans = lines.map((line) => line.keyValues[0]!.spans[0]!).sort((a, b) => a.offset - b.offset);
      spans.slice(1).forEach((span, i) => expect(span.offset).toBe(spans[i]!.offset + spans[i]!.length + 1));
      for (const line of lines) {
        const [text, ...words] = line.keyValues;
        expect(text!.spans[0]!.length).toBe(text!.content.length);
        expect(words.map((w) => w.content).join(' ')).toBe(text!.content);
        for (const word of words) {
          expect(word.category).toBe('Word');
          expect(word.spans[0]!.offset).toBeGreaterThanOrEqual(text!.spans[0]!.offset);
          expect(word.boundingBox.left).toBeGreaterThanOrEqual(text!.boundingBox.left - 0.01);
        }
        const { boundingBox: box, points } = text!;
        expect(box.right).toBeCloseTo(box.left + box.width, 1);
        expect(box.bottom).toBeCloseTo(box.top + box.height, 1);
        expect([box.x, box.y]).toEqual([box.left, box.top]);
        expect(points).toEqual([
          { x: box.left, y: box.top },
          { x: box.right, y: box.top },
          { x: box.right, y: box.bottom },
          { x: box.left, y: box.bottom },
        ]);
        expect(box.right).toBeLessThanOrEqual(595.28);
        expect(box.bottom).toBeLessThanOrEqual(841.89);
        expect(line.confidence).toBe(1);
      }
      // The heading's baseline is 60 pt from the top, in 16 pt type.
      const heading = lines.find((l) => l.keyValues[0]!.content === 'Quarterly Statement')!.keyValues[0]!.boundingBox;
      expect(heading.left).toBeCloseTo(50, 0);
      expect(heading.bottom).toBeGreaterThan(60);
      expect(heading.top).toBeLessThan(60 - 10);
    });

    it('groups the paragraph lines into one paragraph, and each column of text into its own', () => {
      const paragraphs = entities.filter((e) => e.type === 'Paragraph').map((e) => e.keyValues[0]!.content);
      expect(paragraphs).toContain(KNOWN_PARAGRAPH.join(' '));
      for (const column of NEWS_COLUMNS) expect(paragraphs).toContain(column.join(' '));
    });

    it('finds the table with its headers, cells and row contents', () => {
      const [table, ...others] = entities.filter((e) => e.type === 'Table');
      expect(others).toEqual([]);
      const grid = table!.table!;
      expect([grid.rowCount, grid.columnCount]).toEqual([3, 4]);
      expect(grid.tableHeaders.map((h) => [h.content, h.categoryNormalized, h.rowIndex, h.columnIndex])).toEqual([
        ['Description', 'Description', 0, 0],
        ['Qty', 'Qty', 0, 1],
        ['Unit price', 'UnitPrice', 0, 2],
        ['Amount', 'Amount', 0, 3],
      ]);
      expect(grid.tableRowsTableContent).toEqual({ '1': TABLE[1]!.join('\t'), '2': TABLE[2]!.join('\t') });
      expect(grid.tableRows['1']!.map((c) => [c.rowIndex, c.columnIndex, c.content, c.contentNormalized])).toEqual([
        [1, 0, 'Consulting services', 'Consulting services'],
        [1, 1, '10', '10'],
        [1, 2, '100.00', '100.00'],
        [1, 3, '1,000.00', '1000.00'],
      ]);
      expect(grid.boundsAndPoints).toEqual([{ pageNumber: 1, boundingBox: grid.boundingBox, points: grid.points }]);
      expect(grid.boundingBox.left).toBeCloseTo(50, 0);
    });

    it('pairs labels with their values, normalised', () => {
      const pairs = entities.filter((e) => e.type === 'KeyValue');
      expect(valueOf(pairs, 'Account holder')).toMatchObject({ categoryNormalized: 'AccountHolder', content: 'Contoso Ltd' });
      expect(valueOf(pairs, 'Statement date')).toMatchObject({ content: '31/03/2024', contentNormalized: '2024-03-31' });
      // The value's box starts after its label.
      expect(valueOf(pairs, 'Account holder')!.boundingBox.left).toBeGreaterThan(100);
    });

    it('decodes the QR code exactly, with the pairs of its payload', () => {
      const [code] = entities.filter((e) => e.type === 'QrCode');
      expect(code!.qrCode).toMatchObject({ qrCodeContent: QR_PAYLOAD, invalidKeysCount: 1, duplicatedKeys: ['K2'] });
      expect(code!.qrCode!.keyValues.map((kv) => [kv.category, kv.content])).toEqual([
        ['K1', 'alpha'],
        ['K2', 'beta'],
        ['K2', 'gamma'],
      ]);
      // Drawn at x 420..530 pt, y 450..560 pt with a two-module quiet zone.
      const box = code!.qrCode!.boundingBox;
      expect(box.left).toBeGreaterThan(420);
      expect(box.right).toBeLessThan(530);
      expect(box.top).toBeGreaterThan(450);
      expect(box.bottom).toBeLessThan(560);
    });
  });

  describe('on scans', () => {
    let clean: Buffer;

    beforeAll(async () => {
      clean = await renderPage([
        ...KNOWN_PARAGRAPH.map((text, i) => ({ text, x: 150, y: 200 + 80 * i })),
        ...TABLE.flatMap((row, r) => row.map((text, c) => ({ text, x: [150, 1000, 1300, 1800][c]!, y: 750 + 80 * r }))),
      ]);
    });

    it('reads a clean scan word for word, with geometry in pixels', async () => {
      const image = await writeFixture(file('clean.png'), clean);
      const entities = await firstPageEntities(layoutModel, image, 'image');
      const words = entities.filter((e) => e.type === 'Line').flatMap((e) => e.keyValues.slice(1).map((w) => w.content));
      const accuracy = wordAccuracy(KNOWN_WORDS, words);
      console.log(`[layout] clean scan word accuracy: ${(accuracy * 100).toFixed(1)}% of ${KNOWN_WORDS.length} words`);
      expect(accuracy).toBeGreaterThanOrEqual(0.98);
      const first = entities.find((e) => e.type === 'Line')!.keyValues[0]!;
      expect(first.boundingBox.left).toBeGreaterThan(140);
      expect(first.boundingBox.left).toBeLessThan(170);
      expect(first.confidence).toBeGreaterThan(0.8);
      expect(entities.find((e) => e.type === 'Table')?.table).toMatchObject({ rowCount: 3, columnCount: 4 });
    });

    it('reads a turned, noisy scan and still finds its table', async () => {
      const image = await writeFixture(file('noisy.png'), await scannedLook(clean));
      const entities = await firstPageEntities(layoutModel, image, 'image');
      const words = entities.filter((e) => e.type === 'Line').flatMap((e) => e.keyValues.slice(1).map((w) => w.content));
      const accuracy = wordAccuracy(KNOWN_WORDS, words);
      console.log(`[layout] 1.5° turned noisy scan word accuracy: ${(accuracy * 100).toFixed(1)}%`);
      expect(accuracy).toBeGreaterThanOrEqual(0.9);
      const table = entities.find((e) => e.type === 'Table')!.table!;
      expect(table.tableHeaders.map((h) => h.content)).toEqual(TABLE[0]);
      expect(table.tableRows['1']!.find((c) => c.columnIndex === 3)?.content).toBe('1,000.00');
    });

    it('OCRs a PDF page without a text layer, in points', async () => {
      const pdf = await writeFixture(file('scanned.pdf'), await imagePdf([clean]));
      const result = documentResult(await layoutModel(await modelInput(pdf, 'pdf', [1])));
      const words = entitiesOf(result, 'Line').flatMap((e) => e.keyValues.slice(1).map((w) => w.content));
      expect(wordAccuracy(KNOWN_WORDS, words)).toBeGreaterThanOrEqual(0.98);
      // 150 px at 300 dpi is 36 pt.
      const first = entitiesOf(result, 'Line')[0]!.keyValues[0]!.boundingBox;
      expect(first.left).toBeGreaterThan(33);
      expect(first.left).toBeLessThan(41);
      expect(result.chunks[0]!.averageConfidence).toBeGreaterThan(0.8);
    });

    it('processes only the pages asked for, of a multi-page TIFF', async () => {
      const second = await renderPage([{ text: 'Second page of the scan', x: 150, y: 200 }], { width: 1240, height: 400 });
      const first = await renderPage([{ text: 'First page of the scan', x: 150, y: 200 }], { width: 1240, height: 400 });
      const tiff = file('two-pages.tif');
      await sharp([first, second], { join: { animated: true } }).tiff().toFile(tiff);
      const result = documentResult(await layoutModel(await modelInput(tiff, 'tiff', [2])));
      expect(result.chunks.map((c) => c.pageNumber)).toEqual([2]);
      expect(lineTexts(result.chunks[0]!.entities)).toEqual(['Second page of the scan']);
      expect(result.chunks[0]!.entities.every((e) => e.pageNumber === 2 && e.chunkNumber === 1)).toBe(true);
    });
  });
});
