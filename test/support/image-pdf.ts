import type { PDFDocument, PDFPage } from 'pdf-lib';
import sharp from 'sharp';

/**
 * Adds a page that is only `png`, sized as a scan of `dpi` dots per inch would print (a scanner's
 * PDF page: no text layer). No vitest import, so benchmarks use it too.
 */
export async function addImagePage(doc: PDFDocument, png: Buffer, dpi: number): Promise<PDFPage> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  const image = await doc.embedPng(png);
  const [w, h] = [(width * 72) / dpi, (height * 72) / dpi];
  const page = doc.addPage([w, h]);
  page.drawImage(image, { x: 0, y: 0, width: w, height: h });
  return page;
}
