/**
 * Accents of names read by OCR. A page is OCRed with its language hint, English by default, and
 * the English model has no accented letters: "Haustechnik Krüger" comes back "Haustechnik Kruger",
 * "Informática" as "Informatica". The few names a reviewer reads (vendor, customer) are read
 * again from the page's pixels with the models of the accented languages, all in one small OCR
 * run, and their accents are taken only where the second reading spells the same letters.
 */
import { stackCrops } from '../engines/image.js';
import { ocrImage, tesseractLanguage } from '../engines/ocr.js';
import { growBox } from './geometry.js';
import { OCR_DPI, type SourcePage } from './page-reader.js';
import type { TextRun } from './text-lines.js';

/** The installed models that spell accents; English is left out, whose reading the page has already. */
const ACCENTED_LANGUAGES = ['fr', 'de', 'es', 'pt'];
/** Whether OCR in this language (BCP 47 or tesseract code) spells accents: those of ACCENTED_LANGUAGES do. */
export function spellsAccentsIn(language: string): boolean {
  const model = (tag: string) => {
    try {
      return tesseractLanguage(tag);
    } catch {
      return undefined; // not installed: the page was not read with it either
    }
  };
  const code = model(language);
  return code !== undefined && ACCENTED_LANGUAGES.some((accented) => model(accented) === code);
}

/** Crops are scaled so that their words are this tall in pixels (cap height to descender). */
const CROP_WORD_HEIGHT = 48;
/** White between the stacked crops, so each comes back as its own line. */
const CROP_GAP = 32;

/** Letters without accents, lower case, nothing but letters and digits: "Krüger" and "KRUGER" fold alike. */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * For each run (a name read by OCR on this page), its accented words by their unaccented
 * reading ("Kruger" -> "Krüger"), where the accented languages' models read the same letters
 * with accents. Runs of a text layer, or that have accents already, are not read again.
 */
export async function accentedWords(page: SourcePage, runs: readonly TextRun[]): Promise<Map<string, string>> {
  const wanted = runs.filter((run) => run.words.length > 0 && run.words.some((w) => w.confidence < 0.999) && /^[\p{ASCII}]*$/u.test(run.text) && /\p{L}/u.test(run.text));
  const accented = new Map<string, string>();
  if (wanted.length === 0) return accented;
  const crops = await Promise.all(
    wanted.map(async (run) => {
      const { pixels, unitsPerPixel } = await page.pixels(OCR_DPI, growBox(run.box, run.box.height * 0.25));
      return { pixels, scale: CROP_WORD_HEIGHT / Math.max(1, run.box.height / unitsPerPixel) };
    }),
  );
  const { png: stacked, bands } = await stackCrops(crops, CROP_GAP);
  const read = await ocrImage(stacked, { languages: ACCENTED_LANGUAGES, layout: 'column' });
  wanted.forEach((run, i) => {
    const band = bands[i]!;
    const words = read.words
      .filter((w) => w.box.top + w.box.height / 2 >= band.top && w.box.top + w.box.height / 2 < band.bottom)
      .sort((a, b) => a.box.left - b.box.left)
      .map((w) => w.text);
    const original = run.text.split(/\s+/).filter(Boolean);
    // The same words, letter for letter but for accents: nothing else is taken from the second reading.
    if (words.length !== original.length || foldAccents(words.join('')) !== foldAccents(original.join(''))) return;
    original.forEach((word, w) => {
      const respelled = words[w]!;
      if (respelled !== word && foldAccents(respelled) === foldAccents(word) && !/^[\p{ASCII}]*$/u.test(respelled)) accented.set(word, matchCase(respelled, word));
    });
  });
  return accented;
}

/** The words of `text` that `accented` knows, respelled. */
export function withAccents(text: string, accented: ReadonlyMap<string, string>): string {
  return accented.size === 0 ? text : text.replace(/\S+/g, (word) => accented.get(word) ?? word);
}

/** The accented reading in the case of the first reading ("KRÜGER" for "KRUGER" even if read "Krüger"). */
function matchCase(accented: string, original: string): string {
  const letters = [...accented.normalize('NFC')];
  if (letters.length !== original.length) return accented;
  return letters.map((letter, i) => (original[i] === original[i]!.toUpperCase() ? letter.toUpperCase() : letter.toLowerCase())).join('');
}
