import { availableParallelism } from 'node:os';
import type { Box } from './geometry.js';
import { UnsupportedLanguageError } from './errors.js';
import { findOnPath } from './find-on-path.js';
import { THRESHOLDING_METHOD, type OcrThreshold } from './ocr-threshold.js';
import { wasmOcrTsv, type TsvOptions } from './ocr-wasm.js';
import { ProcessSlots } from './process-slots.js';
import { runProcess } from './process.js';
import { countEvent } from '../observability/thread-counts.js';

export interface OcrWord {
  text: string;
  /** Tesseract's word confidence scaled to 0..1. */
  confidence: number;
  /** Pixels of the input image. */
  box: Box;
  /** Tesseract's layout numbering: the word's block, paragraph in the block, line in the paragraph, word in the line. */
  block: number;
  paragraph: number;
  line: number;
  word: number;
}

export interface OcrResult {
  width: number;
  height: number;
  words: OcrWord[];
}

export interface OcrOptions {
  /** BCP 47 tags (pt-PT) or tesseract codes (por); default English. */
  languages?: readonly string[];
  /** Resolution of the image when known (rendered PDF pages): spares tesseract a guess from the text size. */
  dpi?: number;
  /**
   * page (default): tesseract finds the blocks and columns itself; column: the image is one column
   * of lines of varying size (a till receipt), read line by line without looking for columns,
   * which keeps a total on the line of its label.
   */
  layout?: 'page' | 'column';
  timeoutMs?: number;
  /** How ink is told from paper (ocr-threshold.ts); global by default. */
  threshold?: OcrThreshold;
  /** A second reading of an image already read (counted as a reread, not as another page). */
  again?: boolean;
  /** Which tesseract reads the image; by default the native one when on PATH, else tesseract.js. */
  engine?: OcrEngine;
}

/** The native tesseract binary, or its tesseract.js (WASM) build bundled with the service. */
export type OcrEngine = 'native' | 'wasm';

// The traineddata installed with the service (tesseract-ocr-eng/-por/-fra/-deu/-spa/-jpn/-chi-tra/-chi-sim),
// by primary language subtag. Chinese is read in traditional characters (Taiwan, Hong Kong) unless
// the tag names the simplified script or a country that writes it (SIMPLIFIED_CHINESE).
const TESSERACT_MODELS: Readonly<Record<string, string>> = { en: 'eng', pt: 'por', fr: 'fra', de: 'deu', es: 'spa', ja: 'jpn', zh: 'chi_tra' };
const SIMPLIFIED_CHINESE = /^zh[-_](?:hans|cn|sg|my)\b/;
const INSTALLED_MODELS = new Set([...Object.values(TESSERACT_MODELS), 'chi_sim']);
const DEFAULT_TIMEOUT_MS = 120_000;

// Tesseract's TSV columns (page_num, at 1, is always 1: one image per run) and the levels of its rows.
const COLUMN = { level: 0, block: 2, paragraph: 3, line: 4, word: 5, left: 6, top: 7, width: 8, height: 9, conf: 10, text: 11 } as const;
const PAGE_LEVEL = 1;
const WORD_LEVEL = 5;

/** Tesseract model code for a language tag (pt-PT -> por); throws UnsupportedLanguageError. */
export function tesseractLanguage(tag: string): string {
  const code = tag.trim().toLowerCase();
  if (INSTALLED_MODELS.has(code)) return code;
  if (SIMPLIFIED_CHINESE.test(code)) return 'chi_sim';
  const model = TESSERACT_MODELS[code.split(/[-_]/)[0] ?? ''];
  if (!model) throw new UnsupportedLanguageError(tag);
  return model;
}

let nativeLookup: Promise<string | null> | undefined;

// Binaries are not installed or removed while the service runs: one PATH search per process.
function findNativeTesseract(): Promise<string | null> {
  nativeLookup ??= findOnPath('tesseract');
  return nativeLookup;
}

/** The engine for a call: the one asked for, else native tesseract when found, else tesseract.js. */
export async function chooseOcrEngine(
  requested: OcrEngine | undefined,
  findNative: () => Promise<string | null> = findNativeTesseract,
): Promise<OcrEngine> {
  return requested ?? ((await findNative()) ? 'native' : 'wasm');
}

let slots: ProcessSlots | undefined;

/**
 * How many OCR runs go at once: one tesseract process uses one core (OMP_THREAD_LIMIT=1), so by
 * default as many as the machine has. A worker's engine threads share one set of slots sized by
 * OCR_PROCESSES (engine-pool.ts), whatever the threads and documents asking.
 */
export function useOcrSlots(shared: ProcessSlots): void {
  slots = shared;
}

function ocrSlots(): ProcessSlots {
  slots ??= ProcessSlots.create(availableParallelism());
  return slots;
}

/** How many OCR runs may go at once in this process: what a reader of many pages keeps in flight. */
export function ocrProcessLimit(): number {
  return ocrSlots().limit;
}

/** Recognizes the words of an image (PNG buffer or file path) with native tesseract or tesseract.js. */
export async function ocrImage(image: Buffer | string, options: OcrOptions = {}): Promise<OcrResult> {
  const languages = [...new Set((options.languages?.length ? options.languages : ['en']).map(tesseractLanguage))];
  const recognize = (await chooseOcrEngine(options.engine)) === 'native' ? nativeTsv : wasmOcrTsv;
  const tsv = await ocrSlots().run(() => recognize(image, languages, { dpi: options.dpi, layout: options.layout, threshold: options.threshold, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS }));
  countEvent(options.again ? 'ocrRereads' : 'ocrPages');
  return parseTsv(tsv);
}

/** Tesseract's page segmentation modes: 3 finds blocks and columns, 4 reads one column of text of varying size. */
const PAGE_SEGMENTATION = { page: '3', column: '4' } as const;

async function nativeTsv(image: Buffer | string, languages: readonly string[], { dpi, layout = 'page', threshold = 'global', timeoutMs }: TsvOptions): Promise<string> {
  const args = [
    typeof image === 'string' ? image : 'stdin',
    'stdout',
    '-l',
    languages.join('+'),
    ...(dpi ? ['--dpi', String(Math.round(dpi))] : []),
    '--psm',
    PAGE_SEGMENTATION[layout],
    '-c',
    `thresholding_method=${THRESHOLDING_METHOD[threshold]}`,
    'tsv',
  ];
  const { stdout } = await runProcess('tesseract', args, {
    input: typeof image === 'string' ? undefined : image,
    timeoutMs,
    // Tesseract's OpenMP threads only contend with each other; parallelism comes from one process per core.
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  });
  return stdout.toString('utf8');
}

// The CLI's TSV starts with a header row, tesseract.js's (the library's GetTSVText) does not; the
// header's level is not a number, so it matches neither level below.
function parseTsv(tsv: string): OcrResult {
  const result: OcrResult = { width: 0, height: 0, words: [] };
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length <= COLUMN.text) continue;
    const number = (column: keyof typeof COLUMN) => Number(cells[COLUMN[column]]);
    const text = cells.slice(COLUMN.text).join('\t').trim();
    if (number('level') === PAGE_LEVEL) {
      result.width = number('width');
      result.height = number('height');
    } else if (number('level') === WORD_LEVEL && text) {
      result.words.push({
        text,
        confidence: Math.min(Math.max(number('conf') / 100, 0), 1),
        box: { left: number('left'), top: number('top'), width: number('width'), height: number('height') },
        block: number('block'),
        paragraph: number('paragraph'),
        line: number('line'),
        word: number('word'),
      });
    }
  }
  return result;
}
