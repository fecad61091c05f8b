import { writeFile } from 'node:fs/promises';
import {
  beginText,
  endText,
  moveText,
  PDFArray,
  PDFDocument,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  setCharacterSpacing,
  setFontAndSize,
  setWordSpacing,
  showText,
  StandardFonts,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfPageText, withPdf, type PdfWord } from '../../src/engines/pdf.js';
import { useScratchDir } from './fixtures.js';

const PAGE = [595.28, 841.89] as const;
const SIZE = 11;
const LEFT = 60;
/** How far (points) a word's box edge may lie from where its glyphs start or end. */
const TOLERANCE = 0.5;

/**
 * A line written as one text run (one Tj), with the character and word spacing it was drawn
 * with, and where each word truly starts and ends: the sum of the glyph widths pdf-lib measures
 * for each character before it (one at a time: measuring a whole prefix would take off the
 * font's kerning, which a Tj does not apply), and the spacings after each glyph (character) and
 * each space (word).
 */
interface Line {
  text: string;
  font: PDFFont;
  baseline: number;
  charSpacing: number;
  wordSpacing: number;
}

function drawLine(page: PDFPage, line: Line): void {
  if (line.charSpacing) page.pushOperators(setCharacterSpacing(line.charSpacing));
  if (line.wordSpacing) page.pushOperators(setWordSpacing(line.wordSpacing));
  page.drawText(line.text, { x: LEFT, y: line.baseline, size: SIZE, font: line.font });
  page.pushOperators(setCharacterSpacing(0), setWordSpacing(0));
}

function trueSpans(line: Line): Array<{ text: string; left: number; right: number }> {
  const advance = (prefix: string) =>
    LEFT + [...prefix].reduce((sum, character) => sum + line.font.widthOfTextAtSize(character, SIZE), 0) + line.charSpacing * prefix.length + line.wordSpacing * (prefix.split(' ').length - 1);
  return [...line.text.matchAll(/\S+/g)].map((match) => {
    const before = line.text.slice(0, match.index);
    // A word ends at its last glyph, before the character spacing after it.
    return { text: match[0], left: advance(before), right: advance(before + match[0]) - line.charSpacing };
  });
}

/**
 * Pairs a printer kerns, in thousandths of an em taken off the gap between the two letters (as
 * TJ offsets count them): large enough that a split ignoring them misses by over half a point.
 */
const KERNS: Readonly<Record<string, number>> = { VA: 80, AT: 90, AW: 60, WA: 60, AY: 90, To: 80, Te: 70, 'r.': 50 };

function kernedSpans(text: string, font: PDFFont): Array<{ text: string; left: number; right: number }> {
  const advance = (prefix: string) =>
    LEFT + [...prefix].reduce((sum, character, i) => sum + font.widthOfTextAtSize(character, SIZE) - ((KERNS[prefix.slice(i - 1, i + 1)] ?? 0) / 1000) * SIZE * (i > 0 ? 1 : 0), 0);
  return [...text.matchAll(/\S+/g)].map((match) => {
    const before = text.slice(0, match.index);
    return { text: match[0], left: advance(before), right: advance(before + match[0]) };
  });
}

function expectAtTruePlaces(words: readonly PdfWord[], line: Line, expected = trueSpans(line)): void {
  const top = PAGE[1] - line.baseline;
  const onLine = words.filter((word) => word.box.top < top && word.box.top + word.box.height > top);
  expect(onLine.map((word) => word.text)).toEqual(expected.map((span) => span.text));
  onLine.forEach((word, i) => {
    const { left, right } = expected[i]!;
    expect({ word: word.text, left: Math.abs(word.box.left - left) < TOLERANCE, right: Math.abs(word.box.left + word.box.width - right) < TOLERANCE }).toEqual({
      word: word.text,
      left: true,
      right: true,
    });
  });
}

describe('pdf word boxes along a run of several words', () => {
  const scratch = useScratchDir();
  const plainLines: Line[] = [];
  const spacedLines: Line[] = [];
  const kernedLines: Line[] = [];
  let file: string;

  beforeAll(async () => {
    const doc = await PDFDocument.create();
    const helvetica = await doc.embedFont(StandardFonts.Helvetica);
    const times = await doc.embedFont(StandardFonts.TimesRoman);
    const texts = ['Bill to: Acme Trading GmbH, Wilhelmstraße 5', 'WWW iii MMM lll', 'VAT GB 123 4567 89 total 1,234.50 EUR'];
    for (const [i, font] of [helvetica, times].entries()) {
      for (const [j, text] of texts.entries()) plainLines.push({ text, font, baseline: 760 - (i * texts.length + j) * 30, charSpacing: 0, wordSpacing: 0 });
    }
    // Character and word spacing on a page of their own, each font with one value of each.
    spacedLines.push({ text: 'Bill to: Acme Trading GmbH', font: helvetica, baseline: 760, charSpacing: 0.8, wordSpacing: 0 });
    spacedLines.push({ text: 'WWW iii MMM lll total', font: times, baseline: 700, charSpacing: 0.5, wordSpacing: 3 });
    const plain = doc.addPage([...PAGE]);
    for (const line of plainLines) drawLine(plain, line);
    const spaced = doc.addPage([...PAGE]);
    for (const line of spacedLines) drawLine(spaced, line);
    // Kerned lines: one TJ whose offsets kern the pairs, and one drawn glyph by glyph, each moved
    // to its kerned place with Td (as Chromium prints).
    const kerned = doc.addPage([...PAGE]);
    const fontKey = kerned.node.newFontDictionary('F1', helvetica.ref);
    const text = 'VAT Total: AWAY To Tea Mr. WATT';
    kernedLines.push({ text, font: helvetica, baseline: 760, charSpacing: 0, wordSpacing: 0 }, { text, font: helvetica, baseline: 700, charSpacing: 0, wordSpacing: 0 });
    const adjusted = PDFArray.withContext(doc.context);
    [...text].forEach((character, i) => {
      const kern = i > 0 ? KERNS[text.slice(i - 1, i + 1)] : undefined;
      if (kern) adjusted.push(PDFNumber.of(kern));
      adjusted.push(helvetica.encodeText(character));
    });
    kerned.pushOperators(beginText(), setFontAndSize(fontKey, SIZE), moveText(LEFT, 760), PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [adjusted]), endText());
    kerned.pushOperators(beginText(), setFontAndSize(fontKey, SIZE), moveText(LEFT, 700));
    [...text].forEach((character, i) => {
      const kern = KERNS[text.slice(i, i + 2)] ?? 0;
      kerned.pushOperators(showText(helvetica.encodeText(character)), moveText(helvetica.widthOfTextAtSize(character, SIZE) - (kern / 1000) * SIZE, 0));
    });
    kerned.pushOperators(endText());
    file = scratch.file('runs.pdf');
    await writeFile(file, await doc.save());
  });

  it('boxes each word of a proportional line where its glyphs are (Helvetica and Times)', async () => {
    const { words } = await withPdf(file, (pdf) => pdfPageText(pdf, 1));
    for (const line of plainLines) expectAtTruePlaces(words, line);
  });

  it('counts character spacing (Tc) after each glyph and word spacing (Tw) after each space', async () => {
    const { words } = await withPdf(file, (pdf) => pdfPageText(pdf, 2));
    for (const line of spacedLines) expectAtTruePlaces(words, line);
  });

  it('follows kerning between letters, by TJ offsets or by moving to each glyph', async () => {
    const { words } = await withPdf(file, (pdf) => pdfPageText(pdf, 3));
    for (const line of kernedLines) expectAtTruePlaces(words, line, kernedSpans(line.text, line.font));
  });
});
