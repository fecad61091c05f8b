import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageUnreadableError } from '../../src/engines/errors.js';
import { imageInfo, imagePageToPng, textLineHeight, withoutDotLeaders } from '../../src/engines/image.js';
import { decodeGrey } from '../../src/engines/pixels.js';
import { renderPage } from '../models/document-fixtures.js';
import { useScratchDir } from './fixtures.js';

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

/** The RGB(A) values of one pixel of an encoded image. */
async function pixelAt(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + info.channels)];
}

describe('image engine', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  beforeAll(async () => {
    await sharp(await solid(300, 200, '#ff0000')).toFile(file('plain.png'));
    // Stored 300x200 but tagged "rotate 90° clockwise to view", as cameras do.
    await sharp(await solid(300, 200, '#00ff00')).jpeg().withMetadata({ orientation: 6 }).toFile(file('camera.jpg'));
    const pages = [await solid(120, 80, '#ff0000'), await solid(120, 80, '#0000ff'), await solid(120, 80, '#00ff00')];
    await sharp(pages, { join: { animated: true } }).tiff({ compression: 'lzw' }).toFile(file('scan.tif'));
    await sharp(pages, { join: { animated: true } }).gif().toFile(file('animated.gif'));
    const transparent = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    await writeFile(file('transparent.png'), transparent);
    await writeFile(file('garbage.png'), Buffer.alloc(4096, 0x5a));
    const png = await readFile(file('plain.png'));
    await writeFile(file('truncated.png'), png.subarray(0, Math.floor(png.length / 2)));
  });

  it('reads size and format', async () => {
    expect(await imageInfo(file('plain.png'))).toEqual({ width: 300, height: 200, pages: 1, format: 'png' });
  });

  it('reports the size as shown, after EXIF orientation', async () => {
    expect(await imageInfo(file('camera.jpg'))).toEqual({ width: 200, height: 300, pages: 1, format: 'jpeg' });
    const png = await imagePageToPng(file('camera.jpg'));
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 200, height: 300 });
  });

  it('counts the pages of a multi-page TIFF and converts each one', async () => {
    expect(await imageInfo(file('scan.tif'))).toEqual({ width: 120, height: 80, pages: 3, format: 'tiff' });
    expect(await pixelAt(await imagePageToPng(file('scan.tif'), 0), 10, 10)).toEqual([255, 0, 0]);
    expect(await pixelAt(await imagePageToPng(file('scan.tif'), 1), 10, 10)).toEqual([0, 0, 255]);
    expect(await pixelAt(await imagePageToPng(file('scan.tif'), 2), 10, 10)).toEqual([0, 255, 0]);
    await expect(imagePageToPng(file('scan.tif'), 3)).rejects.toThrow(RangeError);
  });

  it('treats an animation as one page', async () => {
    expect(await imageInfo(file('animated.gif'))).toMatchObject({ pages: 1, format: 'gif' });
  });

  it('puts transparent images on white', async () => {
    expect(await pixelAt(await imagePageToPng(file('transparent.png')), 25, 25)).toEqual([255, 255, 255]);
  });

  it('throws ImageUnreadableError for corrupt images', async () => {
    await expect(imageInfo(file('garbage.png'))).rejects.toThrow(ImageUnreadableError);
    await expect(imagePageToPng(file('truncated.png'))).rejects.toThrow(ImageUnreadableError);
  });

  it('erases dot leaders on a copy, leaving the pixels other readers share as they were', async () => {
    const leader = (label: string, amount: string) => `${label}${'.'.repeat(40 - label.length - amount.length)}${amount}`;
    const lines = [leader('Subtotal', '1,250.00'), leader('VAT 23%', '287.50'), leader('Total', '1,537.50'), 'Northwind Supplies Ltd', 'Thank you for your order'];
    const page = await decodeGrey(await renderPage(lines.map((text, i) => ({ text, x: 100, y: 100 + 80 * i, font: 'mono' })), { width: 1400, height: 560 }));
    const before = Buffer.from(page.data);
    const lineHeight = await textLineHeight(page);
    expect(lineHeight).toBeGreaterThan(0);
    const cleaned = withoutDotLeaders(page, lineHeight);
    expect(cleaned).not.toBe(page);
    expect(Buffer.from(page.data).equals(before)).toBe(true);
    const dark = (data: Uint8Array | Uint8ClampedArray) => Array.from(data).filter((level) => level < 128).length;
    expect(dark(cleaned.data)).toBeLessThan(dark(page.data));

    // A page without leaders comes back as it is, not copied.
    const plain = await decodeGrey(await renderPage(lines.slice(3).concat(['Invoice INV-2024-0117', 'Due 15/02/2024', 'Paid by transfer']).map((text, i) => ({ text, x: 100, y: 100 + 80 * i, font: 'mono' })), { width: 1400, height: 560 }));
    expect(withoutDotLeaders(plain, await textLineHeight(plain))).toBe(plain);
  });
});
