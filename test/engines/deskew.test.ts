import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { levelPage, pageSkewDegrees } from '../../src/engines/deskew.js';
import { decodeGrey, type GreyPixels } from '../../src/engines/pixels.js';
import { renderPage, type Placed } from '../models/document-fixtures.js';

/** Ten lines of text down a page, as a 150 dpi scan shows them. */
const LINES: Placed[] = Array.from({ length: 10 }, (_, i) => ({ text: `Line ${i + 1}: 2 x Widget A-${100 + i} at 12.50 EUR each, delivered 04/03/2024`, x: 80, y: 80 + i * 40, size: 18 }));

async function turned(degrees: number): Promise<GreyPixels> {
  const page = await renderPage(LINES, { width: 1240, height: 500 });
  return decodeGrey(await sharp(page).rotate(degrees, { background: '#ffffff' }).png().toBuffer());
}

/** The centre of the black square's pixels. */
function inkCentre(pixels: GreyPixels): { x: number; y: number } {
  let [sx, sy, n] = [0, 0, 0];
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      if (pixels.data[y * pixels.width + x]! < 100) [sx, sy, n] = [sx + x, sy + y, n + 1];
    }
  }
  return { x: sx / n, y: sy / n };
}

describe('deskew', () => {
  it('finds how far a page was turned, either way, to a few tenths of a degree', async () => {
    for (const degrees of [2.5, -1.8, 4, 0]) expect(Math.abs(pageSkewDegrees(await turned(degrees)) - degrees)).toBeLessThanOrEqual(0.2);
  });

  it('says 0 for a page with too little ink to tell', async () => {
    expect(pageSkewDegrees(await decodeGrey(await renderPage([], { width: 800, height: 600 })))).toBe(0);
  });

  it('sets a turned page level, and boxes found on the level page map back onto the page as it is', async () => {
    const page = await turned(3);
    const { pixels } = await levelPage(page, pageSkewDegrees(page));
    expect(Math.abs(pageSkewDegrees(pixels))).toBeLessThanOrEqual(0.2);

    // A black square drawn on the page: where the level page has it, the page has it too.
    const square = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 40, height: 40, channels: 3, background: '#000000' } }, left: 450, top: 300 }])
      .png()
      .toBuffer();
    const original = await decodeGrey(square);
    const levelled = await levelPage(original, 3);
    const found = inkCentre(levelled.pixels);
    const box = levelled.toPage({ left: found.x - 20, top: found.y - 20, width: 40, height: 40 });
    expect(box.left + box.width / 2).toBeCloseTo(470, -1);
    expect(box.top + box.height / 2).toBeCloseTo(320, -1);
    // The box stays on the page.
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.top + box.height).toBeLessThanOrEqual(original.height);
  });
});
