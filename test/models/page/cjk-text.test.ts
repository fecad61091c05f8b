import { describe, expect, it } from 'vitest';
import { hasCjk } from '../../../src/models/fields/normalize.js';
import { foldFullwidth, joinCjkWords } from '../../../src/models/page/cjk-text.js';
import { looksForeign, readsCjk, sureGlyphWidths } from '../../../src/models/page/cjk-reading.js';
import type { PageWord } from '../../../src/models/page/text/text-lines.js';

/** Words of one OCR line placed left to right, each `gap` (in the words' height) after the one before. */
function line(texts: readonly string[], gaps: readonly number[], ocrLine = '1.1.1', height = 30): PageWord[] {
  let left = 100;
  return texts.map((text, i) => {
    const width = [...text].length * height * (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? 1 : 0.55);
    const word = { text, box: { left, top: 100, width, height }, confidence: 0.93, ocrLine };
    left += width + (gaps[i] ?? 0.3) * height;
    return word;
  });
}

describe('Chinese and Japanese page text', () => {
  it('folds fullwidth ASCII, the fullwidth yen and the ideographic space, one character for one', () => {
    expect(foldFullwidth('金額：１２０　ＮＴ＄（含稅）￥')).toBe('金額:120 NT$(含稅)¥');
    expect(foldFullwidth('Total: 12.50')).toBe('Total: 12.50');
  });

  it('tells text with CJK characters', () => {
    expect(hasCjk('總計 1,050')).toBe(true);
    expect(hasCjk('ご請求金額')).toBe(true);
    expect(hasCjk('Gesamtbetrag 12,50 €')).toBe(false);
  });

  it("joins the pieces tesseract's CJK models end a word at, as a text layer gives the line", () => {
    const joined = joinCjkWords(line(['總', '計', ':', '1,050', '元'], [0.1, 0.1, 0.3, 0.1]));
    expect(joined.map((w) => w.text)).toEqual(['總計:', '1,050元']);
    expect(joined[0]!.box.left).toBe(100);
  });

  it('keeps apart what a column gap, another line or Latin words on both sides set apart', () => {
    expect(joinCjkWords(line(['銷售額', '1,000'], [2])).map((w) => w.text)).toEqual(['銷售額', '1,000']);
    expect(joinCjkWords([...line(['總計'], []), ...line(['1,050'], [], '1.1.2')]).map((w) => w.text)).toEqual(['總計', '1,050']);
    expect(joinCjkWords(line(['Total', '12.50'], [0.1])).map((w) => w.text)).toEqual(['Total', '12.50']);
  });
});

/** A word as a Latin model reads it: its text, how sure, and how many heights wide each of its characters is boxed. */
function read(text: string, confidence: number, charWidth: number) {
  return { text, confidence, box: { left: 0, top: 0, width: [...text].length * charWidth * 30, height: 30 } };
}

describe('when a page needs the Chinese and Japanese models', () => {
  it('reads a page again when Latin models guessed at wide glyphs: unsure words boxed wider than their letters', () => {
    const guesses = [read('UEAFIZ', 0.1, 1.4), read('BRA', 0.4, 1), read('BSH', 0.36, 1.03), read('BA', 0.5, 1), read('Jt', 0.4, 0.9), read('AB-12345678', 0.92, 0.8)];
    expect(looksForeign(guesses)).toBe(true);
  });

  it('leaves a poorly read Latin page alone: its unsure words are of narrow letters', () => {
    const poor = ['Rechnung', 'Betrag', 'Summe', 'MwSt', 'Datum', 'Kunde'].map((t) => read(t, 0.4, 0.55));
    expect(looksForeign(poor)).toBe(false);
    // A few wide specks among many words of a page: too few.
    expect(looksForeign([...poor, ...poor, ...poor, read('WM', 0.3, 1.2), read('MW', 0.3, 1.2), read('W', 0.2, 1.5), read('M', 0.2, 1.5)])).toBe(false);
  });

  it('needs no decision for a document whose language is Chinese or Japanese', () => {
    expect(readsCjk(['zh-TW'])).toBe(true);
    expect(readsCjk(['ja'])).toBe(true);
    expect(readsCjk(['chi_sim', 'eng'])).toBe(true);
    expect(readsCjk(['en', 'fr'])).toBe(false);
  });

  it('counts a sure CJK character as two Latin letters, so a CJK reading is weighed fairly against a Latin one', () => {
    expect(sureGlyphWidths([read('總計', 0.9, 1), read('1,050', 0.9, 0.6), read('BSH', 0.3, 1)])).toBe(9);
  });
});
