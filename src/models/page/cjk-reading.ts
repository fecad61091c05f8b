/**
 * When a page needs tesseract's Chinese and Japanese models. Reading every page with them would
 * cost about three times a Latin reading, so a page is first read with its own languages, as any
 * page is; only a reading that looks like Latin models guessing at CJK glyphs is read again with
 * them. Tesseract's own script detection (the osd model) was tried as the judge and failed: it
 * calls a Japanese invoice with Latin names and figures on it "Latin".
 */
import type { OcrWord } from '../../engines/ocr.js';
import { SURE_WORD_CONFIDENCE } from './reading-quality.js';

/**
 * The models a page that looks CJK is read again with: Chinese in traditional characters (Taiwan,
 * Hong Kong) and Japanese, together (tesseract keeps each word's likelier reading), since the
 * Latin reading cannot tell which. The mainland's simplified characters are read with chi_sim
 * where the document's language says zh-CN (ocr.ts); adding it here would cost a fourth reading.
 */
export const CJK_MODELS = ['chi_tra', 'jpn'] as const;

/** Whether the page's languages already include a CJK model: it was read with it, nothing to decide. */
export function readsCjk(languages: readonly string[]): boolean {
  return languages.some((l) => /^(?:chi_tra|chi_sim|jpn)$|^(?:zh|ja)(?:[-_]|$)/i.test(l));
}

/** A word of letters only: where Latin models misread foreign glyphs; numbers they read on any page. */
const LETTERS_ONLY = /^[^\d]*\p{L}[^\d]*$/u;
/**
 * A CJK glyph is about as wide as it is tall; Latin letters about half as wide. A Latin model reads
 * a CJK glyph as one or two letters, so its unsure words come out boxed wider than their letters
 * can be.
 */
const WIDE_GLYPH = 0.75;
/** Unsure, as Latin models are of a glyph they do not know. */
const UNSURE = 0.6;
/** The share of letter words read unsure and wide, and how many at least, that makes a page worth the script detection. */
const FOREIGN_SHARE = 0.2;
const MIN_FOREIGN_WORDS = 4;

/**
 * Whether a reading with Latin models looks like guesses at CJK glyphs: a fifth or more of its
 * words of letters unsure and boxed wider than their letters (Latin print read poorly gives unsure
 * words too, but of letters as narrow as the model expects).
 */
export function looksForeign(words: readonly Pick<OcrWord, 'text' | 'confidence' | 'box'>[]): boolean {
  let [letterWords, foreign] = [0, 0];
  for (const word of words) {
    if (!LETTERS_ONLY.test(word.text)) continue;
    letterWords++;
    const wide = word.box.width > WIDE_GLYPH * word.box.height * [...word.text].length;
    if (word.confidence < UNSURE && wide) foreign++;
  }
  return foreign >= MIN_FOREIGN_WORDS && foreign >= FOREIGN_SHARE * letterWords;
}

/**
 * Sure characters of a reading, a CJK character counting as two: it fills the width of two Latin
 * letters and says as much as a short word, so a CJK reading is compared fairly with a Latin one
 * of the same page.
 */
export function sureGlyphWidths(words: readonly Pick<OcrWord, 'text' | 'confidence'>[]): number {
  let sum = 0;
  for (const word of words) {
    if (word.confidence < SURE_WORD_CONFIDENCE) continue;
    for (const c of word.text) sum += /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(c) ? 2 : 1;
  }
  return sum;
}
