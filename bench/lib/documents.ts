/**
 * Documents the pipeline benchmarks process, generated on the spot (nothing is downloaded): A4
 * pages of 40 lines of business prose, as a text layer or as 300 dpi scans.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

const LINES = [
  'Invoice number INV-2024-0042 issued on 15 January 2024 to Acme Corporation Lda.',
  'The quick brown fox jumps over the lazy dog while the accountant reviews totals.',
  'Payment is due within thirty days by bank transfer to the account stated below.',
  'Description Quantity Unit price Amount for consulting services rendered in March.',
];
const A4_POINTS: [number, number] = [595, 842];
const LINES_PER_PAGE = 40;

/** A PDF of `pages` A4 pages, each with 40 lines of text in its text layer. */
export async function prosePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p += 1) {
    const page = doc.addPage(A4_POINTS);
    for (let line = 0; line < LINES_PER_PAGE; line += 1) {
      page.drawText(LINES[(line + p) % LINES.length]!, { x: 40, y: 800 - line * 19, size: 10, font });
    }
  }
  return Buffer.from(await doc.save());
}

/** An A4 page at 300 dpi with 40 lines of text, slightly skewed, as a scanner would deliver it (JPEG). */
function scannedPage(seed: number): Promise<Buffer> {
  const rows = Array.from(
    { length: LINES_PER_PAGE },
    (_, i) => `<text x="120" y="${200 + i * 68}" font-family="DejaVu Serif" font-size="38">${LINES[(i + seed) % LINES.length]}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${rows.join('')}</svg>`;
  return sharp(Buffer.from(svg)).rotate(0.7, { background: 'white' }).jpeg({ quality: 85 }).toBuffer();
}

/** Distinct scans made; pages beyond them repeat them (rendering one costs about a second). */
const DISTINCT_SCANS = 4;

/** The distinct scans (JPEG, 300 dpi) the first `pages` pages of scannedProsePdf(pages) show, page p showing scan p % DISTINCT_SCANS. */
export function scannedPageImages(pages: number): Promise<Buffer[]> {
  return Promise.all(Array.from({ length: Math.min(pages, DISTINCT_SCANS) }, (_, i) => scannedPage(i)));
}

/** A PDF of `pages` scanned A4 pages (no text layer: every page needs OCR). */
export async function scannedProsePdf(pages: number, scans?: Buffer[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  scans ??= await scannedPageImages(pages);
  const images = await Promise.all(scans.map((jpeg) => doc.embedJpg(jpeg)));
  for (let p = 0; p < pages; p += 1) {
    doc.addPage(A4_POINTS).drawImage(images[p % images.length]!, { x: 0, y: 0, width: A4_POINTS[0], height: A4_POINTS[1] });
  }
  return Buffer.from(await doc.save());
}
