/**
 * Normalised forms of what documents print: dates as ISO yyyy-mm-dd, amounts as plain decimals
 * ("1537.50"), labels as PascalCase names. Dates and month names are read in the languages of
 * the invoices we read (en, pt, es, fr, de, nl, it).
 */

export interface DateOptions {
  /** 01/02/2024 is 2 January unless the document is American (month first); unambiguous dates ignore this. */
  monthFirst?: boolean;
}

export interface FoundDate {
  iso: string;
  /** Where the date is in the text searched. */
  index: number;
  length: number;
}

const MONTH_NAMES: readonly (readonly string[])[] = [
  ['january', 'janeiro', 'janvier', 'januar', 'enero', 'janner', 'januari', 'gennaio'],
  ['february', 'fevereiro', 'fevrier', 'februar', 'febrero', 'februari', 'febbraio'],
  ['march', 'marco', 'mars', 'marz', 'marzo', 'maart', 'mrt', 'mrz'],
  ['april', 'abril', 'avril', 'aprile'],
  ['may', 'maio', 'mai', 'mayo', 'mei', 'maggio'],
  ['june', 'junho', 'juin', 'juni', 'junio', 'giugno'],
  ['july', 'julho', 'juillet', 'juli', 'julio', 'luglio'],
  ['august', 'agosto', 'aout', 'augustus'],
  ['september', 'setembro', 'septembre', 'septiembre', 'setiembre', 'settembre'],
  ['october', 'outubro', 'octobre', 'oktober', 'octubre', 'ottobre'],
  ['november', 'novembro', 'novembre', 'noviembre'],
  ['december', 'dezembro', 'decembre', 'dezember', 'diciembre', 'dicembre'],
];

type DatePattern = { pattern: RegExp; parts: (m: RegExpExecArray, options: DateOptions) => [string, string, string] };

/**
 * The years of the eras Chinese and Japanese documents count in, by the name printed before the
 * year: the Republic of China's (民國, Taiwan: year 1 is 1912) and Japan's (令和: 2019, 平成: 1989,
 * 昭和: 1926, and their initials R, H, S). Year 1 of an era is also written 元 ("令和元年").
 */
const ERA_YEAR_ZERO: Readonly<Record<string, number>> = { 民國: 1911, 民国: 1911, 令和: 2018, R: 2018, 平成: 1988, H: 1988, 昭和: 1925, S: 1925 };
/** A Taiwanese date without its era: a three-digit year is the Republic's (113 is 2024); years 100 to 199 are 2011 to 2110. */
const ROC_YEAR_ZERO = 1911;

/** The Gregorian year of a year written with or without its era, or undefined when the year cannot be placed. */
function eraYear(era: string | undefined, year: string): string | undefined {
  const number = year === '元' ? 1 : Number(year);
  if (era) return String(ERA_YEAR_ZERO[era]! + number);
  if (year.length === 4) return year;
  if (year.length === 3 && year.startsWith('1')) return String(ROC_YEAR_ZERO + number);
  return undefined;
}

const ERA = Object.keys(ERA_YEAR_ZERO).join('|');

/**
 * Dates as Chinese and Japanese write them: year 年 month 月 day 日, the year Gregorian or of an era
 * ("2024年5月20日", "令和6年5月20日", "民國113年05月20日", "113年05月20日", OCR's "2025 年 1 月 25 日"),
 * and Taiwan's numeric dates with the Republic's three-digit year ("113/05/20"). A month without its
 * day ("113年05-06月", the filing period of a Taiwanese invoice) is no date.
 */
const CJK_DATE_PATTERNS: readonly DatePattern[] = [
  {
    pattern: new RegExp(`(?:(${ERA})\\s*)?(?<!\\d)(\\d{1,4}|元)\\s*年\\s*(\\d{1,2})\\s*月\\s*(\\d{1,2})\\s*日`, 'gu'),
    parts: (m) => [eraYear(m[1], m[2]!) ?? '', m[3]!, m[4]!],
  },
  { pattern: /(?<![\d/.-])(1\d{2})([/.-])(\d{1,2})\2(\d{1,2})(?![\d/.-]*\d)/gu, parts: (m) => [String(ROC_YEAR_ZERO + Number(m[1])), m[3]!, m[4]!] },
];

const WORD = '\\p{L}{3,}\\.?';
const DATE_PATTERNS: readonly DatePattern[] = [
  // 2024-01-15, 2024/01/15
  { pattern: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/gu, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  // 15/01/2024, 15-01-24, 01/15/2024, 23- 03-18 as OCR spaces it (dotted dates are day first everywhere)
  {
    pattern: /(?<![\d/.-])(\d{1,2}) ?([./-]) ?(\d{1,2}) ?[./-] ?(\d{4}|\d{2})(?![\d/.-]*\d)/gu,
    parts: (m, options) => {
      const [first, second] = [Number(m[1]), Number(m[3])];
      const monthFirst = second > 12 || (first <= 12 && options.monthFirst === true && m[2] !== '.');
      return monthFirst ? [m[4]!, m[1]!, m[3]!] : [m[4]!, m[3]!, m[1]!];
    },
  },
  // 15 January 2024, 15 de janeiro de 2024, 15. März 2024, 1er mars 2024, 15-Jan-2024, 05-Mar-24
  {
    pattern: new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th|er|º|°|\\.)?(?:\\s*of)?[\\s.-]+(?:de\\s+)?(${WORD})[\\s,.-]+(?:de\\s+)?(\\d{4}|(?<=-)\\d{2}|'\\d{2})(?!\\d)`, 'gu'),
    parts: (m) => [m[3]!.replace("'", ''), m[2]!, m[1]!],
  },
  // January 15, 2024; Mar 15 , 2024
  {
    pattern: new RegExp(`(${WORD})\\s*(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)`, 'gu'),
    parts: (m) => [m[3]!, m[1]!, m[2]!],
  },
  ...CJK_DATE_PATTERNS,
];


/** The first date in `text`, normalised: of each pattern its first match that is a real day. */
export function findDate(text: string, options: DateOptions = {}): FoundDate | undefined {
  return findDates(text, options)[0];
}

/** Every date in `text`, in the order they appear (a place read by two patterns counts once). */
export function findDates(text: string, options: DateOptions = {}): FoundDate[] {
  const found: FoundDate[] = [];
  for (const { pattern, parts } of DATE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const iso = isoDate(...parts(match, options));
      if (iso) found.push({ iso, index: match.index, length: match[0].length });
    }
  }
  found.sort((a, b) => a.index - b.index || b.length - a.length);
  return found.filter((date, i) => i === 0 || date.index >= found[i - 1]!.index + found[i - 1]!.length);
}

/**
 * Whether the numeric dates of a document put the month first, as far as they tell: a first
 * number above 12 is a day (day first), a second one above 12 is a day (month first).
 */
export function numericDateOrder(text: string): boolean | undefined {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const match of text.matchAll(DATE_PATTERNS[1]!.pattern)) {
    const [first, second] = [Number(match[1]), Number(match[3])];
    if (first > 12 && second <= 12) dayFirst++;
    else if (second > 12 && first <= 12) monthFirst++;
  }
  if (dayFirst === monthFirst) return undefined;
  return monthFirst > dayFirst;
}

/**
 * Whether a printed date reads as two days depending on the order (03/04/2024: 3 April or 4
 * March): both numbers 12 or under and not equal. A dotted date is day first everywhere.
 */
export function orderDecidesDate(printed: string): boolean {
  for (const match of printed.matchAll(DATE_PATTERNS[1]!.pattern)) {
    const [first, second] = [Number(match[1]), Number(match[3])];
    if (match[2] !== '.' && first <= 12 && second <= 12 && first !== second) return true;
  }
  return false;
}

/** yyyymmdd, as machine-readable codes write dates. */
export function compactDate(text: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim());
  return match ? isoDate(match[1]!, match[2]!, match[3]!) : undefined;
}

/** yyyy-mm-dd of a year, a month (number or name) and a day, or undefined when no such day exists. */
export function isoDate(yearText: string, monthText: string, dayText: string): string | undefined {
  const month = /^\d+$/.test(monthText) ? Number(monthText) : monthNumber(monthText);
  let year = Number(yearText);
  if (yearText.length === 2) year += year >= 70 ? 1900 : 2000;
  const day = Number(dayText);
  if (!month || !Number.isInteger(year) || !Number.isInteger(day)) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/** 1..12 for a month name or an abbreviation of at least three letters that names one month only. */
function monthNumber(name: string): number | undefined {
  const key = plain(name).replace(/\.$/, '');
  if (key.length < 3) return undefined;
  const months = new Set(MONTH_NAMES.flatMap((names, i) => (names.some((n) => n.startsWith(key)) ? [i + 1] : [])));
  return months.size === 1 ? [...months][0] : undefined;
}

/** A Chinese character (Han), a kana, or a CJK sign (the ideographic comma, full stop, brackets). */
export const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\u30fc]/u;

/** Whether the text holds any Chinese or Japanese character. */
export function hasCjk(text: string): boolean {
  return CJK_CHARACTER.test(text);
}

/** Lower case without diacritics: "Março" -> "marco". */
export function plain(text: string): string {
  // Kana voicing marks are letters' parts, not accents ("ご請求" is no "こ請求"): kept, and composed back.
  const folded = text.normalize('NFD').replace(/(?![\u3099\u309a])\p{M}/gu, '').toLowerCase();
  return /[\u3099\u309a]/u.test(folded) ? folded.normalize('NFC') : folded;
}

/**
 * `plain` of a text with, for each character of the result, the index of the character of `text`
 * it comes from (a few characters fold to more than one, so offsets cannot be assumed equal).
 */
export function plainWithOffsets(text: string): { plain: string; offsets: number[] } {
  let folded = '';
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const piece = plain(text[i]!);
    folded += piece;
    for (let j = 0; j < piece.length; j++) offsets.push(i);
  }
  offsets.push(text.length);
  return { plain: folded, offsets };
}

/**
 * Currency signs and the short words that stand for currencies where they are printed, by ISO
 * 4217 code. Words that are also ordinary abbreviations (Rs, Fr.) count only right before an
 * amount.
 */
const CURRENCY_SIGNS: Readonly<Record<string, string>> = {
  '€': 'EUR',
  $: 'USD',
  US$: 'USD',
  '£': 'GBP',
  '¥': 'JPY',
  R$: 'BRL',
  '₹': 'INR',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  S$: 'SGD',
  HK$: 'HKD',
  NZ$: 'NZD',
  '₺': 'TRY',
  '₩': 'KRW',
  '₱': 'PHP',
  '฿': 'THB',
  '₦': 'NGN',
  '₪': 'ILS',
  '₫': 'VND',
  'zł': 'PLN',
  'Kč': 'CZK',
  RM: 'MYR',
  Rp: 'IDR',
  // Chinese and Japanese: the Taiwan dollar ("NT$", 新台幣), the yen (円), the yuan (元: on a
  // Taiwanese page the Taiwan dollar, see chineseYuan) and the renminbi written out.
  NT$: 'TWD',
  新台幣: 'TWD',
  新臺幣: 'TWD',
  円: 'JPY',
  元: 'CNY',
  人民币: 'CNY',
  人民幣: 'CNY',
};
const CURRENCY_WORDS: Readonly<Record<string, string>> = { rs: 'INR', 'rs.': 'INR', inr: 'INR', 'fr.': 'CHF', 'sfr.': 'CHF' };
const CURRENCY_CODES = [
  'EUR', 'USD', 'GBP', 'CHF', 'BRL', 'JPY', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN', 'AOA', 'MZN', 'CVE',
  'INR', 'MYR', 'SGD', 'HKD', 'CNY', 'RMB', 'TWD', 'NTD', 'IDR', 'PHP', 'THB', 'VND', 'KRW', 'AED', 'SAR', 'QAR', 'TRY', 'ZAR', 'NGN', 'KES', 'MXN', 'ILS',
];
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SIGN_SOURCE = Object.keys(CURRENCY_SIGNS)
  .sort((a, b) => b.length - a.length)
  .map(escapeRegex)
  .join('|');
const CURRENCY = new RegExp(
  `(?<![A-Za-z])(${CURRENCY_CODES.join('|')})(?![A-Za-z])|(?<![A-Za-z])(${SIGN_SOURCE})(?![A-Za-z])|(?<![A-Za-z])((?:[Rr]s|S?[Ff]r)\\.?)(?=\\s?\\d)`,
  'u',
);

/** Codes printed for a currency besides its ISO code. */
const CODE_ALIASES: Readonly<Record<string, string>> = { RMB: 'CNY', NTD: 'TWD' };

/**
 * Characters of tax and money words that Taiwan (and Hong Kong) write in their traditional form
 * and the mainland in its simplified one ("發票" and "发票", "稅" and "税", "總計" and "总计").
 * The traditional ones are those Japanese writes otherwise too (発, 税, 価, 総, 号...): a page of
 * kanji without kana is not taken for a Taiwanese one.
 */
const TRADITIONAL_ONLY = /[發稅價總營賣號證聯臺單據]/gu;
const SIMPLIFIED_ONLY = /[发税计价额总营买卖统号证联币单据]/gu;

/**
 * The currency the yuan sign and character (¥, 元) stand for on a Chinese page: the Taiwan dollar
 * where the page writes traditional characters, the renminbi where it writes simplified ones;
 * undefined on a page of neither (a Japanese page's ¥ is the yen).
 */
export function chineseYuan(text: string): 'TWD' | 'CNY' | undefined {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return undefined;
  const traditional = text.match(TRADITIONAL_ONLY)?.length ?? 0;
  const simplified = text.match(SIMPLIFIED_ONLY)?.length ?? 0;
  if (traditional === 0 && simplified === 0) return undefined;
  return traditional > simplified ? 'TWD' : 'CNY';
}

export interface FoundCurrency {
  /** ISO 4217. */
  code: string;
  index: number;
  length: number;
}

/** Every currency code or symbol in `text`. */
export function findCurrencies(text: string): FoundCurrency[] {
  return [...text.matchAll(new RegExp(CURRENCY.source, 'gu'))].map((match) => ({
    code: match[1] ? (CODE_ALIASES[match[1]] ?? match[1]) : match[2] ? CURRENCY_SIGNS[match[2]]! : CURRENCY_WORDS[match[3]!.toLowerCase()] ?? 'INR',
    index: match.index,
    length: match[0].length,
  }));
}

export function findCurrency(text: string): FoundCurrency | undefined {
  return findCurrencies(text)[0];
}

// A number as printed: thousands grouped by a space (also no-break and thin ones), dot, comma or
// apostrophe, or in Indian lakhs and crores (1,23,456.00); an optional decimal part; or units and
// cents OCR set apart by a space ("RM8 .35").
const NUMBER =
  /[-−]?\d{1,3} \.\d{2}(?![\d%])|[-−]?(?:\d{1,2}(?:,\d{2})+,\d{3}|\d{1,3}(?:[ \u00a0\u202f\u2009.,'’]\d{3})+)(?:[.,]\d{1,4})?(?![\d%])|[-−]?\d+(?:[.,]\d{1,4})?(?![\d%])/gu;

/** A normalised amount ("1537.50", "-15.90") in whole cents, to compare amounts without rounding errors. */
export function cents(normalized: string): number {
  return Math.round(Number(normalized) * 100);
}

/**
 * The amount in `text` (its last number that is not a percentage) as a plain decimal: "1.537,50 €"
 * and "$1,537.50" are both "1537.50".
 */
export function parseAmount(text: string): string | undefined {
  const numbers = [...text.matchAll(NUMBER)].map((m) => m[0]).filter((n) => !/[.,]$/.test(n));
  const last = numbers.at(-1);
  return last === undefined ? undefined : plainDecimal(last);
}

/**
 * A unit of measure right after a number: the number is a quantity ("492 m3", "1,234 kWh", "12 kg",
 * "3.5 L", "30 days", "2 Stück"), never an amount of money, in any language. Bills print their
 * consumption beside their charges; a quantity is no total, net or tax. Single letters but the
 * litre's are left out: receipts print tax codes after amounts ("4.99 T", "1,99 A").
 */
export const QUANTITY_UNIT =
  /^\s?(?:m3|m³|m2|m²|kwh|mwh|wh|kw|kva|kvar|gj|mj|therms?|ccf|kg|mg|lbs?|oz|l|ltrs?|litres?|liters?|ml|cl|hl|gal(?:lons?)?|km|cm|mm|days?|jours?|tage?|dias?|días|giorni|hrs?|hours?|stunden|heures|months?|monate?|mois|meses|pcs|stk|st[uü]ck)(?![\p{L}\p{N}])/iu;

/**
 * Words after a whole number that leave it money: a currency's name, "only", and what tax the
 * amount holds or lacks ("500 Euro", "Rs 500 only", "120 TTC", "120 inkl. MwSt.", "120 HT").
 */
const MONEY_WORD =
  /^\s+(?:euros?|dollars?|pounds?|francs?|yen|yuan|rupees?|reais|real|pesos?|kronor|kroner|kronen?|zlotys?|only|net|netto|brutto|gross|ht|ttc|hors|incl|inkl|exkl|excl|zzgl|including|excluding|inclusive|exclusive|tax|vat|mwst|ust|tva|iva|btw|gst|hst)(?![\p{L}\p{N}])/iu;

/**
 * A count or a number in words, not an amount: a whole number without a currency that a word
 * follows in `text` (a house number, "for 152 LOUISA ST"; "3 items"). Money is printed with its
 * cents or its currency, stands alone, or says what tax it holds.
 */
export function isCountBeforeWord(text: string, amount: FoundAmount): boolean {
  if (amount.decimals || amount.currency) return false;
  const after = text.slice(amount.index + amount.length);
  return /^\s+\p{L}{2}/u.test(after) && !MONEY_WORD.test(after);
}

export interface FoundAmount {
  /** Plain decimal ("1537.50"). */
  value: string;
  /** Where the number is, without any currency beside it. */
  index: number;
  length: number;
  /** Printed with a decimal part ("12.50", not "12"). */
  decimals: boolean;
  /** The currency printed right before or after the number, if any. */
  currency?: FoundCurrency;
}

/**
 * Every amount in `text` with the currency glued or next to it; percentages, parts of dates,
 * times, and numbers inside words or codes ("INV-0042", "10:45") are not amounts.
 */
export function findAmounts(text: string): FoundAmount[] {
  const currencies = findCurrencies(text);
  const found: FoundAmount[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const printed = match[0];
    if (/[.,]$/.test(printed)) continue;
    const before = text.slice(0, match.index);
    const end = match.index + printed.length;
    const after = text.slice(end);
    const currency = currencies.find((c) => (c.index + c.length <= match.index && match.index - (c.index + c.length) <= 1) || (c.index >= end && c.index - end <= 1));
    // Part of a code, a date, a time or a word ("A-1234", "2024/17", "15.03.2024", "10:45", "x2"),
    // unless what touches it is a currency ("RM8.35", "12€").
    const glued = currency && (currency.index + currency.length === match.index || currency.index === end);
    // An amount with cents OCR glued to the word before it ("FACTURA393,25", "Total:12.50"): a
    // code's letters are fewer ("A1234", "FT2024"), and a time has a digit before its colon.
    const afterWord = /\p{L}{4}$/u.test(before) && /[.,]\d{2}$/.test(printed);
    // Chinese and Japanese write a label or a unit right against the figure ("總計1,050", "50個"):
    // their characters do not glue a number into a word.
    const touchesBefore = !afterWord && /(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\d/#]|\d[.,:-])$/u.test(before);
    if (!glued && (touchesBefore || /^(?:[\d/:]|[.,-]\d|(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])\p{L})/u.test(after))) continue;
    // A rate, not an amount: "20 %"; a quantity, not an amount: "492 m3", "30 days".
    if (/^\s?%/u.test(after) || (!currency && QUANTITY_UNIT.test(after))) continue;
    found.push({ value: plainDecimal(printed), index: match.index, length: printed.length, decimals: /[.,]\d{1,2}$/.test(printed), ...(currency ? { currency } : {}) });
  }
  return found;
}

function plainDecimal(printed: string): string {
  const negative = /^[-−]/.test(printed);
  const digits = printed.replace(/^[-−]/, '').replace(/[ \u00a0\u202f\u2009'’]/g, '');
  const separators = digits.replace(/\d/g, '');
  let decimalSeparator: string | undefined;
  if (separators.includes('.') && separators.includes(',')) decimalSeparator = separators.at(-1);
  else if (separators.length === 1) {
    // One separator followed by exactly three digits groups thousands ("1,250"); otherwise it is the decimal point.
    decimalSeparator = /[.,]\d{3}$/.test(digits) ? undefined : separators;
  }
  const [whole = '', fraction] = decimalSeparator ? splitLast(digits, decimalSeparator) : [digits, undefined];
  const integer = whole.replace(/[.,]/g, '').replace(/^0+(?=\d)/, '');
  return `${negative ? '-' : ''}${integer}${fraction !== undefined ? `.${fraction}` : ''}`;
}

function splitLast(text: string, separator: string): [string, string] {
  const at = text.lastIndexOf(separator);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** A value that is an amount: a number with decimals or a currency, and nothing else but spaces. */
export function isAmount(text: string): boolean {
  const withoutCurrency = text.replace(new RegExp(CURRENCY.source, 'gu'), '').trim();
  return /^[-−]?\d[\d .,'’\u00a0\u202f\u2009]*$/.test(withoutCurrency) && (/[.,]\d{1,2}$/.test(withoutCurrency) || findCurrency(text) !== undefined);
}

/** "Invoice number" -> "InvoiceNumber", "N.º Contribuinte" -> "NContribuinte". */
export function pascalCase(label: string): string {
  return plain(label)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** The normalised form of a free value: ISO when it is a date, a plain decimal when an amount, else its text on one line. */
export function normalizeValue(text: string, options: DateOptions = {}): string {
  const value = text.replace(/\s+/g, ' ').trim();
  const date = findDate(value, options);
  // The date must be the value, not a part of a sentence that mentions one.
  if (date && date.length >= 0.6 * value.length) return date.iso;
  if (isAmount(value)) return parseAmount(value) ?? value;
  return value;
}

/** American documents write the month first; the other languages the OCR knows write the day first. */
export function dateOptionsFor(language: string | undefined): DateOptions {
  return { monthFirst: language?.toLowerCase() === 'en-us' };
}
