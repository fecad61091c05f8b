/**
 * An amount written out in English words, as Indian invoices print their total under the figures
 * ("Amount Chargeable (in words): INR Eleven Thousand Eight Hundred Only", "Rupees One Lakh
 * Twenty Thousand and Fifty Paise Only") and cheques and many other invoices do too: a second
 * statement of the total, which the figure chosen as the total must agree with.
 */

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Record<string, number> = {
  thousand: 1e3, lakh: 1e5, lakhs: 1e5, lac: 1e5, lacs: 1e5, million: 1e6, crore: 1e7, crores: 1e7, billion: 1e9,
};
const FRACTION = /^(?:paise|paisa|cents?|sen)$/;
const CURRENCY_NAME = /^(?:rupees?|dollars?|euros?|pounds?|ringgits?|francs?)$/;

/** The currencies the words of an amount name ("Indian Rupee", "Ringgit Malaysia", "US Dollars"). */
const CURRENCY_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/\brupees?\b/i, 'INR'],
  [/\bringgit\b/i, 'MYR'],
  [/\beuros?\b/i, 'EUR'],
  [/\bpounds?\b/i, 'GBP'],
  [/\b(?:us|u\.s\.|united states)\s*dollars?\b/i, 'USD'],
  [/\bswiss\s*francs?\b/i, 'CHF'],
];

/** The currency an amount in words names, where `text` names one by its name. */
export function currencyNamed(text: string): { code: string; index: number; length: number } | undefined {
  for (const [pattern, code] of CURRENCY_NAMES) {
    const match = pattern.exec(text);
    if (match) return { code, index: match.index, length: match[0].length };
  }
  return undefined;
}

export interface AmountInWords {
  /** The amount in cents. */
  cents: number;
  /** Where the words are in the text (from the first number word to the last, or "only"). */
  index: number;
  length: number;
}

interface Token {
  word: string;
  index: number;
  end: number;
}

/**
 * The amount `text` writes out in words, when it does plainly: two number words at least, or one
 * followed by "only", so that the "one" of a sentence is no amount. Whole units, then the cents
 * ("and fifty paise", "paise fifty", "and 50/100").
 */
export function findAmountInWords(text: string): AmountInWords | undefined {
  const tokens: Token[] = [...text.toLowerCase().matchAll(/[a-z]+|\d{1,2}\/100/g)].map((m) => ({ word: m[0], index: m.index, end: m.index + m[0].length }));
  for (let start = 0; start < tokens.length; start++) {
    if (!(tokens[start]!.word in UNITS)) continue;
    const whole = readNumber(tokens, start);
    if (!whole) continue;
    let at = whole.next;
    let cents = 0;
    let end = tokens[whole.next - 1]!.end;
    // The cents: "and fifty paise", "and paise fifty", "fifty cents", "and 50/100".
    // "three hundred euros and twenty cents": the currency's name may stand between.
    if (CURRENCY_NAME.test(tokens[at]?.word ?? '') && tokens[at + 1]?.word === 'and') at += 1;
    let k = tokens[at]?.word === 'and' ? at + 1 : at;
    const before = tokens[k] && FRACTION.test(tokens[k]!.word);
    if (before) k += 1;
    const fraction = tokens[k] && /^\d{1,2}\/100$/.test(tokens[k]!.word) ? { value: Number(tokens[k]!.word.split('/')[0]), next: k + 1 } : readNumber(tokens, k);
    if (fraction && fraction.value < 100 && (before || /\/100$/.test(tokens[fraction.next - 1]!.word) || FRACTION.test(tokens[fraction.next]?.word ?? ''))) {
      cents = fraction.value;
      at = fraction.next + (!before && FRACTION.test(tokens[fraction.next]?.word ?? '') ? 1 : 0);
      end = tokens[at - 1]!.end;
    }
    const only = tokens[at]?.word === 'only';
    if (only) end = tokens[at]!.end;
    if (whole.words < 2 && !only) continue;
    return { cents: whole.value * 100 + cents, index: tokens[start]!.index, length: end - tokens[start]!.index };
  }
  return undefined;
}

/** Whether the number words from `start` are followed by a word of cents ("fifty paise"). */
function endsInFraction(tokens: readonly Token[], start: number): boolean {
  let i = start;
  while (tokens[i] && tokens[i]!.word in UNITS) i++;
  return FRACTION.test(tokens[i]?.word ?? '');
}

/** The number the words from `start` on make ("one lakh twenty thousand five hundred"), if any. */
function readNumber(tokens: readonly Token[], start: number): { value: number; next: number; words: number } | undefined {
  let total = 0;
  let group = 0;
  let words = 0;
  let next = start;
  for (let i = start; i < tokens.length; i++) {
    const { word } = tokens[i]!;
    if (word in UNITS) group += UNITS[word]!;
    else if (word === 'hundred') group = (group || 1) * 100;
    else if (word in SCALES) {
      total += (group || 1) * SCALES[word]!;
      group = 0;
    } else if (word === 'and' && words > 0 && tokens[i + 1]?.word! in UNITS && !endsInFraction(tokens, i + 1)) continue;
    else break;
    words += 1;
    next = i + 1;
  }
  return words > 0 ? { value: total + group, next, words } : undefined;
}
