import { readBarcodes } from '../engines/qr.js';
import type { Point } from '../modules/exports/document-export.schemas.js';
import { boxOfPoints, round2, type Box } from './geometry.js';
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

// A text-layer page is only drawn for its codes; at 150 dpi a module of a printed QR code
// (0.5 mm and up) still spans three pixels, which zxing needs.
const BARCODE_DPI = 150;
const QR_FORMATS = new Set(['QRCode', 'MicroQRCode', 'rMQRCode']);

export function isQrCode(barcode: PageBarcode): boolean {
  return QR_FORMATS.has(barcode.format);
}

/** Every barcode on the page; OCRed pages reuse the image that was OCRed. */
export async function findBarcodes(page: SourcePage): Promise<PageBarcode[]> {
  const { png, unitsPerPixel } = await page.image(page.textSource === 'ocr' ? OCR_DPI : BARCODE_DPI);
  const codes = await readBarcodes(png);
  return codes.map(({ text, format, position }) => {
    const points = [position.topLeft, position.topRight, position.bottomRight, position.bottomLeft].map(({ x, y }) => ({
      x: round2(x * unitsPerPixel),
      y: round2(y * unitsPerPixel),
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
