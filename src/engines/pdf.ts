// First: it keeps the built-ins that loading pdfjs replaces (native-builtins.ts).
import { restoreNativeBuiltins } from './native-builtins.js';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageViewport, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
// Loading the worker module here registers its message handler on globalThis, so pdfjs parses in
// this thread instead of looking up and importing a worker script.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { countEvent } from '../observability/thread-counts.js';
import { errorMessage, PdfUnreadableError } from './errors.js';
import type { Box } from './geometry.js';
import { DrawingTally, type PageDrawing } from './pdf-drawing.js';
import { FontAdvanceTally, wordSpans, type FontAdvances, type PageFontAdvances } from './pdf-glyph-widths.js';
import { walkOperators } from './pdf-page-walk.js';
import { ViewportBox } from './viewport-box.js';

export type { PageDrawing } from './pdf-drawing.js';

restoreNativeBuiltins();

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
type TextItem = Extract<TextContent['items'][number], { str: string }>;
type TextStyle = TextContent['styles'][string];

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
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) pages.push(await pdfPageSize(doc, pageNumber));
    return { pageCount: doc.numPages, pages };
  });
}

/** One page's size in points (1-based page number), from a document already open. */
export async function pdfPageSize(doc: PDFDocumentProxy, pageNumber: number): Promise<PdfPageSize> {
  const page = await getPage(doc, pageNumber);
  const { width, height } = page.getViewport({ scale: 1 });
  page.cleanup();
  return { width, height };
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
 * The glyph advances of a page's fonts, from a walk of its operator list; none when pdf.js cannot
 * build the list (the words are then split evenly). The same walk makes out the page's drawing
 * (pdfPageDrawing), which the models read on most text pages: it is kept for it, so a page's list
 * is built and walked once.
 */
async function fontAdvancesOf(doc: PDFDocumentProxy, page: PDFPageProxy, pageNumber: number): Promise<PageFontAdvances | undefined> {
  const walking = walkPage(page, pageNumber, { fonts: true });
  keepWalk(doc, pageNumber, walking);
  try {
    return (await walking).fonts;
  } catch {
    return undefined;
  }
}

/** What one walk of a page's operator list made out. */
interface PageWalk {
  /** Its fonts' glyph advances: none when not asked for, or when they could not be made out. */
  fonts: PageFontAdvances | undefined;
  /** Its drawing, or what making it out threw. */
  drawing: { value: PageDrawing } | { error: unknown };
}

/** Builds a page's operator list and walks it once for its drawing, and its fonts' advances when asked. */
async function walkPage(page: PDFPageProxy, pageNumber: number, wanted: { fonts: boolean }): Promise<PageWalk> {
  const list = await unreadableOnError(`page ${pageNumber} drawing`, () => page.getOperatorList());
  const drawing = new DrawingTally(page.getViewport({ scale: 1 }).transform);
  const fonts = wanted.fonts ? new FontAdvanceTally() : undefined;
  const [drawingFailure, fontsFailure] = walkOperators(list, fonts ? [drawing, fonts] : [drawing]);
  return {
    fonts: fonts && !fontsFailure ? fonts.result() : undefined,
    drawing: drawingFailure ?? { value: drawing.result() },
  };
}

/**
 * Walks made for a page's words and not yet taken by its drawing, by document: a few pages'
 * worth, as many as are read ahead of the one being worked on; the oldest goes first.
 */
const walksKept = new WeakMap<PDFDocumentProxy, Map<number, Promise<PageWalk>>>();
const KEPT_WALKS = 8;

function keepWalk(doc: PDFDocumentProxy, pageNumber: number, walking: Promise<PageWalk>): void {
  walking.catch(() => {}); // the drawing that takes it reports the failure; it may never be taken
  let kept = walksKept.get(doc);
  if (!kept) walksKept.set(doc, (kept = new Map()));
  kept.delete(pageNumber);
  kept.set(pageNumber, walking);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_WALKS) break;
    kept.delete(oldest);
  }
}

function takeWalk(doc: PDFDocumentProxy, pageNumber: number): Promise<PageWalk> | undefined {
  const kept = walksKept.get(doc);
  const walking = kept?.get(pageNumber);
  kept?.delete(pageNumber);
  return walking;
}

/**
 * Where a page paints raster images and vector marks (PageDrawing, pdf-drawing.ts), from the walk
 * of its operator list its words made, else from a walk of its own.
 */
export async function pdfPageDrawing(doc: PDFDocumentProxy, pageNumber: number): Promise<PageDrawing> {
  const page = await getPage(doc, pageNumber);
  try {
    const { drawing } = await (takeWalk(doc, pageNumber) ?? walkPage(page, pageNumber, { fonts: false }));
    if ('error' in drawing) throw drawing.error;
    return drawing.value;
  } finally {
    page.cleanup();
  }
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

  return wordSpans(item.str, item.width, Math.hypot(a, b), advances).map(({ text, start, end }) => {
    const corners = new ViewportBox(viewport.transform);
    corners.addUser(e + alongX * start + upX * descent, f + alongY * start + upY * descent);
    corners.addUser(e + alongX * start + upX * ascent, f + alongY * start + upY * ascent);
    corners.addUser(e + alongX * end + upX * descent, f + alongY * end + upY * descent);
    corners.addUser(e + alongX * end + upX * ascent, f + alongY * end + upY * ascent);
    return { text: withoutLigatures(text), box: corners.box() };
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
