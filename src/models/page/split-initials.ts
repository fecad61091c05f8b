/**
 * A word's first capital that OCR set apart from the rest of it: tesseract, unsure of a scanned
 * word, sometimes ends a word after its first letter ("S ubtotaal", "T otal"), and the label is
 * then no longer found. A single capital followed, on the same OCR line, by a word that goes on
 * in lower case, closer than a space between words and read without confidence, is one word.
 */
import { joinAdjacentWords } from './join-words.js';
import type { PageWord } from './text/text-lines.js';

/** Gap, as a share of the words' height, under which two words are one (a space is about 0.4 or more). */
const LETTER_GAP = 0.35;
/** OCR's confidence under which it is unsure of a word. */
const UNSURE = 0.9;

export function joinSplitInitials(words: readonly PageWord[]): PageWord[] {
  return joinAdjacentWords(words, splitFrom);
}

function splitFrom(initial: PageWord, rest: PageWord): boolean {
  if (!/^\p{Lu}$/u.test(initial.text) || !/^\p{Ll}{2}/u.test(rest.text)) return false;
  if (initial.ocrLine === undefined || initial.ocrLine !== rest.ocrLine) return false;
  if (Math.min(initial.confidence, rest.confidence) >= UNSURE) return false;
  const gap = rest.box.left - (initial.box.left + initial.box.width);
  return gap >= 0 && gap < LETTER_GAP * Math.max(initial.box.height, rest.box.height);
}
