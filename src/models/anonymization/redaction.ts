import { writeFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Box } from '../page/text/geometry.js';

/** Paints opaque black boxes (pixels) over an image; what was under them is gone from the pixels. */
export async function paintBoxes(png: Buffer, boxes: readonly Box[]): Promise<Buffer> {
  if (boxes.length === 0) return png;
  const { width, height } = await sharp(png).metadata();
  const rects = boxes
    .map((b) => `<rect x="${b.left.toFixed(1)}" y="${b.top.toFixed(1)}" width="${b.width.toFixed(1)}" height="${b.height.toFixed(1)}"/>`)
    .join('');
  const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g fill="#000">${rects}</g></svg>`);
  return sharp(png).composite([{ input: overlay, top: 0, left: 0 }]).png().toBuffer();
}

// A photo-like encoding keeps a page of a few hundred kilobytes; black boxes stay black.
const JPEG_QUALITY = 85;

/**
 * A PDF made of page images only: no text layer, no fonts, no original objects, so nothing that
 * was painted over can be extracted from it.
 */
export class ImagePdf {
  private readonly doc = PDFDocument.create();

  /** Appends a page of `widthPt` x `heightPt` points showing the image. */
  async addPage(png: Buffer, widthPt: number, heightPt: number): Promise<void> {
    const doc = await this.doc;
    const image = await doc.embedJpg(await sharp(png).flatten({ background: '#ffffff' }).jpeg({ quality: JPEG_QUALITY }).toBuffer());
    doc.addPage([widthPt, heightPt]).drawImage(image, { x: 0, y: 0, width: widthPt, height: heightPt });
  }

  async save(path: string): Promise<void> {
    const doc = await this.doc;
    // The producer defaults name pdf-lib; nothing of the source document's metadata is copied.
    await writeFile(path, await doc.save());
  }
}
