// First: it keeps the native JSON functions that loading pdfjs replaces (native-json.ts).
import { restoreNativeJson } from './native-json.js';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { getDocument, OPS, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageViewport, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
// Loading the worker module here registers its message handler on globalThis, so pdfjs parses in
// this thread instead of looking up and importing a worker script.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { countEvent } from '../observability/thread-counts.js';
import { errorMessage, PdfUnreadableError } from './errors.js';
import type { Box } from './geometry.js';
import { pageFontAdvances, wordSpans, type FontAdvances, type PageFontAdvances } from './pdf-glyph-widths.js';

restoreNativeJson();

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
type TextItem = Extract<TextContent['items'][number], { str: string }>;
type TextStyle = TextContent['styles'][string];
type OperatorList = Awaited<ReturnType<PDFPageProxy['getOperatorList']>>;

/** The part of pdfjs' Node canvas (@napi-rs/canvas) and its factory that rendering needs. */
interface NodeCanvas {
  toBuffer(mime: 'image/png'): Buffer;
  getContext(kind: '2d'): { getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray } };
}
interface NodeCanvasFactory {
  create(width: number, height: number): { canvas: NodeCanvas };
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
    const fonts = content.items.some((item) => 'str' in item && MULTI_WORD.test(item.str)) ? await fontAdvancesOf(doc, page, pageNumber) : undefined;
    const words: PdfWord[] = [];
    let previous: { item: TextItem; last: PdfWord | undefined } | undefined;
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const itemWords = wordsOfItem(item, content.styles[item.fontName], fonts?.get(item.fontName), viewport);
      // A word the producer wrote as several runs (a ligature glyph as a run of its own: "O", "ffi",
      // "ce") is one word when the runs touch.
      const first = itemWords[0];
      if (previous?.last && first && continuesWord(previous.item, previous.last, item, first)) {
        previous.last.text += first.text;
        previous.last.box = unionOf(previous.last.box, first.box);
        itemWords.shift();
      }
      words.push(...itemWords);
      if (item.str.length > 0) previous = { item, last: /\s$/.test(item.str) ? undefined : (itemWords.at(-1) ?? previous?.last) };
    }
    return { hasTextLayer: words.length > 0, words };
  } finally {
    page.cleanup();
  }
}

/** A run holding more than one word: only such runs need the glyph advances to be split. */
const MULTI_WORD = /\S\s+\S/;

/**
 * The glyph advances of a page's fonts, from its operator list; none when pdf.js cannot build the
 * list (the words are then split evenly). The list is kept for the page's drawing (pdfPageDrawing),
 * which the models read on most text pages, so a page's list is built once.
 */
async function fontAdvancesOf(doc: PDFDocumentProxy, page: PDFPageProxy, pageNumber: number): Promise<PageFontAdvances | undefined> {
  const reading = page.getOperatorList();
  keepOperatorList(doc, pageNumber, reading);
  try {
    return pageFontAdvances(await reading);
  } catch {
    return undefined;
  }
}

/**
 * Operator lists read for a page's words and not yet taken by its drawing, by document: a few
 * pages' worth, as many as are read ahead of the one being worked on; the oldest goes first.
 */
const operatorListsKept = new WeakMap<PDFDocumentProxy, Map<number, Promise<OperatorList>>>();
const KEPT_OPERATOR_LISTS = 8;

function keepOperatorList(doc: PDFDocumentProxy, pageNumber: number, reading: Promise<OperatorList>): void {
  reading.catch(() => {}); // the drawing that takes it reports the failure; it may never be taken
  let kept = operatorListsKept.get(doc);
  if (!kept) operatorListsKept.set(doc, (kept = new Map()));
  kept.delete(pageNumber);
  kept.set(pageNumber, reading);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_OPERATOR_LISTS) break;
    kept.delete(oldest);
  }
}

function takeOperatorList(doc: PDFDocumentProxy, pageNumber: number): Promise<OperatorList> | undefined {
  const kept = operatorListsKept.get(doc);
  const reading = kept?.get(pageNumber);
  kept?.delete(pageNumber);
  return reading;
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

/** What a page draws besides its text, in points with a top-left origin like word boxes. */
export interface PageDrawing {
  /** Raster images (scans pasted into a document, photos, signatures). */
  images: Box[];
  /**
   * Pieces of vector drawing: each filled or stroked subpath, and each image mask (a one-colour
   * bitmap). Barcodes drawn as vectors are many small marks side by side.
   */
  marks: Box[];
}

/** The path operators that paint (fill, stroke or both); endPath only clips. */
const FILLING = new Set<number>([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const STROKING = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
/** pdf.js's drawing commands inside a constructPath buffer, with how many numbers follow each. */
const DRAW_OP_ARGS: Readonly<Record<number, number>> = { 0: 2, 1: 2, 2: 6, 3: 4, 4: 0 };
const DRAW_CLOSE = 4;
const DRAW_MOVE = 0;

/** Graphics state the walk tracks: the transformation and the line width (strokes are as wide as it). */
interface WalkState {
  ctm: Matrix;
  lineWidth: number;
}

/**
 * Where a page paints raster images and vector marks (PageDrawing), from one walk of its operator
 * list. PDF draws every image into the unit square of the current transformation, so each image
 * box is that square under the transformation in force at the paint operator (tracked through
 * save/restore, cm and form XObjects), then the viewport's; a path's pieces are boxed in user
 * space and mapped the same way.
 */
export async function pdfPageDrawing(doc: PDFDocumentProxy, pageNumber: number): Promise<PageDrawing> {
  const page = await getPage(doc, pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const { fnArray, argsArray } = await unreadableOnError(`page ${pageNumber} drawing`, () => takeOperatorList(doc, pageNumber) ?? page.getOperatorList());
    const images: Box[] = [];
    const marks: Box[] = [];
    const toPage = (m: Matrix, corners: ReadonlyArray<readonly [number, number]>) =>
      boundingBox(
        corners.map(([x, y]) => {
          const [a, b, c, d, e, f] = m;
          return viewport.convertToViewportPoint(a * x + c * y + e, b * x + d * y + f) as [number, number];
        }),
      );
    const unitSquare = (m: Matrix) => toPage(m, UNIT_SQUARE);
    const userBox = (m: Matrix, [x0, y0, x1, y1]: readonly number[]) => toPage(m, [[x0!, y0!], [x1!, y0!], [x0!, y1!], [x1!, y1!]]);
    let state: WalkState = { ctm: IDENTITY, lineWidth: 1 };
    const saved: WalkState[] = [];
    for (let i = 0; i < fnArray.length; i++) {
      const args = argsArray[i] as unknown[] | null;
      switch (fnArray[i]) {
        case OPS.save:
          saved.push(state);
          break;
        case OPS.restore:
        case OPS.paintFormXObjectEnd:
          state = saved.pop() ?? state;
          break;
        case OPS.transform:
          state = { ...state, ctm: compose(state.ctm, asMatrix(args as number[]) ?? IDENTITY) };
          break;
        case OPS.paintFormXObjectBegin:
          saved.push(state);
          state = { ...state, ctm: compose(state.ctm, asMatrix(args?.[0] as number[] | null) ?? IDENTITY) };
          break;
        case OPS.setLineWidth:
          state = { ...state, lineWidth: Number(args?.[0]) || 0 };
          break;
        case OPS.setGState:
          for (const [key, value] of (args?.[0] ?? []) as Array<[string, unknown]>) if (key === 'LW') state = { ...state, lineWidth: Number(value) || 0 };
          break;
        case OPS.constructPath: {
          const [paint, data, minMax] = (args ?? []) as [number, unknown[] | undefined, ArrayLike<number> | null | undefined];
          const buffer = data?.[0];
          if (!FILLING.has(paint) && !STROKING.has(paint)) break;
          // A stroke covers half its width on each side of the path.
          const grow = STROKING.has(paint) ? state.lineWidth / 2 : 0;
          for (const [x0, y0, x1, y1] of pathPieces(buffer, minMax)) marks.push(userBox(state.ctm, [x0 - grow, y0 - grow, x1 + grow, y1 + grow]));
          break;
        }
        case OPS.paintImageXObject:
        case OPS.paintInlineImageXObject:
          images.push(unitSquare(state.ctm));
          break;
        case OPS.paintImageMaskXObject:
          // A mask is a picture as much as a mark (a scanned signature, a one-colour logo, a code).
          images.push(unitSquare(state.ctm));
          marks.push(unitSquare(state.ctm));
          break;
        case OPS.paintSolidColorImageMask:
          marks.push(unitSquare(state.ctm));
          break;
        case OPS.paintImageXObjectRepeat: {
          // One image at many positions: [objId, scaleX, scaleY, x0, y0, x1, y1, ...].
          const [, scaleX, scaleY, positions] = args as [unknown, number, number, ArrayLike<number>];
          for (let p = 0; p + 1 < positions.length; p += 2) {
            images.push(unitSquare(compose(state.ctm, [scaleX, 0, 0, scaleY, positions[p]!, positions[p + 1]!])));
          }
          break;
        }
        case OPS.paintImageMaskXObjectRepeat: {
          // One mask at many positions: [image, scaleX, skewX, skewY, scaleY, x0, y0, x1, y1, ...].
          const [, scaleX, skewX, skewY, scaleY, positions] = args as [unknown, number, number, number, number, ArrayLike<number>];
          for (let p = 0; p + 1 < positions.length; p += 2) {
            marks.push(unitSquare(compose(state.ctm, [scaleX, skewX ?? 0, skewY ?? 0, scaleY, positions[p]!, positions[p + 1]!])));
          }
          break;
        }
        case OPS.paintInlineImageXObjectGroup: {
          // Many small inline images: [imageData, [{ transform }, ...]].
          const placements = (args?.[1] ?? []) as Array<{ transform: number[] }>;
          for (const placement of placements) images.push(unitSquare(compose(state.ctm, asMatrix(placement.transform) ?? IDENTITY)));
          break;
        }
        case OPS.paintImageMaskXObjectGroup: {
          // Many small masks: [[{ transform }, ...]].
          const masks = (args?.[0] ?? []) as Array<{ transform: number[] }>;
          for (const mask of masks) marks.push(unitSquare(compose(state.ctm, asMatrix(mask.transform) ?? IDENTITY)));
          break;
        }
      }
    }
    return { images, marks };
  } finally {
    page.cleanup();
  }
}

const UNIT_SQUARE: ReadonlyArray<readonly [number, number]> = [[0, 0], [1, 0], [0, 1], [1, 1]];

/**
 * The user-space boxes [x0, y0, x1, y1] of a path's subpaths (a code drawn as one path of many
 * module squares gives one box per module). From the path's overall extent when pdf.js gives
 * no buffer of drawing commands.
 */
function pathPieces(buffer: unknown, minMax: ArrayLike<number> | null | undefined): Array<[number, number, number, number]> {
  if (!(buffer instanceof Float32Array)) return minMax && minMax.length >= 4 && Number.isFinite(minMax[0]) ? [[minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!]] : [];
  const pieces: Array<[number, number, number, number]> = [];
  let piece: [number, number, number, number] | undefined;
  // After a closePath the next piece starts where the closed one did.
  let start: [number, number] = [0, 0];
  const extend = (x: number, y: number) => {
    if (!piece) pieces.push((piece = [x, y, x, y]));
    else {
      piece[0] = Math.min(piece[0], x);
      piece[1] = Math.min(piece[1], y);
      piece[2] = Math.max(piece[2], x);
      piece[3] = Math.max(piece[3], y);
    }
  };
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++]!;
    const count = DRAW_OP_ARGS[op];
    if (count === undefined) break; // not a buffer this walk understands; what was read stays
    if (op === DRAW_MOVE) {
      piece = undefined;
      start = [buffer[k]!, buffer[k + 1]!];
    } else if (!piece && op !== DRAW_CLOSE) extend(...start);
    // Curves are boxed by their control points, which hold the curve.
    for (let n = 0; n < count; n += 2) extend(buffer[k + n]!, buffer[k + n + 1]!);
    if (op === DRAW_CLOSE) piece = undefined;
    k += count;
  }
  return pieces;
}

/** Where a page paints raster images, in points from the top-left (see pdfPageDrawing). */
export async function pdfPageImageBoxes(doc: PDFDocumentProxy, pageNumber: number): Promise<Box[]> {
  return (await pdfPageDrawing(doc, pageNumber)).images;
}

/**
 * Renders one page (1-based) to a PNG at `dpi`; its pixel size is the page size in points × dpi /
 * 72. With `region` (points, top-left origin) only that part of the page is drawn, its top-left
 * at the PNG's origin.
 */
export async function renderPdfPage(source: string | PDFDocumentProxy, pageNumber: number, dpi: number, region?: Box): Promise<Buffer> {
  if (typeof source === 'string') return withPdf(source, (doc) => renderPdfPage(doc, pageNumber, dpi, region));
  return drawPage(source, pageNumber, dpi, region, (canvas) => canvas.toBuffer('image/png'));
}

/** Decoded pixels of a rendering, row by row: 1 byte per pixel (grey) or 4 (RGBA). */
export interface Pixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  channels: 1 | 4;
}

/** Like renderPdfPage, as RGBA pixels: for readers that take pixels (barcodes), no PNG made and decoded. */
export function renderPdfPagePixels(doc: PDFDocumentProxy, pageNumber: number, dpi: number, region?: Box): Promise<Pixels> {
  return drawPage(doc, pageNumber, dpi, region, (canvas, width, height) => ({
    data: canvas.getContext('2d').getImageData(0, 0, width, height).data,
    width,
    height,
    channels: 4,
  }));
}

async function drawPage<T>(doc: PDFDocumentProxy, pageNumber: number, dpi: number, region: Box | undefined, read: (canvas: NodeCanvas, width: number, height: number) => T): Promise<T> {
  const page = await getPage(doc, pageNumber);
  const scale = dpi / 72;
  const viewport = page.getViewport({ scale, offsetX: -(region?.left ?? 0) * scale, offsetY: -(region?.top ?? 0) * scale });
  const canvasFactory = doc.canvasFactory as NodeCanvasFactory;
  const [width, height] = (region ? [region.width * scale, region.height * scale] : [viewport.width, viewport.height]).map((side) => Math.max(1, Math.ceil(side))) as [number, number];
  const target = canvasFactory.create(width, height);
  countEvent('pageRenders');
  try {
    await unreadableOnError(`page ${pageNumber} rendering`, () => page.render({ canvas: target.canvas, viewport }).promise);
    return read(target.canvas, width, height);
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
 * Splits a text item at whitespace, each word where its glyphs lie along the run (wordSpans: at
 * the font's glyph advances, else an equal share per character). The word's quadrilateral
 * (baseline direction × font ascent..descent) is mapped to the viewport, which also applies the
 * page rotation, and boxed.
 */
function wordsOfItem(item: TextItem, style: TextStyle | undefined, font: FontAdvances | undefined, viewport: PageViewport): PdfWord[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform as number[];
  const [alongX, alongY] = unitVector(a, b) ?? [1, 0];
  const [upX, upY] = unitVector(c, d) ?? [0, 1];
  const fontSize = Math.hypot(c, d) || item.height;
  const ascent = (style?.ascent || DEFAULT_ASCENT) * fontSize;
  const descent = (style?.descent || DEFAULT_DESCENT) * fontSize;
  // Glyph advances read left to right along a horizontal run only; vertical and right-to-left runs
  // are split evenly.
  const advances = style?.vertical || item.dir === 'rtl' ? undefined : font;

  return wordSpans(item.str, item.width, Math.hypot(a, b), advances).map((span) => {
    const corners = [span.start, span.end].flatMap((s) =>
      [descent, ascent].map((t) =>
        viewport.convertToViewportPoint(e + alongX * s + upX * t, f + alongY * s + upY * t) as [number, number],
      ),
    );
    return { text: withoutLigatures(span.text), box: boundingBox(corners) };
  });
}

/** Ligatures as the letters they join (pdf.js keeps a ligature glyph's own code point). */
const LIGATURES: Record<string, string> = { '\uFB00': 'ff', '\uFB01': 'fi', '\uFB02': 'fl', '\uFB03': 'ffi', '\uFB04': 'ffl', '\uFB05': 'st', '\uFB06': 'st' };

function withoutLigatures(text: string): string {
  return text.replace(/[\uFB00-\uFB06]/g, (ligature) => LIGATURES[ligature] ?? ligature);
}

/**
 * Whether `next` (the first word of a run) goes on `last` (the last word of the run before): the
 * earlier run ends in a letter, the next starts with one, no line ends between them, and they sit
 * on one line with less than a tenth of their height between them.
 */
function continuesWord(previousItem: TextItem, last: PdfWord, item: TextItem, next: PdfWord): boolean {
  if (previousItem.hasEOL || /^\s/.test(item.str)) return false;
  const height = Math.min(last.box.height, next.box.height);
  const gap = next.box.left - (last.box.left + last.box.width);
  const lastMiddle = last.box.top + last.box.height / 2;
  const nextMiddle = next.box.top + next.box.height / 2;
  return height > 0 && gap > -0.1 * height && gap < 0.1 * height && Math.abs(lastMiddle - nextMiddle) < 0.25 * height;
}

function unionOf(a: Box, b: Box): Box {
  const left = Math.min(a.left, b.left);
  const top = Math.min(a.top, b.top);
  return { left, top, width: Math.max(a.left + a.width, b.left + b.width) - left, height: Math.max(a.top + a.height, b.top + b.height) - top };
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
