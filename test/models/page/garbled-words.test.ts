import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { OcrWord } from '../../../src/engines/ocr.js';
import { decodeGrey } from '../../../src/engines/pixels.js';
import { rereadGarbled } from '../../../src/models/page/garbled-words.js';

/** A white page with bold print at the top left, as grey pixels. */
async function page() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="300"><rect width="100%" height="100%" fill="white"/>
    <text x="40" y="70" font-size="30" font-weight="bold" font-family="sans-serif">RE-48910</text>
    <text x="40" y="200" font-size="30" font-family="sans-serif">Invoice date</text></svg>`;
  return decodeGrey(await sharp(Buffer.from(svg)).png().toBuffer());
}

const word = (text: string, confidence: number, left: number, top: number, width: number, line: number): OcrWord => ({
  text,
  confidence,
  box: { left, top, width, height: 32 },
  block: 1,
  paragraph: 1,
  line,
  word: 1,
});

describe('words tesseract garbled', () => {
  it('are read again by PP-OCR from the page around them, and sure words and blank places stay as read', async () => {
    const words = [word('[(vocne', 0.02, 38, 44, 150, 1), word('Invoice', 0.96, 40, 176, 110, 2), word('xqzv', 0.05, 600, 120, 100, 3)];
    const read = await rereadGarbled(await page(), words);
    expect(read.map((w) => w.text)).toEqual(['RE-48910', 'Invoice', 'xqzv']);
    // In the page's pixels, where the print is.
    expect(read[0]!.box.left).toBeGreaterThan(20);
    expect(read[0]!.box.left).toBeLessThan(60);
    expect(read[0]!.confidence).toBeGreaterThanOrEqual(0.8);
  });
});
