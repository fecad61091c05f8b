import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { getDocument, OPS, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageViewport, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
// Loading the worker module here registers its message handler on globalThis, so pdfjs parses in
// this thread instead of looking up and importing a worker script.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { errorMessage, PdfUnreadableError } from './errors.js';
import type { Box } from './geometry.js';

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
type TextItem = Extract<TextContent['items'][number], { str: string }>;
type TextStyle = TextContent['styles'][string];

/** The part of pdfjs' Node canvas factory (backed by @napi-rs/canvas) that rendering needs. */
interface NodeCanvasFactory {
  create(width: number, height: number): { canvas: { toBuffer(mime: 'image/png'): Buffer } };
  destroy(target: { canvas: unknown }): void;
}

export interface PdfPageSize {
  /** Points (1/72 inch), after the page's own rotation: the size a rendering of it has. */
  width: number;
  height: number;
}

export interface PdfInfo {
  pageCount: number;
  pages: PdfPageSize[];
}

export interface PdfWord {
  text: string;
  /** Points, top-left origin, y down, in the same space as `PdfPageSize`. */
  box: Box;
}

export interface PdfPageText {
  /** False for scanned pages: they need OCR. */
  hasTextLayer: boolean;
  words: PdfWord[];
}

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// Data pdfjs would otherwise fetch at run time: the 14 standard fonts (for PDFs that do not embed
// them), CMaps (CJK fonts), ICC profiles and the JPEG 2000 / JBIG2 decoders. Directories need the
// trailing slash.
const bundledData = {
  standardFontDataUrl: `${pdfjsRoot}/standard_fonts/`,
  cMapUrl: `${pdfjsRoot}/cmaps/`,
  iccUrl: `${pdfjsRoot}/iccs/`,
  wasmUrl: `${pdfjsRoot}/wasm/`,
};

// Fallbacks for fonts whose metrics pdfjs could not read; typical of Latin text faces.
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

/** Opens a PDF with pdfjs; the caller must `destroy()` it (or use `withPdf`). */
export async function openPdf(filePath: string): Promise<PDFDocumentProxy> {
  const data = new Uint8Array(await readFile(filePath));
  return unreadableOnError('unreadable PDF', () =>
    getDocument({
      data,
      ...bundledData,
      isEvalSupported: false,
      // Fonts are drawn from their parsed outlines, never from the system or a font fetch.
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: VerbosityLevel.ERRORS,
    }).promise,
  );
}

/** Opens a PDF, runs `work` on it and always releases it. */
export async function withPdf<T>(filePath: string, work: (doc: PDFDocumentProxy) => Promise<T>): Promise<T> {
  const doc = await openPdf(filePath);
  try {
    return await work(doc);
  } finally {
    await doc.destroy();
  }
}

/** Page count and each page's size in points. */
export function pdfInfo(filePath: string): Promise<PdfInfo> {
  return withPdf(filePath, async (doc) => {
    const pages: PdfPageSize[] = [];
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      const page = await getPage(doc, pageNumber);
      const { width, height } = page.getViewport({ scale: 1 });
      pages.push({ width, height });
      page.cleanup();
    }
    return { pageCount: doc.numPages, pages };
  });
}

/** Words of a page's text layer with their boxes in points (1-based page number). */
export async function pdfPageText(doc: PDFDocumentProxy, pageNumber: number): Promise<PdfPageText> {
  const page = await getPage(doc, pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await unreadableOnError(`page ${pageNumber} text`, () => page.getTextContent());
    const words = content.items
      .filter((item): item is TextItem => 'str' in item)
      .flatMap((item) => wordsOfItem(item, content.styles[item.fontName], viewport));
    return { hasTextLayer: words.length > 0, words };
  } finally {
    page.cleanup();
  }
}

/** A PDF transformation matrix [a, b, c, d, e, f]: (x, y) → (ax + cy + e, bx + dy + f). */
type Matrix = readonly [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `outer` after `inner`: what a point drawn under `inner` ends up at once `outer` applies too. */
function compose(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [a2, b2, c2, d2, e2, f2] = inner;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

function asMatrix(values: ArrayLike<number> | null | undefined): Matrix | null {
  if (!values || values.length < 6) return null;
  return [values[0]!, values[1]!, values[2]!, values[3]!, values[4]!, values[5]!];
}

/**
 * Where a page paints raster images (scans pasted into a document, photos, signatures), in points
 * with a top-left origin like word boxes. PDF draws every image into the unit square of the
 * current transformation, so each box is that square under the transformation in force at the
 * paint operator (tracked through save/restore, cm and form XObjects), then the viewport's.
 */
export async function pdfPageImageBoxes(doc: PDFDocumentProxy, pageNumber: number): Promise<Box[]> {
  const page = await getPage(doc, pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const { fnArray, argsArray } = await unreadableOnError(`page ${pageNumber} drawing`, () => page.getOperatorList());
    const boxes: Box[] = [];
    const unitSquare = (m: Matrix) =>
      boundingBox(
        [[0, 0], [1, 0], [0, 1], [1, 1]].map(([x, y]) => {
          const [a, b, c, d, e, f] = m;
          return viewport.convertToViewportPoint(a * x! + c * y! + e, b * x! + d * y! + f) as [number, number];
        }),
      );
    let ctm: Matrix = IDENTITY;
    const saved: Matrix[] = [];
    for (let i = 0; i < fnArray.length; i++) {
      const args = argsArray[i] as unknown[] | null;
      switch (fnArray[i]) {
        case OPS.save:
          saved.push(ctm);
          break;
        case OPS.restore:
        case OPS.paintFormXObjectEnd:
          ctm = saved.pop() ?? ctm;
          break;
        case OPS.transform:
          ctm = compose(ctm, asMatrix(args as number[]) ?? IDENTITY);
          break;
        case OPS.paintFormXObjectBegin:
          saved.push(ctm);
          ctm = compose(ctm, asMatrix(args?.[0] as number[] | null) ?? IDENTITY);
          break;
        case OPS.paintImageXObject:
        case OPS.paintInlineImageXObject:
        case OPS.paintImageMaskXObject:
          boxes.push(unitSquare(ctm));
          break;
        case OPS.paintImageXObjectRepeat: {
          // One image at many positions: [objId, scaleX, scaleY, x0, y0, x1, y1, ...].
          const [, scaleX, scaleY, positions] = args as [unknown, number, number, ArrayLike<number>];
          for (let p = 0; p + 1 < positions.length; p += 2) {
            boxes.push(unitSquare(compose(ctm, [scaleX, 0, 0, scaleY, positions[p]!, positions[p + 1]!])));
          }
          break;
        }
        case OPS.paintInlineImageXObjectGroup: {
          // Many small inline images: [imageData, [{ transform }, ...]].
          const placements = (args?.[1] ?? []) as Array<{ transform: number[] }>;
          for (const placement of placements) boxes.push(unitSquare(compose(ctm, asMatrix(placement.transform) ?? IDENTITY)));
          break;
        }
      }
    }
    return boxes;
  } finally {
    page.cleanup();
  }
}

/**
 * Renders one page (1-based) to a PNG at `dpi`; its pixel size is the page size in points × dpi /
 * 72. With `region` (points, top-left origin) only that part of the page is drawn, its top-left
 * at the PNG's origin.
 */
export async function renderPdfPage(source: string | PDFDocumentProxy, pageNumber: number, dpi: number, region?: Box): Promise<Buffer> {
  if (typeof source === 'string') return withPdf(source, (doc) => renderPdfPage(doc, pageNumber, dpi, region));
  const page = await getPage(source, pageNumber);
  const scale = dpi / 72;
  const viewport = page.getViewport({ scale, offsetX: -(region?.left ?? 0) * scale, offsetY: -(region?.top ?? 0) * scale });
  const canvasFactory = source.canvasFactory as NodeCanvasFactory;
  const [width, height] = region ? [region.width * scale, region.height * scale] : [viewport.width, viewport.height];
  const target = canvasFactory.create(Math.max(1, Math.ceil(width)), Math.max(1, Math.ceil(height)));
  try {
    await unreadableOnError(`page ${pageNumber} rendering`, () => page.render({ canvas: target.canvas, viewport }).promise);
    return target.canvas.toBuffer('image/png');
  } finally {
    canvasFactory.destroy(target);
    page.cleanup();
  }
}

/** Writes a new PDF holding the given pages (1-based, in the given order) of `filePath`. */
export async function extractPdfPages(filePath: string, pageNumbers: readonly number[], outPath: string): Promise<void> {
  const bytes = await readFile(filePath);
  // pdf-lib parses lazily: a broken catalog may only surface when the pages are reached.
  const source = await unreadableOnError('unreadable PDF', () => PDFDocument.load(bytes));
  const pageCount = await unreadableOnError('unreadable PDF', async () => source.getPageCount());
  const outside = pageNumbers.filter((n) => !Number.isInteger(n) || n < 1 || n > pageCount);
  if (outside.length > 0) throw new RangeError(`pages ${outside.join(', ')} are outside 1..${pageCount}`);
  const output = await unreadableOnError('pages cannot be copied', async () => {
    const target = await PDFDocument.create();
    const copies = await target.copyPages(source, pageNumbers.map((n) => n - 1));
    for (const copy of copies) target.addPage(copy);
    return target.save();
  });
  await writeFile(outPath, output);
}

async function getPage(doc: PDFDocumentProxy, pageNumber: number): Promise<PDFPageProxy> {
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
    throw new RangeError(`page ${pageNumber} is outside 1..${doc.numPages}`);
  }
  return unreadableOnError(`page ${pageNumber}`, () => doc.getPage(pageNumber));
}

/** Runs a pdfjs or pdf-lib step, turning whatever it throws into a PdfUnreadableError. */
async function unreadableOnError<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new PdfUnreadableError(`${what}: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * Splits a text item at whitespace. pdfjs gives only the item's total advance, so each word's
 * extent along the baseline is estimated from its share of the characters. The word's quadrilateral
 * (baseline direction × font ascent..descent) is mapped to the viewport, which also applies the
 * page rotation, and boxed.
 */
function wordsOfItem(item: TextItem, style: TextStyle | undefined, viewport: PageViewport): PdfWord[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform as number[];
  const [alongX, alongY] = unitVector(a, b) ?? [1, 0];
  const [upX, upY] = unitVector(c, d) ?? [0, 1];
  const fontSize = Math.hypot(c, d) || item.height;
  const ascent = (style?.ascent || DEFAULT_ASCENT) * fontSize;
  const descent = (style?.descent || DEFAULT_DESCENT) * fontSize;
  const length = item.str.length;

  return [...item.str.matchAll(/\S+/g)].map((match) => {
    const start = (item.width * match.index) / length;
    const end = (item.width * (match.index + match[0].length)) / length;
    const corners = [start, end].flatMap((s) =>
      [descent, ascent].map((t) =>
        viewport.convertToViewportPoint(e + alongX * s + upX * t, f + alongY * s + upY * t) as [number, number],
      ),
    );
    return { text: match[0], box: boundingBox(corners) };
  });
}

function unitVector(x: number, y: number): [number, number] | null {
  const length = Math.hypot(x, y);
  return length > 0 ? [x / length, y / length] : null;
}

function boundingBox(points: readonly (readonly [number, number])[]): Box {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}
