import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ocrImage } from '../../../src/engines/ocr.js';
import { closeWasmOcr } from '../../../src/engines/ocr-wasm.js';
import { readPages, type SourcePage } from '../../../src/models/page/page-reader.js';
import { isPoorReading, linesRunDown, POOR_READING_CHARACTERS, sureCharacters, SURE_WORD_CONFIDENCE } from '../../../src/models/page/reading-quality.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { modelInput, renderPage, writeFixture } from '../document-fixtures.js';

/** A short till slip: a few lines, fewer sure characters than a poor reading's bound. */
const LINES = ['CAFE DU PORT', '12 RUE DES LILAS', 'DATE 21-10-21', 'CAFE CREME 3.50', 'CROISSANT 2.20', 'JUS ORANGE 4.80', 'TOTAL 10.50', 'CARTE 10.50', 'MERCI A BIENTOT'];

function slip(): Promise<Buffer> {
  return renderPage(LINES.map((text, i) => ({ text, x: 30, y: 60 + i * 50, size: 30, font: 'sans' as const })), { width: 420, height: 520 });
}

/** The slip photographed on a dark table, its lower half in a shadow that deepens towards the bottom. */
async function shadedPhoto(): Promise<Buffer> {
  const { data, info } = await sharp(await slip()).greyscale().raw().toBuffer({ resolveWithObject: true });
  const [width, height, left, top] = [700, 800, 140, 140];
  const photo = Buffer.alloc(width * height, 70);
  for (let y = 0; y < info.height; y++) {
    const shade = y < 250 ? 1 : Math.max(0.35, 1 - (y - 250) / 300);
    for (let x = 0; x < info.width; x++) photo[(y + top) * width + x + left] = Math.round(data[y * info.width + x]! * shade);
  }
  return sharp(photo, { raw: { width, height, channels: 1 } }).png().toBuffer();
}

async function firstPage(path: string): Promise<SourcePage> {
  for await (const page of readPages(await modelInput(path, 'image', [1]), { languages: ['en'] })) return page;
  throw new Error('no page read');
}

const text = (page: SourcePage) => page.words.map((w) => w.text).join(' ');

describe('how much a reading made out', () => {
  it('counts the characters of the words read sure along level lines, and calls a reading of a few lines poor', () => {
    const level = { width: 100, height: 30 };
    const words = [
      { text: 'TOTAL', confidence: SURE_WORD_CONFIDENCE, box: level },
      { text: '10.50', confidence: 0.95, box: level },
      { text: 'x#', confidence: SURE_WORD_CONFIDENCE - 0.01, box: level },
      // A word of a sideways line: read, but boxed down the page.
      { text: 'CARTE', confidence: 0.95, box: { width: 30, height: 100 } },
      // A short word is as tall as wide either way.
      { text: 'A', confidence: 0.95, box: { width: 20, height: 30 } },
    ];
    expect(sureCharacters(words)).toBe(11);
    expect(isPoorReading(sureCharacters(words))).toBe(true);
    expect(isPoorReading(POOR_READING_CHARACTERS)).toBe(false);
  });

  it('tells lines running down the image by most sure words of three characters or more boxed taller than wide', () => {
    const down = { width: 30, height: 100 };
    const along = { width: 100, height: 30 };
    const word = (text: string, box: { width: number; height: number }, confidence = 0.95) => ({ text, box, confidence });
    expect(linesRunDown([word('TOTAL', down), word('CARTE', down), word('MERCI', along)])).toBe(true);
    expect(linesRunDown([word('TOTAL', along), word('CARTE', along), word('MERCI', down)])).toBe(false);
    // Short words and unsure ones tell nothing.
    expect(linesRunDown([word('A', down), word('12', down), word('TOTAL', down, 0.5), word('CARTE', along)])).toBe(false);
    expect(linesRunDown([])).toBe(false);
  });
});

describe('photos of receipts', () => {
  const { file } = useScratchDir();
  afterAll(() => closeWasmOcr());

  it.each(['native', 'wasm'] as const)('an adaptive threshold reads the print a shadow hides from one threshold for the whole image (%s tesseract)', async (engine) => {
    const photo = await shadedPhoto();
    const global = (await ocrImage(photo, { dpi: 300, engine })).words.map((w) => w.text);
    const adaptive = (await ocrImage(photo, { dpi: 300, engine, threshold: 'adaptive' })).words.map((w) => w.text);
    expect(global).not.toContain('BIENTOT');
    expect(adaptive).toEqual(expect.arrayContaining(['CARTE', 'BIENTOT']));
  });

  it('a poor reading of a shaded photo is read again with the adaptive threshold, and the fuller reading kept', async () => {
    const page = await firstPage(await writeFixture(file('shaded.png'), await shadedPhoto()));
    expect(text(page)).toContain('TOTAL 10.50');
    expect(text(page)).toContain('MERCI A BIENTOT');
  });

  it('a slip photographed sideways, either way, is read upright, and the page is the turned image', async () => {
    for (const degrees of [90, 270]) {
      const sideways = await sharp(await slip()).rotate(degrees).png().toBuffer();
      const page = await firstPage(await writeFixture(file(`sideways-${degrees}.png`), sideways));
      // The page is as wide as the slip, not as the photo: word boxes fit the upright page.
      expect({ width: page.width, height: page.height }).toEqual({ width: 420, height: 520 });
      expect(text(page)).toContain('CAFE DU PORT');
      expect(text(page)).toContain('TOTAL 10.50');
      const total = page.words.find((w) => w.text === 'TOTAL')!;
      const header = page.words.find((w) => w.text === 'PORT')!;
      expect(total.box.top).toBeGreaterThan(header.box.top);
      // The page's pixels are the upright slip's too (what barcode readers and rereads crop).
      const { pixels } = await page.pixels();
      expect({ width: pixels.width, height: pixels.height }).toEqual({ width: 420, height: 520 });
    }
  });

  it('an upright slip is read upright', async () => {
    const page = await firstPage(await writeFixture(file('upright.png'), await slip()));
    expect({ width: page.width, height: page.height }).toEqual({ width: 420, height: 520 });
    expect(text(page)).toContain('TOTAL 10.50');
  });
});
