/**
 * Amounts whose cents OCR set apart or whose separator it misread. Till receipts are printed in a
 * fixed-width font: the comma or point takes a whole character cell, and tesseract often ends a
 * word after it ("21," then "80"; "SUMME EUR 21, 80"), so the amount was read as 21. A word of
 * digits ending in its separator, followed on the same OCR line and within about a character cell
 * by a word of exactly two digits, is one amount. A separator misread as a degree sign or a raised
 * dot between the units and two digits ("9°31") is read as the decimal separator. No digit is
 * added or changed: only the space or the separator's glyph.
 */
import { joinAdjacentWords } from './join-words.js';
import type { PageWord } from './text/text-lines.js';

/** Digits ending in a decimal separator: the units of an amount whose cents follow apart. */
const UNITS = /^[-−]?\d{1,3}(?:[.,]\d{3})*[.,]$/;
/** Exactly two digits, then nothing or what may follow an amount (a tax class letter, a currency sign) but no digit or separator. */
const CENTS = /^\d{2}(?![\d.,:/-])/;
/**
 * The widest gap, in the words' height, between the separator and its cents: a fixed-width cell
 * with a narrow comma in it is about half the height; a space between words after the comma
 * would add another cell.
 */
const CELL_GAP = 0.8;

/** Glyphs OCR reads for a receipt's decimal comma or point when it is faint: the degree sign, a raised dot. */
const MISREAD_SEPARATOR = /^([-−]?\d{1,3})[°º·](\d{2})(?![\d.,°º·])/u;

export function joinSplitDecimals(words: readonly PageWord[]): PageWord[] {
  return joinAdjacentWords(words.map(withSeparator), centsOf);
}

function centsOf(units: PageWord, cents: PageWord): boolean {
  if (!UNITS.test(units.text) || !CENTS.test(cents.text)) return false;
  if (units.ocrLine === undefined || units.ocrLine !== cents.ocrLine) return false;
  // After the units, not before them; boxes of a double-size line may overlap.
  if (cents.box.left <= units.box.left) return false;
  const gap = cents.box.left - (units.box.left + units.box.width);
  return gap < CELL_GAP * Math.max(units.box.height, cents.box.height);
}

/** The word with a misread decimal separator put right: a comma (either separator reads as a decimal before two digits). */
function withSeparator(word: PageWord): PageWord {
  const match = MISREAD_SEPARATOR.exec(word.text);
  return match ? { ...word, text: `${match[1]},${match[2]}${word.text.slice(match[0].length)}` } : word;
}
