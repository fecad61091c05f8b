import type { Pixels } from '../../engines/pdf.js';
import { cropPixels, toRgba } from '../../engines/pixels.js';
import { readBarcodes } from '../../engines/qr.js';
import type { Point } from '../../domain/entities.js';
import { codeRegions, scannedCodeRegions } from './code-regions.js';
import { boxOfPoints, round2, scaleBox, type Box } from './text/geometry.js';
import { OCR_DPI, type SourcePage } from './page-reader.js';

export interface PageBarcode {
  text: string;
  /** zxing's format name: QRCode, DataMatrix, EAN13, Code128, ... */
  format: string;
  /** Page units. */
  box: Box;
  /** The symbol's corners clockwise from its top-left (a turned code keeps its turn). */
  points: Point[];
}

export interface KeyValuePayload {
  pairs: Array<{ key: string; value: string }>;
  /** Parts that are not KEY:VALUE. */
  invalidCount: number;
  duplicatedKeys: string[];
}

const QR_FORMATS = new Set(['QRCode', 'MicroQRCode', 'rMQRCode']);

export function isQrCode(barcode: PageBarcode): boolean {
  return QR_FORMATS.has(barcode.format);
}

/**
 * Every barcode on the page, searched only where one could be: on a text-layer page, the raster
 * images and the clusters of vector marks its drawing holds (a page of text and rules has none
 * and is never drawn as pixels); on an OCRed page, the patches of dense ink outside the words the
 * OCR read, in the pixels it read.
 */
export async function findBarcodes(page: SourcePage): Promise<PageBarcode[]> {
  const found: PageBarcode[] = [];
  if (page.textSource === 'textLayer') {
    const drawing = await page.drawing();
    for (const region of drawing ? codeRegions(drawing, page) : []) {
      const { pixels, unitsPerPixel } = await page.pixels(region.dpi, region.box);
      found.push(...(await decode(pixels, unitsPerPixel, region.box.left, region.box.top)));
    }
    return found;
  }
  const { pixels, unitsPerPixel } = await page.pixels(OCR_DPI);
  const words = page.words.map((word) => ({ text: word.text, confidence: word.confidence, box: scaleBox(word.box, 1 / unitsPerPixel) }));
  for (const patch of scannedCodeRegions(pixels, words)) {
    const crop = cropPixels(pixels, patch);
    found.push(...(await decode(crop, unitsPerPixel, Math.floor(patch.left) * unitsPerPixel, Math.floor(patch.top) * unitsPerPixel)));
  }
  return found;
}

/** The codes in some pixels, their corners in page units (the pixels' origin at `left`, `top` of the page). */
async function decode(pixels: Pixels, unitsPerPixel: number, left: number, top: number): Promise<PageBarcode[]> {
  if (pixels.width === 0 || pixels.height === 0) return [];
  const codes = await readBarcodes({ data: toRgba(pixels), width: pixels.width, height: pixels.height });
  return codes.map(({ text, format, position }) => {
    const points = [position.topLeft, position.topRight, position.bottomRight, position.bottomLeft].map(({ x, y }) => ({
      x: round2(left + x * unitsPerPixel),
      y: round2(top + y * unitsPerPixel),
    }));
    return { text, format, box: boxOfPoints(points), points };
  });
}

/**
 * A "KEY:VALUE*KEY:VALUE" payload (the Portuguese fiscal QR code and similar): undefined when the
 * text has no such structure (a URL, a plain number).
 */
export function parseKeyValuePayload(text: string): KeyValuePayload | undefined {
  const parts = text.split('*');
  if (parts.length < 2) return undefined;
  const pairs: KeyValuePayload['pairs'] = [];
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  let invalidCount = 0;
  for (const part of parts) {
    const match = /^([A-Za-z0-9]{1,8}):(.*)$/s.exec(part);
    if (!match) {
      invalidCount++;
      continue;
    }
    const [, key, value] = match as unknown as [string, string, string];
    if (seen.has(key)) duplicated.add(key);
    seen.add(key);
    pairs.push({ key, value });
  }
  return pairs.length > invalidCount ? { pairs, invalidCount, duplicatedKeys: [...duplicated] } : undefined;
}
