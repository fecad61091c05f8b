/**
 * The words labels are made of ("TOTAL", "NETT", "ROUNDING", "GST") as OCR misreads them on
 * thermal print: thin upright strokes for one another ("lota!", "loial" for "Total", "GSI" for
 * "GST"), round letters for zero. A word OCR was unsure of that matches a label word stroke for
 * stroke is read as that word, in the case it was printed in, so that the labels are found.
 */
import type { PageWord } from '../page/text/text-lines.js';

const LABEL_WORDS = ['TOTAL', 'NETT', 'NET', 'GRAND', 'SUBTOTAL', 'SALES', 'AMOUNT', 'ROUNDING', 'ROUNDED', 'CASH', 'CHANGE', 'TENDERED', 'GST', 'SST', 'TAX', 'DUE', 'BALANCE', 'PAYABLE'];

/** OCR confidence from which a word is taken as read. */
const SURE = 0.9;

/** Characters OCR reads for one another in thermal print, as one class each. */
function strokes(word: string): string {
  return word.toUpperCase().replace(/[TLIJ1!|]/g, 'l').replace(/[O0QD]/g, 'o').replace(/5/g, 'S').replace(/8/g, 'B');
}

const BY_STROKES = new Map(LABEL_WORDS.map((word) => [strokes(word), word]));

/** `word` read as the label word it was misread from, or as it is. */
export function respellLabelWord(word: PageWord): PageWord {
  if (word.confidence >= SURE || word.text.length < 3) return word;
  const known = BY_STROKES.get(strokes(word.text));
  if (!known || known === word.text.toUpperCase()) return word;
  const lower = word.text === word.text.toLowerCase();
  const capital = /^\p{Lu}/u.test(word.text) && !/^\p{Lu}+$/u.test(word.text.replace(/[^\p{L}]/gu, ''));
  return { ...word, text: lower ? known.toLowerCase() : capital ? known[0] + known.slice(1).toLowerCase() : known };
}
