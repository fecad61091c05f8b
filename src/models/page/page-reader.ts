import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { imagePageToPng, textLineHeight, withoutDotLeaders } from '../../engines/image.js';
import { chooseOcrEngine, ocrImage, ocrProcessLimit, type OcrOptions, type OcrResult } from '../../engines/ocr.js';
import { levelPage, MIN_DESKEW_DEGREES, pageSkewDegrees } from '../../engines/deskew.js';
import { paddleOcrAvailable, paddleOcrImage, type PaddleOcrOptions } from '../../engines/paddle-ocr.js';
import { openPdf, pdfPageDrawing, pdfPageSize, pdfPageText, renderPdfPage, renderPdfPagePixels, type PageDrawing, type Pixels } from '../../engines/pdf.js';
import { EngineFailedError, PdfUnreadableError } from '../../engines/errors.js';
import { cropPixels, decodeGrey, greyPng, resizeGrey, toGrey, turnPng, type GreyPixels } from '../../engines/pixels.js';
import { hasPdftoppm, renderPdfPageGrey } from '../../engines/poppler.js';
import { centerOf, containsPoint, growBox, overlap, scaleBox, unionBox, type Box } from './text/geometry.js';
import { ModelRejectedInputError, type ModelInput } from '../model.js';
import { rereadGarbled } from './garbled-words.js';
import { foldFullwidth, joinCjkWords } from './cjk-text.js';
import { CJK_MODELS, looksForeign, readsCjk, sureGlyphWidths } from './cjk-reading.js';
import { joinSplitDecimals } from './split-decimals.js';
import { joinSplitInitials } from './split-initials.js';
import { isPoorReading, linesRunDown, sureCharacters, TURN_GAIN } from './reading-quality.js';
import type { PageWord } from './text/text-lines.js';

/** A page drawn as pixels, and how many page units one pixel is. */
export interface PageImage {
  png: Buffer;
  unitsPerPixel: number;
}

/** A page, or a region of it, as decoded pixels (no image encoding), and how many page units one pixel is. */
export interface PagePixels {
  pixels: Pixels;
  unitsPerPixel: number;
}

export interface SourcePage {
  pageNumber: number;
  /** Page units: points for PDFs, pixels for images. */
  width: number;
  height: number;
  textSource: 'textLayer' | 'ocr';
  words: PageWord[];
  /** The page as an image; PDF pages are rendered at `dpi` (images keep their own pixels). */
  image(dpi?: number): Promise<PageImage>;
  /**
   * Words inside the raster images of a text-layer page (a scan pasted into a document, a
   * letterhead, a photo of an ID card), read by OCR once, except where they repeat the text
   * layer. None for OCRed pages: their OCR read the images already.
   */
  imageWords(): Promise<PageWord[]>;
  /** Every word the page shows: its text layer or OCR, and the words inside its images. */
  allWords(): Promise<PageWord[]>;
  /**
   * What a PDF page draws besides its text (raster images, vector marks), from its operator list
   * without rendering it; undefined for image sources, which are all pixels.
   */
  drawing(): Promise<PageDrawing | undefined>;
  /**
   * The page as decoded pixels at `dpi` (images keep their own pixels), or only `region` of it
   * (page units; the pixels' origin is the region's top-left). A full page is drawn once per dpi
   * and shared with the OCR that read it; a region of a page not drawn whole is drawn alone.
   */
  pixels(dpi?: number, region?: Box): Promise<PagePixels>;
}

export interface ReadOptions {
  /** OCR languages (BCP 47 or tesseract codes). */
  languages: readonly string[];
  /** How scanned pages are laid out for the OCR (see OcrOptions.layout); a page by default. */
  layout?: OcrOptions['layout'];
  /**
   * Which OCR reads images: tesseract (default), or PP-OCR (paddle-ocr.ts) where it is installed,
   * which reads thermal receipts far better; tesseract when it is not.
   */
  recogniser?: Recogniser;
  /** Words of names and addresses the documents print besides English ones: PP-OCR checks the words it is unsure of against them. */
  vocabulary?: readonly string[];
}

export type Recogniser = 'tesseract' | 'paddle';

/** Resolution scanned pages are OCRed at: tesseract's sweet spot for body text. */
export const OCR_DPI = 300;
const POINTS_PER_INCH = 72;

/** The OCR languages of a model input: its language hint, else English. */
export function ocrLanguages(input: ModelInput, extra: readonly string[] = []): string[] {
  return [...new Set([input.language ?? 'en', ...extra])];
}

/**
 * The pages of `input.pages` in order, read a few ahead of the caller (a long document never sits
 * in memory whole): PDF pages with a text layer give its words, every other page is OCRed. As
 * many pages are read at once as OCR processes may run (ocrProcessLimit), so page n+1 is drawn and
 * OCRed while page n is, and while the caller works on page n-1.
 */
export async function* readPages(input: ModelInput, options: ReadOptions): AsyncGenerator<SourcePage> {
  switch (input.kind) {
    case 'pdf':
      yield* readPdfPages(input, options);
      return;
    case 'image':
    case 'tiff':
      yield* readAhead(input.pages, (pageNumber) => readImagePage(input.sourcePath, pageNumber, options));
      return;
    default:
      throw new ModelRejectedInputError(`document models read PDFs and images, not ${input.kind} files`);
  }
}

async function* readPdfPages(input: ModelInput, options: ReadOptions): AsyncGenerator<SourcePage> {
  // Opened here rather than with withPdf: the document must stay open while the caller works on
  // a yielded page, and be released when the generator finishes or is abandoned. It is opened
  // once: each page's size is read from it as the page is read (pdfInfo would parse every page
  // of another copy, which pre-processing did already).
  const pdf = await openPdf(input.sourcePath);
  try {
    const outside = input.pages.find((pageNumber) => !Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pdf.numPages);
    if (outside !== undefined) throw new ModelRejectedInputError(`page ${outside} is outside the document's ${pdf.numPages} pages`);
    yield* readAhead(input.pages, (pageNumber) => readPdfPage(pdf, input.sourcePath, pageNumber, options));
  } finally {
    await pdf.destroy();
  }
}

/**
 * `read` of each item, yielded in order, with up to ocrProcessLimit() reads in flight: the next
 * read starts as soon as one is handed to the caller. A caller that stops early leaves no read
 * running (they settle before the generator returns, so the document they use can be closed).
 */
async function* readAhead<T>(items: readonly number[], read: (item: number) => Promise<T>): AsyncGenerator<T> {
  const ahead = Math.max(1, ocrProcessLimit());
  const pending: Array<Promise<T>> = [];
  let next = 0;
  const fill = () => {
    while (next < items.length && pending.length < ahead) {
      const reading = read(items[next++]!);
      reading.catch(() => {}); // awaited below in turn; an error of a read not reached yet is not unhandled
      pending.push(reading);
    }
  };
  try {
    fill();
    while (pending.length > 0) {
      const page = await pending.shift()!;
      fill();
      yield page;
    }
  } finally {
    await Promise.allSettled(pending);
  }
}

async function readPdfPage(pdf: PDFDocumentProxy, filePath: string, pageNumber: number, options: ReadOptions): Promise<SourcePage> {
  const size = await pdfPageSize(pdf, pageNumber);
  const rendered = new Map<number, Promise<PageImage>>();
  const image = (dpi = OCR_DPI) => {
    let page = rendered.get(dpi);
    if (!page) {
      page = renderPdfPage(pdf, pageNumber, dpi).then((png) => ({ png, unitsPerPixel: POINTS_PER_INCH / dpi }));
      rendered.set(dpi, page);
    }
    return page;
  };
  const drawn = new Map<number, Promise<Pixels>>();
  const wholePage = (dpi: number) => {
    let page = drawn.get(dpi);
    if (!page) {
      page = renderWholePage(pdf, filePath, pageNumber, dpi);
      drawn.set(dpi, page);
    }
    return page;
  };
  const pixels = async (dpi = OCR_DPI, region?: Box): Promise<PagePixels> => {
    const unitsPerPixel = POINTS_PER_INCH / dpi;
    if (!region) return { pixels: await wholePage(dpi), unitsPerPixel };
    const whole = drawn.get(dpi);
    if (whole) return { pixels: cropPixels(await whole, scaleBox(region, 1 / unitsPerPixel)), unitsPerPixel };
    return { pixels: await renderPdfPagePixels(pdf, pageNumber, dpi, region), unitsPerPixel };
  };
  let drawingRead: Promise<PageDrawing> | undefined;
  const drawing = () => (drawingRead ??= pdfPageDrawing(pdf, pageNumber));
  const layer = await pdfPageText(pdf, pageNumber);
  const words = layer.words.map((word) => ({ ...word, text: foldFullwidth(word.text), confidence: 1 }));
  if (layer.hasTextLayer && !(await isScannedPage(drawing, size, words))) {
    let read: Promise<PageWord[]> | undefined;
    const imageWords = () => (read ??= readImageWords(pdf, pageNumber, size, drawing, words, options));
    return { pageNumber, ...size, textSource: 'textLayer', words, image, imageWords, allWords: async () => [...words, ...(await imageWords())], drawing, pixels };
  }
  // The grey pixels the OCR reads stay for the page's other readers (its barcode search).
  const ocrInput = await pixels(OCR_DPI);
  const ocr = await ocrPage({ pixels: ocrInput.pixels }, ocrInput.unitsPerPixel, { languages: options.languages, dpi: OCR_DPI, layout: options.layout }, '', options);
  return { pageNumber, ...size, textSource: 'ocr', words: ocr.words, image, imageWords: async () => [], allWords: async () => ocr.words, drawing, pixels };
}

/**
 * A whole page as pixels: grey from poppler's pdftoppm where it is installed (a child process,
 * so the drawing runs beside this thread and needs no image encoding; about twice as fast as
 * pdf.js on a 300 dpi scan), else RGBA from pdf.js.
 */
async function renderWholePage(pdf: PDFDocumentProxy, filePath: string, pageNumber: number, dpi: number): Promise<Pixels> {
  if (await hasPdftoppm()) {
    try {
      return await renderPdfPageGrey(filePath, pageNumber, dpi);
    } catch (err) {
      // A file poppler refuses (damage pdf.js repairs, an odd encryption) is still drawn by pdf.js.
      if (!(err instanceof EngineFailedError || err instanceof PdfUnreadableError)) throw err;
    }
  }
  return renderPdfPagePixels(pdf, pageNumber, dpi);
}

/** A text layer covering less than this share of the page is a stamp or a note on a scan, not the page's text. */
const SCANNED_MAX_TEXT_COVER = 0.01;
/** ...when images cover at least this share of the page. */
const SCANNED_MIN_IMAGE_COVER = 0.5;

/**
 * A page is scanned when images cover most of it and its text layer only a sliver: a scan with a
 * stamped "PAID" or a one-word note is OCRed like a scan without any text layer.
 */
async function isScannedPage(drawing: () => Promise<PageDrawing>, size: { width: number; height: number }, words: readonly PageWord[]): Promise<boolean> {
  const area = size.width * size.height;
  const textCover = words.reduce((sum, w) => sum + w.box.width * w.box.height, 0) / area;
  if (textCover >= SCANNED_MAX_TEXT_COVER) return false;
  const regions = imageRegions((await drawing()).images, size);
  return regions.reduce((sum, r) => sum + r.width * r.height, 0) / area >= SCANNED_MIN_IMAGE_COVER;
}

/**
 * OCR of each image region of a text-layer page, in page units, without what the text layer
 * already says. Only the regions are rendered, so a small pasted scan costs a small OCR.
 */
async function readImageWords(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  size: { width: number; height: number },
  drawing: () => Promise<PageDrawing>,
  layerWords: readonly PageWord[],
  options: ReadOptions,
): Promise<PageWord[]> {
  const regions = imageRegions((await drawing()).images, size);
  const found: PageWord[] = [];
  for (const [index, region] of regions.entries()) {
    const pixels = await renderPdfPagePixels(pdf, pageNumber, OCR_DPI, region);
    // A letterhead or logo holds a few words by nature: its short reading is no poor one to retry.
    const read = await ocrPage({ pixels }, POINTS_PER_INCH / OCR_DPI, { languages: options.languages, dpi: OCR_DPI, threshold: 'global' }, `image${index}.`, options);
    for (const word of read.words) found.push({ ...word, box: { ...word.box, left: word.box.left + region.left, top: word.box.top + region.top } });
  }
  // Most text pages have no image region: the text layer's index is built only for words to check.
  if (found.length === 0) return found;
  const repeats = textLayerCover(layerWords);
  return found.filter((word) => !repeats(word));
}

/**
 * An image narrower than this (points) holds no readable word, one lower than MIN_IMAGE_HEIGHT no
 * readable line (rules, bullets, dots); a footer strip 9 points high holds a line of small print
 * (the vendor's name and IBAN).
 */
const MIN_IMAGE_WIDTH = 12;
const MIN_IMAGE_HEIGHT = 5;
/** Beyond this many separate images on a page (a mosaic, text set as pictures) one OCR of their union costs less. */
const MAX_IMAGE_REGIONS = 16;

/**
 * The parts of the page worth reading in the images painted on it: boxes clipped to the page,
 * overlapping ones merged (tiled scans, an image over its own shadow), slivers dropped.
 */
function imageRegions(boxes: readonly Box[], page: { width: number; height: number }): Box[] {
  const clipped = boxes
    .map((box) => {
      const left = Math.max(0, box.left);
      const top = Math.max(0, box.top);
      return { left, top, width: Math.min(page.width, box.left + box.width) - left, height: Math.min(page.height, box.top + box.height) - top };
    })
    .filter((box) => box.width >= MIN_IMAGE_WIDTH && box.height >= MIN_IMAGE_HEIGHT);
  const merged: Box[] = [];
  for (let box of clipped) {
    for (let i = merged.length - 1; i >= 0; i--) {
      const other = merged[i]!;
      const touching =
        overlap(box.left, box.left + box.width, other.left, other.left + other.width) > 0 &&
        overlap(box.top, box.top + box.height, other.top, other.top + other.height) > 0;
      if (touching) {
        box = unionBox([box, other]);
        merged.splice(i, 1);
        i = merged.length;
      }
    }
    merged.push(box);
  }
  return merged.length > MAX_IMAGE_REGIONS ? [unionBox(merged)] : merged;
}

/** Side of the grid cells (page units) the text layer's words are filed in. */
const COVER_CELL = 32;

/**
 * Whether an OCR word sits on a text-layer word (its centre inside the layer word grown by a
 * quarter of its height): an image behind text (a letterhead, a scan under its OCR layer). The
 * layer's words are filed once in a grid of the cells they cover, so each OCR word is checked
 * against the few words of its cell, not the whole layer.
 */
function textLayerCover(layer: readonly PageWord[]): (word: PageWord) => boolean {
  const cells = new Map<string, Box[]>();
  for (const word of layer) {
    const box = growBox(word.box, word.box.height * 0.25);
    for (let y = Math.floor(box.top / COVER_CELL); y <= Math.floor((box.top + box.height) / COVER_CELL); y++) {
      for (let x = Math.floor(box.left / COVER_CELL); x <= Math.floor((box.left + box.width) / COVER_CELL); x++) {
        const key = `${x}:${y}`;
        const filed = cells.get(key);
        if (filed) filed.push(box);
        else cells.set(key, [box]);
      }
    }
  }
  return (word) => {
    const center = centerOf(word.box);
    const filed = cells.get(`${Math.floor(center.x / COVER_CELL)}:${Math.floor(center.y / COVER_CELL)}`) ?? [];
    return filed.some((box) => containsPoint(box, center));
  };
}

async function readImagePage(path: string, pageNumber: number, options: ReadOptions): Promise<SourcePage> {
  let png = await imagePageToPng(path, pageNumber - 1);
  let decoded: Promise<GreyPixels> | undefined;
  const grey = () => (decoded ??= decodeGrey(png));
  let read = await ocrPage({ png, pixels: grey }, 1, { languages: options.languages, layout: options.layout }, '', options);
  // A photo whose reading stays poor and whose words run down the image shows its slip sideways
  // (EXIF says nothing): the page is read turned a quarter each way, and the turn that reads far
  // more becomes the page.
  if (read.poor && read.sideways) {
    for (const degrees of QUARTER_TURNS) {
      const turned = await turnPng(png, degrees);
      const attempt = await ocrPage({ png: turned, pixels: () => decodeGrey(turned) }, 1, { languages: options.languages, layout: options.layout, threshold: 'adaptive', again: true }, '', options);
      if (attempt.sure > TURN_GAIN * read.sure) {
        [read, png, decoded] = [attempt, turned, undefined];
      }
    }
  }
  const { width, height, words } = read;
  const image = async () => ({ png, unitsPerPixel: 1 });
  const pixels = async (_dpi?: number, region?: Box): Promise<PagePixels> => {
    const whole = await grey();
    return { pixels: region ? cropPixels(whole, region) : whole, unitsPerPixel: 1 };
  };
  return { pageNumber, width, height, textSource: 'ocr', words, image, imageWords: async () => [], allWords: async () => words, drawing: async () => undefined, pixels };
}

/** Clockwise turns a sideways page is tried at. */
const QUARTER_TURNS = [90, 270] as const;

/**
 * The height of a text line in pixels at which tesseract reads best: its models are trained on
 * lines about this tall, and smaller print loses characters (a postcode read as an amount).
 */
const OCR_LINE_HEIGHT = 30;
/** Print this much smaller than that is enlarged (at most MAX_UPSCALE times)... */
const UPSCALE_BELOW = 0.8;
const MAX_UPSCALE = 2;
/** Tesseract's limit on an image side is 32767 pixels; far below it, time grows with no gain. */
const MAX_OCR_SIDE = 9000;
/** ...and print more than this much larger is reduced, which costs less OCR for the same reading. */
const DOWNSCALE_ABOVE = 1.3;

/** How much to scale a page image whose text lines are `height` pixels tall so that they come out about OCR_LINE_HEIGHT tall. */
function ocrScale(page: { width: number; height: number }, height: number): number {
  if (height === 0) return 1;
  if (height < UPSCALE_BELOW * OCR_LINE_HEIGHT) return Math.max(1, Math.min(MAX_UPSCALE, OCR_LINE_HEIGHT / height, MAX_OCR_SIDE / Math.max(page.width, page.height)));
  if (height > DOWNSCALE_ABOVE * OCR_LINE_HEIGHT) return OCR_LINE_HEIGHT / height;
  return 1;
}

/**
 * A page image for OCR as its reader has it: encoded (an image file) or as pixels (a rendered
 * page or region); either form is made from the other only when the recogniser needs it.
 */
type OcrSource = { pixels: Pixels | (() => Promise<Pixels>); png?: Buffer };

/**
 * OCR of a page image, its word boxes converted from pixels to page units. Small print is enlarged
 * (and large print reduced) first, and dot leaders are erased (tesseract reads them as words
 * glued to the label before them); the pixels are encoded once, for tesseract. `linePrefix` keeps
 * the lines of different images apart (tesseract numbers each image's lines from 1). A poor
 * reading (reading-quality.ts) is read a second time with an adaptive threshold; the result says
 * how many sure characters the kept reading has and whether its lines ran down the image.
 */
async function ocrPage(source: OcrSource, unitsPerPixel: number, options: OcrOptions, linePrefix = '', { recogniser = 'tesseract', vocabulary }: Pick<ReadOptions, 'recogniser' | 'vocabulary'> = {}) {
  const pixels = async () => (typeof source.pixels === 'function' ? source.pixels() : source.pixels);
  // PP-OCR reads colour: an image file is given to it as it is.
  if (recogniser === 'paddle' && paddleOcrAvailable()) return paddleOcrPage(source.png ?? (await greyPng(await pixels())), unitsPerPixel, linePrefix, { languages: options.languages, vocabulary });
  const grey = await toGrey(await pixels());
  const lineHeight = await textLineHeight(grey);
  const scale = ocrScale(grey, lineHeight);
  const scaled = scale === 1 ? grey : await resizeGrey(grey, scale);
  const cleaned = withoutDotLeaders(scaled, lineHeight * scale);
  // A turned scan or photo is read level; its words are boxed back on the page as it is.
  const skew = pageSkewDegrees(cleaned);
  const level = Math.abs(skew) >= MIN_DESKEW_DEGREES ? await levelPage(cleaned, skew) : undefined;
  const prepared = level?.pixels ?? cleaned;
  // Tesseract sizes its page analysis by the resolution: without one it takes the PNG's density
  // tag, which a raw-pixel PNG has as 25 dpi (an invoice photo then lost its whole item table and
  // totals). An image of unknown resolution has lines scaled to OCR_LINE_HEIGHT: about 300 dpi print.
  const png = await greyPng(prepared);
  const reading = { ...options, dpi: options.dpi ? options.dpi * scale : OCR_DPI };
  let result = await ocrImage(png, reading);
  let sure = sureCharacters(result.words);
  let threshold = options.threshold;
  // Unless the caller chose a threshold, a poor reading with one threshold for the whole page is
  // read again with a threshold of each pixel's neighbourhood (photos lit unevenly); the one with
  // more sure characters is kept.
  if (isPoorReading(sure) && options.threshold === undefined) {
    const adaptive = await ocrImage(png, { ...reading, threshold: 'adaptive', again: true });
    const adaptiveSure = sureCharacters(adaptive.words);
    if (adaptiveSure > sure) [result, sure, threshold] = [adaptive, adaptiveSure, 'adaptive'];
  }
  // Read again the way the kept reading was: a photo a global threshold loses is lost to every model.
  const cjk = await cjkReading(png, { ...reading, threshold }, result);
  if (cjk) [result, sure] = [cjk, sureCharacters(cjk.words)];
  // PP-OCR's second readings know Latin characters only: a CJK reading keeps its own words.
  const read = cjk || readsCjk(options.languages ?? []) ? result.words : await rereadGarbled(prepared, result.words, options.languages);
  const words: PageWord[] = read.map((word) => ({
    text: foldFullwidth(word.text),
    box: scaleBox(level ? level.toPage(word.box) : word.box, unitsPerPixel / scale),
    confidence: word.confidence,
    ocrLine: `${linePrefix}${word.block}.${word.paragraph}.${word.line}`,
  }));
  return { width: Math.round(cleaned.width / scale), height: Math.round(cleaned.height / scale), words: joinCjkWords(joinSplitDecimals(joinSplitInitials(words))), sure, poor: isPoorReading(sure), sideways: linesRunDown(result.words) };
}

/**
 * The page read again with the Chinese and Japanese models when its reading with the page's own
 * languages looks like Latin models guessing at CJK glyphs (cjk-reading.ts); kept when it reads
 * more (CJK characters counted at their width). Undefined when the page needs no such reading or
 * it read less.
 */
async function cjkReading(png: Buffer, reading: OcrOptions, latin: OcrResult): Promise<OcrResult | undefined> {
  const languages = reading.languages ?? [];
  // A page lying sideways or upside down reads as foreign glyphs too (upside-down capitals come out
  // as kana): the readings that decide its turn (readImagePage, `again`) are Latin ones.
  if (reading.again || readsCjk(languages) || linesRunDown(latin.words) || !looksForeign(latin.words)) return undefined;
  // tesseract.js carries no CJK models; a native tesseract without the optional packages fails on them: the Latin reading stays.
  if ((await chooseOcrEngine(reading.engine)) !== 'native') return undefined;
  let cjk: OcrResult;
  try {
    cjk = await ocrImage(png, { ...reading, languages: [...CJK_MODELS, ...languages], again: true });
  } catch (err) {
    if (err instanceof EngineFailedError) return undefined;
    throw err;
  }
  return sureGlyphWidths(cjk.words) > sureGlyphWidths(latin.words) ? cjk : undefined;
}

/** PP-OCR of a page image: it scales the image itself, told the height of its text lines. */
async function paddleOcrPage(png: Buffer, unitsPerPixel: number, linePrefix: string, reading: Pick<PaddleOcrOptions, 'languages' | 'vocabulary'>) {
  const result = await paddleOcrImage(png, { ...reading, lineHeight: await textLineHeight(png) });
  const words: PageWord[] = result.words.map((word) => ({
    text: word.text,
    box: scaleBox(word.box, unitsPerPixel),
    confidence: word.confidence,
    ocrLine: `${linePrefix}${word.block}.${word.paragraph}.${word.line}`,
  }));
  // PP-OCR finds text lines at any angle itself: its reading is not retried.
  return { width: result.width, height: result.height, words, sure: sureCharacters(words), poor: false, sideways: false };
}
