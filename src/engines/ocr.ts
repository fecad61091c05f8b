import type { Box } from './geometry.js';
import { UnsupportedLanguageError } from './errors.js';
import { runProcess } from './process.js';

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
  timeoutMs?: number;
}

// The traineddata installed with the service (tesseract-ocr-eng/-por/-fra/-deu/-spa), by primary language subtag.
const TESSERACT_MODELS: Readonly<Record<string, string>> = { en: 'eng', pt: 'por', fr: 'fra', de: 'deu', es: 'spa' };
const INSTALLED_MODELS = new Set(Object.values(TESSERACT_MODELS));
const DEFAULT_TIMEOUT_MS = 120_000;

// Tesseract's TSV columns (page_num, at 1, is always 1: one image per run) and the levels of its rows.
const COLUMN = { level: 0, block: 2, paragraph: 3, line: 4, word: 5, left: 6, top: 7, width: 8, height: 9, conf: 10, text: 11 } as const;
const PAGE_LEVEL = 1;
const WORD_LEVEL = 5;

/** Tesseract model code for a language tag (pt-PT -> por); throws UnsupportedLanguageError. */
export function tesseractLanguage(tag: string): string {
  const code = tag.trim().toLowerCase();
  if (INSTALLED_MODELS.has(code)) return code;
  const model = TESSERACT_MODELS[code.split(/[-_]/)[0] ?? ''];
  if (!model) throw new UnsupportedLanguageError(tag);
  return model;
}

/** Recognizes the words of an image (PNG buffer or file path) with native tesseract. */
export async function ocrImage(image: Buffer | string, options: OcrOptions = {}): Promise<OcrResult> {
  const languages = [...new Set((options.languages?.length ? options.languages : ['en']).map(tesseractLanguage))];
  const args = [
    typeof image === 'string' ? image : 'stdin',
    'stdout',
    '-l',
    languages.join('+'),
    ...(options.dpi ? ['--dpi', String(Math.round(options.dpi))] : []),
    'tsv',
  ];
  const { stdout } = await runProcess('tesseract', args, {
    input: typeof image === 'string' ? undefined : image,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // Tesseract's OpenMP threads only contend with each other; parallelism comes from one process per core.
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  });
  return parseTsv(stdout.toString('utf8'));
}

function parseTsv(tsv: string): OcrResult {
  const result: OcrResult = { width: 0, height: 0, words: [] };
  for (const row of tsv.split('\n').slice(1)) {
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
