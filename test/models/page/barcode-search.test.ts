import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutModel } from '../../../src/models/page/layout.js';
import { receiveThreadCounts } from '../../../src/observability/thread-counts.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { entitiesOf, imagePdf, modelInput, renderPage, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

/**
 * Barcodes are searched only where one could be: in the images and the crowded vector drawings
 * of a text-layer page, and in the dense ink outside the OCR's words on a scanned page. A page of
 * text is never drawn as pixels at all.
 */

const A4_HEIGHT = 841.89;
const PAYLOAD = 'A:123456789*B:999999990*C:PT*D:FT*H:ABCD1234-1';

function textLines(count: number): Placed[] {
  return Array.from({ length: count }, (_, i) => ({ text: `Line ${i + 1} of the statement: consulting services rendered in March.`, x: 50, y: 60 + 16 * i }));
}

/** A text page with a table ruled in vector lines (rules are long thin marks, never a code). */
async function ruledTextPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf([textLines(30)]));
  const page = doc.getPage(0);
  for (let row = 0; row <= 6; row++) page.drawLine({ start: { x: 45, y: A4_HEIGHT - 540 - 18 * row }, end: { x: 550, y: A4_HEIGHT - 540 - 18 * row }, thickness: 0.6 });
  for (const x of [45, 250, 400, 550]) page.drawLine({ start: { x, y: A4_HEIGHT - 540 }, end: { x, y: A4_HEIGHT - 648 }, thickness: 0.6 });
  return doc.save();
}

/** A text page whose QR code is drawn in vector paths, one filled square per dark module (as invoicing software prints them). */
async function vectorQrPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await textPdf([textLines(20)]));
  const page = doc.getPage(0);
  const { modules } = QRCode.create(PAYLOAD, { errorCorrectionLevel: 'M' });
  const moduleSize = 2.5;
  const [left, top] = [400, 520];
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (!modules.get(y, x)) continue;
      page.drawRectangle({ x: left + x * moduleSize, y: A4_HEIGHT - top - (y + 1) * moduleSize, width: moduleSize, height: moduleSize, color: rgb(0, 0, 0) });
    }
  }
  page.drawText('Scan to verify', { x: left, y: A4_HEIGHT - top + 8, size: 8, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

function qrContents(result: Awaited<ReturnType<typeof layoutModel>>, page = 0): string[] {
  return entitiesOf(result, 'QrCode', page).map((entity) => entity.qrCode!.qrCodeContent);
}

describe('barcode search', () => {
  const { file } = useScratchDir();
  let renders = 0;
  const countRenders = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const before = renders;
    const result = await work();
    return [result, renders - before];
  };

  beforeAll(() => {
    receiveThreadCounts({ pageRenders: (n) => (renders += n) });
  });
  afterAll(() => {
    receiveThreadCounts({ pageRenders: () => {} });
  });

  it('never draws a page of text, nor one with a ruled table, as pixels', async () => {
    const pdf = await writeFixture(file('text.pdf'), await textPdf([textLines(40), textLines(10)]));
    const ruled = await writeFixture(file('ruled.pdf'), await ruledTextPdf());
    const [plain, plainRenders] = await countRenders(async () => layoutModel(await modelInput(pdf, 'pdf', [1, 2])));
    const [table, tableRenders] = await countRenders(async () => layoutModel(await modelInput(ruled, 'pdf', [1])));
    expect(entitiesOf(plain, 'Line').length).toBe(40);
    expect(entitiesOf(table, 'Line').length).toBeGreaterThanOrEqual(30);
    expect([plainRenders, tableRenders]).toEqual([0, 0]);
  });

  it('finds a QR code in an image pasted on a text page, drawing only the image', async () => {
    const qr = await QRCode.toBuffer(PAYLOAD, { type: 'png', scale: 4, margin: 2 });
    const pdf = await writeFixture(file('image-qr.pdf'), await textPdf([textLines(20)], [{ page: 1, png: qr, x: 400, y: 500, size: 110 }]));
    const [result, count] = await countRenders(async () => layoutModel(await modelInput(pdf, 'pdf', [1])));
    expect(qrContents(result)).toEqual([PAYLOAD]);
    const box = entitiesOf(result, 'QrCode')[0]!.qrCode!.boundingBox;
    // Page units (points): the symbol sits inside the 110 pt square pasted at (400, 500).
    expect(box.left).toBeGreaterThanOrEqual(399);
    expect(box.left + box.width).toBeLessThanOrEqual(511);
    expect(box.top).toBeGreaterThanOrEqual(499);
    expect(box.top + box.height).toBeLessThanOrEqual(611);
    // The image region twice: once for the words in it (OCR, 300 dpi), once for codes (150 dpi).
    expect(count).toBe(2);
  });

  it('finds a QR code drawn as vector paths on a text page', async () => {
    const pdf = await writeFixture(file('vector-qr.pdf'), await vectorQrPdf());
    const [result, count] = await countRenders(async () => layoutModel(await modelInput(pdf, 'pdf', [1])));
    expect(qrContents(result)).toEqual([PAYLOAD]);
    const box = entitiesOf(result, 'QrCode')[0]!.qrCode!.boundingBox;
    expect(box.left).toBeGreaterThanOrEqual(399);
    expect(box.top).toBeGreaterThanOrEqual(519);
    expect(count).toBe(1);
  });

  it('finds a QR code on a scanned page beside its text', async () => {
    const qr = await QRCode.toBuffer(PAYLOAD, { type: 'png', scale: 8, margin: 4 });
    const text = await renderPage([
      { text: 'FATURA FT A/1 de 15 de janeiro de 2024', x: 150, y: 200 },
      { text: 'Total a pagar 123,00 EUR', x: 150, y: 300 },
    ]);
    const scan = await sharp(text).composite([{ input: qr, left: 1700, top: 900 }]).png().toBuffer();
    const pdf = await writeFixture(file('scan-qr.pdf'), await imagePdf([scan]));
    const result = await layoutModel(await modelInput(pdf, 'pdf', [1]));
    expect(qrContents(result)).toEqual([PAYLOAD]);
    expect(entitiesOf(result, 'Line').some((line) => line.keyValues[0]!.content.includes('Total'))).toBe(true);
  });
});
