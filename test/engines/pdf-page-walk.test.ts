import { writeFile } from 'node:fs/promises';
import { PDFDocument, PDFName, rgb, StandardFonts, type PDFFont } from 'pdf-lib';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Box } from '../../src/engines/geometry.js';
import { openPdf, pdfPageDrawing, pdfPageText, withPdf, type PageDrawing, type PdfPageText } from '../../src/engines/pdf.js';
import { walkOperators, type OperatorVisitor } from '../../src/engines/pdf-page-walk.js';
import { useScratchDir } from './fixtures.js';

const PAGE = [595.28, 841.89] as const;
const SIZE = 11;
const LEFT = 72;
const PAGES = 3;

/** A line of text in one font, as pdf-lib writes it (one run), and where its words truly lie. */
interface Line {
  text: string;
  font: PDFFont;
  baseline: number;
}

/** Each word of a run with its left and right edge: the glyph widths pdf-lib measures for the characters before it. */
function trueSpans({ text, font }: Line): Array<{ text: string; left: number; right: number }> {
  const advance = (prefix: string) => LEFT + [...prefix].reduce((sum, character) => sum + font.widthOfTextAtSize(character, SIZE), 0);
  return [...text.matchAll(/\S+/g)].map((match) => {
    const before = text.slice(0, match.index);
    return { text: match[0], left: advance(before), right: advance(before + match[0]) };
  });
}

/** A rule drawn on a page: its user-space rectangle and the line width it is stroked with (0: filled only). */
interface Rule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  stroke: number;
}

/** Where a rule's mark lies on the page (top-left origin): its rectangle, grown by half the stroke on each side. */
function ruleBox({ x0, y0, x1, y1, stroke }: Rule): Box {
  const grow = stroke / 2;
  return { left: x0 - grow, top: PAGE[1] - y1 - grow, width: x1 - x0 + stroke, height: y1 - y0 + stroke };
}

function near(a: Box, b: Box): boolean {
  return Math.abs(a.left - b.left) < 0.01 && Math.abs(a.top - b.top) < 0.01 && Math.abs(a.width - b.width) < 0.01 && Math.abs(a.height - b.height) < 0.01;
}

/**
 * The words and drawing of every page, read as the page reader reads them: a page's words, then
 * its drawing, or (`wordsAhead`) the words of every page before any drawing, as when pages are
 * read ahead of the one being worked on.
 */
async function readTogether(pdf: PDFDocumentProxy, wordsAhead: boolean): Promise<Array<{ text: PdfPageText; drawing: PageDrawing }>> {
  const pages = Array.from({ length: PAGES }, (_, i) => i + 1);
  if (!wordsAhead) {
    const read: Array<{ text: PdfPageText; drawing: PageDrawing }> = [];
    for (const page of pages) read.push({ text: await pdfPageText(pdf, page), drawing: await pdfPageDrawing(pdf, page) });
    return read;
  }
  const texts: PdfPageText[] = [];
  for (const page of pages) texts.push(await pdfPageText(pdf, page));
  const drawings: PageDrawing[] = [];
  for (const page of pages) drawings.push(await pdfPageDrawing(pdf, page));
  return pages.map((_, i) => ({ text: texts[i]!, drawing: drawings[i]! }));
}

describe('one walk of a page serves its words and its drawing', () => {
  const scratch = useScratchDir();
  let file: string;
  let lines: Line[][];
  let rules: Rule[][];

  beforeAll(async () => {
    const doc = await PDFDocument.create();
    const fonts = await Promise.all([StandardFonts.Helvetica, StandardFonts.TimesRoman, StandardFonts.CourierBold].map((name) => doc.embedFont(name)));
    lines = [];
    rules = [];
    for (let p = 0; p < PAGES; p++) {
      const page = doc.addPage([...PAGE]);
      // Several fonts, a line each, on different lines from page to page.
      const pageLines = ['Invoice total due today', 'Payment within thirty days net', `Reference 2024-${17 + p} page ${p + 1}`].map((text, i) => ({ text, font: fonts[(i + p) % fonts.length]!, baseline: 760 - 40 * i - 7 * p }));
      for (const line of pageLines) page.drawText(line.text, { x: LEFT, y: line.baseline, size: SIZE, font: line.font });
      lines.push(pageLines);
      // Rules: a stroked line under the text, a bordered box and a filled bar, placed by page.
      const underline: Rule = { x0: LEFT, y0: 640 - 5 * p, x1: 520, y1: 640 - 5 * p, stroke: 1 + p / 2 };
      page.drawLine({ start: { x: underline.x0, y: underline.y0 }, end: { x: underline.x1, y: underline.y1 }, thickness: underline.stroke });
      const box: Rule = { x0: 300, y0: 400 + 10 * p, x1: 500, y1: 480 + 10 * p, stroke: 2 };
      page.drawRectangle({ x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0, borderWidth: box.stroke, borderColor: rgb(0, 0, 0) });
      const bar: Rule = { x0: LEFT, y0: 300 - 20 * p, x1: 250, y1: 310 - 20 * p, stroke: 0 };
      page.drawRectangle({ x: bar.x0, y: bar.y0, width: bar.x1 - bar.x0, height: bar.y1 - bar.y0, color: rgb(0.3, 0.3, 0.3) });
      rules.push([underline, box, bar]);
      // Ligatures as TeX writes them: the ligature's code inside the word's run, its ToUnicode
      // giving U+FB03, in a font of its own among the others.
      const { context } = doc;
      const toUnicode = context.register(
        context.stream('/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Ligature def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <01> <FB03> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end'),
      );
      const encoding = context.obj({ Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [1, PDFName.of('ffi')] });
      const ligatureFont = page.node.newFontDictionary('L', context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Times-Roman', Encoding: encoding, ToUnicode: toUnicode } as never))).asString();
      page.node.addContentStream(context.register(context.stream(`BT ${ligatureFont} ${SIZE} Tf ${LEFT} 560 Td (O\\001ce e\\001cient su\\001x) Tj ET`)));
    }
    file = scratch.file('walk.pdf');
    await writeFile(file, await doc.save());
  });

  it('reads each page the same whether its words and drawing share one walk or are read alone', async () => {
    // Alone: each page's drawing on a document no words were read from (drawings last page
    // first), each page's words on a document no drawing is read from.
    const drawingsAlone = await withPdf(file, async (pdf) => {
      const drawings: PageDrawing[] = [];
      for (let page = PAGES; page >= 1; page--) drawings.unshift(await pdfPageDrawing(pdf, page));
      return drawings;
    });
    const wordsAlone = await withPdf(file, async (pdf) => {
      const texts: PdfPageText[] = [];
      for (let page = 1; page <= PAGES; page++) texts.push(await pdfPageText(pdf, page));
      return texts;
    });
    for (const wordsAhead of [false, true]) {
      const together = await withPdf(file, (pdf) => readTogether(pdf, wordsAhead));
      expect(together.map(({ drawing }) => drawing)).toEqual(drawingsAlone);
      expect(together.map(({ text }) => text)).toEqual(wordsAlone);
    }
  });

  it('finds the words of every font at their glyphs, ligature words as their letters, and every rule where it is drawn', async () => {
    const read = await withPdf(file, (pdf) => readTogether(pdf, true));
    read.forEach(({ text, drawing }, p) => {
      for (const line of lines[p]!) {
        const top = PAGE[1] - line.baseline;
        const onLine = text.words.filter((word) => word.box.top < top && word.box.top + word.box.height > top);
        const expected = trueSpans(line);
        expect(onLine.map((word) => word.text)).toEqual(expected.map((span) => span.text));
        onLine.forEach((word, i) => {
          expect(Math.abs(word.box.left - expected[i]!.left)).toBeLessThan(0.5);
          expect(Math.abs(word.box.left + word.box.width - expected[i]!.right)).toBeLessThan(0.5);
        });
      }
      expect(text.words.slice(-3).map((word) => word.text)).toEqual(['Office', 'efficient', 'suffix']);
      for (const rule of rules[p]!) expect(drawing.marks.some((mark) => near(mark, ruleBox(rule))), `page ${p + 1}: a mark at ${JSON.stringify(ruleBox(rule))}`).toBe(true);
      expect(drawing.images).toEqual([]);
    });
  });

  it("builds each page's operator list once for its words and its drawing", async () => {
    const pdf = await openPdf(file);
    try {
      const pageClass = Object.getPrototypeOf(await pdf.getPage(1)) as { getOperatorList: (...args: unknown[]) => unknown };
      const built = vi.spyOn(pageClass, 'getOperatorList');
      try {
        await readTogether(pdf, true);
        expect(built).toHaveBeenCalledTimes(PAGES);
      } finally {
        built.mockRestore();
      }
    } finally {
      await pdf.destroy();
    }
  });
});

describe('walkOperators', () => {
  /** Notes every operator it is handed; throws at `failAt` when given. */
  const recorder = (failAt?: number) => {
    const seen: number[] = [];
    const visitor: OperatorVisitor = {
      visit(op) {
        if (op === failAt) throw new Error(`failed at ${op}`);
        seen.push(op);
      },
    };
    return { seen, visitor };
  };

  it('hands every operator, in order, to every visitor; one that throws drops out and the others see the rest', () => {
    const list = { fnArray: [5, 6, 7, 8], argsArray: [null, [1], null, ['a']] };
    const first = recorder();
    const failing = recorder(6);
    const last = recorder();
    const failures = walkOperators(list, [first.visitor, failing.visitor, last.visitor]);
    expect(first.seen).toEqual([5, 6, 7, 8]);
    expect(failing.seen).toEqual([5]);
    expect(last.seen).toEqual([5, 6, 7, 8]);
    expect(failures[0]).toBeUndefined();
    expect(String((failures[1] as { error: unknown }).error)).toContain('failed at 6');
    expect(failures[2]).toBeUndefined();
  });
});
