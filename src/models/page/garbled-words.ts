/**
 * Words tesseract garbled: bold print set tight against a table's rules ("RE-48910" read as
 * "[(vocne", "21-08-2023" as "codeine", both at almost no confidence). PP-OCR reads each run of
 * them again from a crop of the page around it, and its reading takes their place where it is
 * sure of it; where it is not, or reads nothing, tesseract's words stay as they were.
 */
import type { OcrWord } from '../../engines/ocr.js';
import { paddleOcrAvailable, paddleOcrImage } from '../../engines/paddle-ocr.js';
import { cropPixels, greyPng, type GreyPixels } from '../../engines/pixels.js';
import { growBox, unionBox, type Box } from './text/geometry.js';

/** Tesseract's confidence below which a word of three characters or more is taken as garbled. */
const GARBLED = 0.3;
/** PP-OCR's confidence in its least sure word from which its reading replaces tesseract's. */
const SURE = 0.8;
/** At most this many runs are read again per page: a page of noise is not worth PP-OCR's time. */
const MAX_RUNS = 12;

/** Consecutive garbled words of one tesseract line. */
function garbledRuns(words: readonly OcrWord[]): OcrWord[][] {
  const runs: OcrWord[][] = [];
  let run: OcrWord[] = [];
  let line = '';
  for (const word of words) {
    const key = `${word.block}.${word.paragraph}.${word.line}`;
    const garbled = word.confidence < GARBLED && word.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 3;
    if (garbled && key === line && run.length > 0) run.push(word);
    else {
      if (run.length > 0) runs.push(run);
      run = garbled ? [word] : [];
    }
    line = key;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * `words` with each run of garbled words read again by PP-OCR where it reads it surely;
 * `languages` are the page's (PP-OCR checks its unsure words against their lexicon).
 */
export async function rereadGarbled(page: GreyPixels, words: readonly OcrWord[], languages: readonly string[] = []): Promise<OcrWord[]> {
  const runs = garbledRuns(words);
  if (runs.length === 0 || runs.length > MAX_RUNS || !paddleOcrAvailable()) return [...words];
  const replaced = new Map<OcrWord, OcrWord[]>();
  for (const run of runs) {
    const box = unionBox(run.map((w) => w.box));
    // Room around the words for PP-OCR's detector to find the line whole.
    const area = clip(growBox(box, Math.round(box.height * 0.4)), page);
    if (area.width < 8 || area.height < 8) continue;
    const read = await paddleOcrImage(await greyPng(cropPixels(page, area)), { languages });
    // Only words inside the garbled words' own box: the margin may catch the edge of a neighbour.
    const inside = read.words.filter((w) => {
      const cy = area.top + w.box.top + w.box.height / 2;
      return cy >= box.top && cy <= box.top + box.height;
    });
    if (inside.length === 0 || Math.min(...inside.map((w) => w.confidence)) < SURE) continue;
    const [first] = run;
    replaced.set(
      first!,
      inside.map((w, i) => ({ ...first!, text: w.text, confidence: w.confidence, word: first!.word + i, box: { ...w.box, left: area.left + w.box.left, top: area.top + w.box.top } })),
    );
    for (const word of run.slice(1)) replaced.set(word, []);
  }
  return words.flatMap((word) => replaced.get(word) ?? [word]);
}

function clip(box: Box, page: { width: number; height: number }): Box {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  return { left, top, width: Math.min(page.width, Math.ceil(box.left + box.width)) - left, height: Math.min(page.height, Math.ceil(box.top + box.height)) - top };
}
