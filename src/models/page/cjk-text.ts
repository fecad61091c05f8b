/**
 * Text of Chinese and Japanese documents as the field readers expect it. Both write without spaces
 * between words, and print labels and figures in fullwidth forms ("金額：１２０"); tesseract's
 * Chinese and Japanese models end a "word" every character or two, and the page text would put a
 * space between each ("總 計 : 1,050"), which no label or date pattern reads.
 */
import { CJK_CHARACTER } from '../fields/normalize.js';
import { joinAdjacentWords } from './join-words.js';
import type { PageWord } from './text/text-lines.js';

const CJK_AT_END = new RegExp(`${CJK_CHARACTER.source}$`, 'u');
const CJK_AT_START = new RegExp(`^${CJK_CHARACTER.source}`, 'u');

/**
 * The fullwidth forms of ASCII (U+FF01-FF5E: "１２０", "：", "（", "ＮＴ＄"), the fullwidth yen
 * sign and the ideographic space as their plain forms, one character for one, so offsets hold.
 */
export function foldFullwidth(text: string): string {
  if (!/[\uff01-\uff5e\uffe5\u3000]/u.test(text)) return text;
  return text.replace(/[\uff01-\uff5e\uffe5\u3000]/gu, (c) => {
    if (c === '\u3000') return ' ';
    if (c === '\uffe5') return '¥';
    return String.fromCharCode(c.charCodeAt(0) - 0xfee0);
  });
}

/**
 * The widest gap, in the words' height, between two pieces of CJK text that are one run: the
 * characters of a line are set about a tenth of their height apart; a table's columns or a
 * label's value set apart stay apart.
 */
const CJK_GAP = 0.6;

/**
 * OCR words of one line that touch a CJK character on either side put back together, so
 * "總", "計", ":", "1,050" read "總計:1,050" as the text layer of such a page gives it.
 */
export function joinCjkWords(words: readonly PageWord[]): PageWord[] {
  return joinAdjacentWords(words, (before, word) => {
    if (before.ocrLine === undefined || before.ocrLine !== word.ocrLine) return false;
    if (!CJK_AT_END.test(before.text) && !CJK_AT_START.test(word.text)) return false;
    if (word.box.left <= before.box.left) return false;
    const gap = word.box.left - (before.box.left + before.box.width);
    return gap < CJK_GAP * Math.max(before.box.height, word.box.height);
  });
}
