import { writeFile } from 'node:fs/promises';
import { degrees, PDFDocument, PDFName, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PdfUnreadableError } from '../../src/engines/errors.js';
import type { Box } from '../../src/engines/geometry.js';
import { extractPdfPages, openPdf, pdfInfo, pdfPageImageBoxes, pdfPageText, renderPdfPage, withPdf } from '../../src/engines/pdf.js';
import { useScratchDir } from './fixtures.js';

const A4 = [595.28, 841.89] as const;
const SENTENCE = 'Invoice number FT 2024/17 total 123.00 EUR';
const FONT_SIZE = 14;
const BASELINE_FROM_BOTTOM = 700;

describe('pdf engine', () => {
  const scratch = useScratchDir();
  let textPdf: string;
  let helveticaWidth: (text: string) => number;

  beforeAll(async () => {
    // Nothing may be fetched: fonts, CMaps and decoders come from node_modules.
    vi.stubGlobal('fetch', () => Promise.reject(new Error('network access attempted')));
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    helveticaWidth = (text) => font.widthOfTextAtSize(text, FONT_SIZE);
    doc.addPage([...A4]).drawText(SENTENCE, { x: 72, y: BASELINE_FROM_BOTTOM, size: FONT_SIZE, font });
    const rotated = doc.addPage([300, 200]);
    rotated.setRotation(degrees(90));
    rotated.drawText('Sideways', { x: 20, y: 150, size: 20, font });
    doc.addPage([612, 792]).drawRectangle({ x: 100, y: 100, width: 200, height: 100, color: rgb(0.2, 0.2, 0.2) });
    textPdf = scratch.file('text.pdf');
    await writeFile(textPdf, await doc.save());
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('reports the page count and each page size in points, after page rotation', async () => {
    expect(await pdfInfo(textPdf)).toEqual({
      pageCount: 3,
      pages: [
        { width: A4[0], height: A4[1] },
        { width: 200, height: 300 },
        { width: 612, height: 792 },
      ],
    });
  });

  it('extracts words with boxes in points from the top-left corner', async () => {
    const { hasTextLayer, words } = await withPdf(textPdf, (doc) => pdfPageText(doc, 1));
    expect(hasTextLayer).toBe(true);
    expect(words.map((w) => w.text)).toEqual(SENTENCE.split(' '));

    const baseline = A4[1] - BASELINE_FROM_BOTTOM;
    for (const { box } of words) {
      expect(box.top).toBeLessThan(baseline - FONT_SIZE * 0.6);
      expect(box.top + box.height).toBeGreaterThan(baseline);
      expect(box.top + box.height).toBeLessThan(baseline + FONT_SIZE * 0.35);
    }
    // The line's ends are exact; word starts in between lie at the font's glyph advances (their
    // exact places are checked in pdf-word-boxes.test.ts; the kerned widths here are a little off).
    expect(words[0]!.box.left).toBeCloseTo(72, 5);
    const last = words.at(-1)!;
    expect(Math.abs(last.box.left + last.box.width - (72 + helveticaWidth(SENTENCE)))).toBeLessThan(1);
    words.reduce((x, word) => {
      expect(Math.abs(word.box.left - x)).toBeLessThan(FONT_SIZE);
      return x + helveticaWidth(`${word.text} `);
    }, 72);
  });

  it('joins a word written as touching runs (a ligature glyph run of its own) and keeps spaced runs apart', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const ligatureFont = await doc.embedFont(StandardFonts.TimesRoman);
    const page = doc.addPage([...A4]);
    // "Office" as three touching runs, the ligature in a font of its own as Chromium writes it
    // (pdf.js then gives three items: "O", "ffi", "ce"), then "Total" and "12.00" as two runs a
    // space apart on one line.
    let x = 72;
    for (const [run, runFont] of [['O', font], ['ffi', ligatureFont], ['ce', font]] as const) {
      page.drawText(run, { x, y: 700, size: FONT_SIZE, font: runFont });
      x += runFont.widthOfTextAtSize(run, FONT_SIZE);
    }
    page.drawText('Total', { x: 72, y: 650, size: FONT_SIZE, font });
    page.drawText('12.00', { x: 72 + font.widthOfTextAtSize('Total ', FONT_SIZE), y: 650, size: FONT_SIZE, font });
    const file = scratch.file('runs.pdf');
    await writeFile(file, await doc.save());
    const { words } = await withPdf(file, (pdf) => pdfPageText(pdf, 1));
    expect(words.map((w) => w.text)).toEqual(['Office', 'Total', '12.00']);
    const office = words[0]!.box;
    expect(office.left).toBeCloseTo(72, 0);
    expect(office.left + office.width).toBeCloseTo(x, 0);
  });

  it('reads words printed with a ligature glyph as the words printed ("Office", "efficient", not "O ffi ce")', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([...A4]);
    const { context } = doc;
    // The ligature's code (1) names the glyph "ffi"; a ToUnicode map gives its code point U+FB03.
    const toUnicode = context.register(
      context.stream('/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Ligature def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <01> <FB03> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end'),
    );
    const ligatureEncoding = (base?: string) => context.obj({ Type: 'Encoding', ...(base ? { BaseEncoding: base } : {}), Differences: [1, PDFName.of('ffi')] });
    const font = (dict: Record<string, unknown>) => page.node.newFontDictionary('F', context.register(context.obj({ Type: 'Font', Subtype: 'Type1', ...dict } as never))).asString();
    const text = font({ BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' });
    // As Chromium writes a ligature: the glyph in a font of its own, so pdf.js gives it as a run of its own ("O", "ffi", "ce").
    const ligatureOnly = font({ BaseFont: 'Times-Roman', FirstChar: 1, LastChar: 1, Widths: [833], Encoding: ligatureEncoding(), ToUnicode: toUnicode });
    // As TeX writes it: the ligature's code inside the word's run, with a ToUnicode map, or with the glyph's name alone.
    const mapped = font({ BaseFont: 'Times-Roman', Encoding: ligatureEncoding('WinAnsiEncoding'), ToUnicode: toUnicode });
    const named = font({ BaseFont: 'Times-Roman', Encoding: ligatureEncoding('WinAnsiEncoding') });
    const runs = (y: number, parts: ReadonlyArray<readonly [string, string]>) => `BT ${parts.map(([f, s], i) => `${f} ${FONT_SIZE} Tf ${i === 0 ? `72 ${y} Td ` : ''}${s} Tj`).join(' ')} ET`;
    const content = [
      runs(700, [[text, '(O)'], [ligatureOnly, '<01>'], [text, '(ce)']]),
      runs(670, [[text, '(e)'], [ligatureOnly, '<01>'], [text, '(cient)']]),
      runs(640, [[mapped, '(O\\001ce e\\001cient)']]),
      runs(610, [[named, '(O\\001ce e\\001cient)']]),
    ].join('\n');
    page.node.addContentStream(context.register(context.stream(content)));
    const file = scratch.file('ligatures.pdf');
    await writeFile(file, await doc.save());
    const { words } = await withPdf(file, (pdf) => pdfPageText(pdf, 1));
    expect(words.map((w) => w.text)).toEqual(['Office', 'efficient', 'Office', 'efficient', 'Office', 'efficient']);
  });

  it('maps text of a rotated page into the rotated page space', async () => {
    const { words } = await withPdf(textPdf, (doc) => pdfPageText(doc, 2));
    expect(words.map((w) => w.text)).toEqual(['Sideways']);
    const box = words[0]!.box;
    // Shown turned 90° clockwise, the line runs down the page from 20 pt below its top edge, and its
    // baseline, 150 pt above the unrotated bottom edge, lies 150 pt from the shown left edge.
    expect(box.top).toBeCloseTo(20, 5);
    expect(Math.abs(box.height - helveticaWidth('Sideways') * (20 / FONT_SIZE))).toBeLessThan(2);
    expect(box.left).toBeGreaterThan(150 - 20);
    expect(box.left).toBeLessThan(150);
    expect(box.left + box.width).toBeGreaterThan(150);
  });

  it('reports a page with only drawings as having no text layer', async () => {
    expect(await withPdf(textPdf, (doc) => pdfPageText(doc, 3))).toEqual({ hasTextLayer: false, words: [] });
  });

  it('renders a page to a PNG of dpi/72 pixels per point with the text drawn where its box says', async () => {
    const dpi = 144;
    const scale = dpi / 72;
    const png = await renderPdfPage(textPdf, 1, dpi);
    const { width, height } = await sharp(png).metadata();
    expect([width, height]).toEqual([Math.ceil(A4[0] * scale), Math.ceil(A4[1] * scale)]);

    const { words } = await withPdf(textPdf, (doc) => pdfPageText(doc, 1));
    const darkestPixelIn = async (box: Box) => {
      const pixels = await sharp(png)
        .extract({
          left: Math.floor(box.left * scale),
          top: Math.floor(box.top * scale),
          width: Math.ceil(box.width * scale),
          height: Math.ceil(box.height * scale),
        })
        .greyscale()
        .raw()
        .toBuffer();
      return pixels.reduce((darkest, value) => Math.min(darkest, value), 255);
    };
    for (const word of words) expect(await darkestPixelIn(word.box)).toBeLessThan(64);
    expect(await darkestPixelIn({ left: 72, top: 300, width: 400, height: 300 })).toBe(255);
  });

  it('renders only a region when asked: the same pixels as that part of the whole page', async () => {
    const scale = 2;
    const whole = await renderPdfPage(textPdf, 1, 72 * scale);
    const { words } = await withPdf(textPdf, (doc) => pdfPageText(doc, 1));
    // Whole points around the sentence, so both renderings share the pixel grid.
    const region = { left: 60, top: Math.floor(words[0]!.box.top) - 10, width: 300, height: 40 };
    const part = await renderPdfPage(textPdf, 1, 72 * scale, region);
    expect(await sharp(part).metadata()).toMatchObject({ width: 600, height: 80 });
    const grey = (png: Buffer, box?: { left: number; top: number; width: number; height: number }) =>
      (box ? sharp(png).extract(box) : sharp(png)).greyscale().raw().toBuffer();
    const expected = await grey(whole, { left: region.left * scale, top: region.top * scale, width: 600, height: 80 });
    const actual = await grey(part);
    const meanDifference = actual.reduce((sum, value, i) => sum + Math.abs(value - expected[i]!), 0) / actual.length;
    expect(meanDifference).toBeLessThan(1);
    // And the sentence is in it, not blank paper.
    expect(Math.min(...actual)).toBeLessThan(64);
  });

  it('renders from an open document too', async () => {
    const doc = await openPdf(textPdf);
    try {
      const png = await renderPdfPage(doc, 2, 72);
      expect(await sharp(png).metadata()).toMatchObject({ width: 200, height: 300 });
    } finally {
      await doc.destroy();
    }
  });

  it('rejects page numbers outside the document', async () => {
    await expect(renderPdfPage(textPdf, 4, 72)).rejects.toThrow(RangeError);
    await expect(withPdf(textPdf, (doc) => pdfPageText(doc, 0))).rejects.toThrow(RangeError);
  });

  it('extracts pages into a new PDF in the order asked', async () => {
    const out = scratch.file('extract.pdf');
    await extractPdfPages(textPdf, [3, 1], out);
    const info = await pdfInfo(out);
    expect(info.pages).toEqual([
      { width: 612, height: 792 },
      { width: A4[0], height: A4[1] },
    ]);
    const texts = await withPdf(out, async (doc) => [await pdfPageText(doc, 1), await pdfPageText(doc, 2)]);
    expect(texts.map((t) => t.words.map((w) => w.text).join(' '))).toEqual(['', SENTENCE]);
    await expect(extractPdfPages(textPdf, [2, 5], out)).rejects.toThrow(/5 are outside 1\.\.3/);
  });

  it('finds where raster images are painted, in points from the top-left, on plain and rotated pages', async () => {
    const doc = await PDFDocument.create();
    const png = await doc.embedPng(await sharp({ create: { width: 40, height: 20, channels: 3, background: '#888' } }).png().toBuffer());
    const plain = doc.addPage([...A4]);
    plain.drawImage(png, { x: 100, y: 500, width: 200, height: 100 });
    plain.drawImage(png, { x: 50, y: 50, width: 60, height: 30 });
    const rotated = doc.addPage([300, 200]);
    rotated.setRotation(degrees(90));
    rotated.drawImage(png, { x: 20, y: 30, width: 100, height: 50 });
    doc.addPage([...A4]).drawText(SENTENCE, { x: 72, y: 700, size: 12 });
    const file = scratch.file('images.pdf');
    await writeFile(file, await doc.save());

    const round = (boxes: Box[]) => boxes.map((b) => ({ left: Math.round(b.left), top: Math.round(b.top), width: Math.round(b.width), height: Math.round(b.height) }));
    const [first, second, third] = await withPdf(file, async (pdf) => [await pdfPageImageBoxes(pdf, 1), await pdfPageImageBoxes(pdf, 2), await pdfPageImageBoxes(pdf, 3)]);
    // Page 1: y from the top is 841.89 - 500 - 100 = 241.89 and 841.89 - 50 - 30 = 761.89.
    expect(round(first!)).toEqual([
      { left: 100, top: 242, width: 200, height: 100 },
      { left: 50, top: 762, width: 60, height: 30 },
    ]);
    // Page 2 is shown turned 90 degrees clockwise (200 x 300): unrotated (x, y) lands at (y, x).
    expect(round(second!)).toEqual([{ left: 30, top: 20, width: 50, height: 100 }]);
    expect(third).toEqual([]);
  });

  it('throws PdfUnreadableError for corrupt files', async () => {
    const garbage = scratch.file('garbage.pdf');
    await writeFile(garbage, Buffer.from('%PDF-1.7\n this is not a PDF body at all \n%%EOF'));
    const notPdf = scratch.file('not.pdf');
    await writeFile(notPdf, Buffer.alloc(2048, 0x41));
    for (const file of [garbage, notPdf]) {
      await expect(pdfInfo(file)).rejects.toThrow(PdfUnreadableError);
      await expect(extractPdfPages(file, [1], scratch.file('out.pdf'))).rejects.toThrow(PdfUnreadableError);
    }
  });
});
