import { countEvent } from '../observability/thread-counts.js';
import { EngineFailedError, PdfUnreadableError } from './errors.js';
import { findOnPath } from './find-on-path.js';
import type { GreyPixels } from './pixels.js';
import { runProcess } from './process.js';

const DEFAULT_TIMEOUT_MS = 120_000;

let lookup: Promise<string | null> | undefined;

/** Whether poppler's pdftoppm is installed (one PATH search per process). */
export async function hasPdftoppm(): Promise<boolean> {
  lookup ??= findOnPath('pdftoppm');
  return (await lookup) !== null;
}

/**
 * One page (1-based) of a PDF file rendered in grey at `dpi` by poppler's pdftoppm: a child
 * process, so the rendering runs in C beside this thread (several pages at once on several cores)
 * and the pixels come back raw (PGM), with no image encoding on either side. The crop box is the
 * page, as pdf.js shows it; the size is the page's in points × dpi / 72.
 */
export async function renderPdfPageGrey(filePath: string, pageNumber: number, dpi: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GreyPixels> {
  const page = String(pageNumber);
  countEvent('pageRenders');
  const { stdout } = await runProcess('pdftoppm', ['-r', String(dpi), '-gray', '-cropbox', '-f', page, '-l', page, filePath], { timeoutMs });
  return parsePgm(stdout, `page ${pageNumber}`);
}

/** A binary PGM (P5, 8 bits): "P5", width, height and maximum value, whitespace apart, then the rows. */
export function parsePgm(pgm: Buffer, what = 'image'): GreyPixels {
  const fields: number[] = [];
  let at = 2;
  if (pgm.toString('latin1', 0, 2) !== 'P5') throw new PdfUnreadableError(`${what}: pdftoppm gave no grey image`);
  while (fields.length < 3 && at < pgm.length) {
    const char = pgm[at]!;
    if (char === 0x23) while (at < pgm.length && pgm[at] !== 0x0a) at++; // a comment runs to the end of its line
    else if (char >= 0x30 && char <= 0x39) {
      let value = 0;
      while (at < pgm.length && pgm[at]! >= 0x30 && pgm[at]! <= 0x39) value = value * 10 + pgm[at++]! - 0x30;
      fields.push(value);
      continue;
    }
    at++;
  }
  // One whitespace byte separates the header from the pixels.
  const [width = 0, height = 0, maxValue = 0] = fields;
  const data = pgm.subarray(at + 1, at + 1 + width * height);
  if (maxValue !== 255 || width === 0 || height === 0 || data.length !== width * height) throw new PdfUnreadableError(`${what}: pdftoppm gave a truncated or unexpected image`);
  return { data, width, height, channels: 1 };
}

/** pdftoppm's words for a page the file does not have ("Wrong page range given: ..."). */
const WRONG_PAGE = /wrong page range/i;

/**
 * One page (1-based) of a PDF file as a colour PNG at `dpi`, drawn and encoded by pdftoppm in a
 * child process: what a process that must never render on its own thread (the api) shows. A page
 * the file does not have is a RangeError, as from pdf.js.
 */
export async function renderPdfPagePng(filePath: string, pageNumber: number, dpi: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Buffer> {
  const page = String(pageNumber);
  countEvent('pageRenders');
  try {
    const { stdout } = await runProcess('pdftoppm', ['-r', String(dpi), '-png', '-cropbox', '-f', page, '-l', page, filePath], { timeoutMs });
    if (stdout.length === 0) throw new RangeError(`page ${pageNumber} is outside the document`);
    return stdout;
  } catch (err) {
    if (err instanceof EngineFailedError && WRONG_PAGE.test(err.message)) throw new RangeError(`page ${pageNumber} is outside the document`, { cause: err });
    throw err;
  }
}
