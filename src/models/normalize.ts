/**
 * Normalised forms of what documents print: dates as ISO yyyy-mm-dd, amounts as plain decimals
 * ("1537.50"), labels as PascalCase names. Dates and month names are read in the five languages
 * the OCR knows (en, pt, fr, de, es).
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
  ['january', 'janeiro', 'janvier', 'januar', 'enero', 'janner'],
  ['february', 'fevereiro', 'fevrier', 'februar', 'febrero'],
  ['march', 'marco', 'mars', 'marz', 'marzo'],
  ['april', 'abril', 'avril'],
  ['may', 'maio', 'mai', 'mayo'],
  ['june', 'junho', 'juin', 'juni', 'junio'],
  ['july', 'julho', 'juillet', 'juli', 'julio'],
  ['august', 'agosto', 'aout'],
  ['september', 'setembro', 'septembre', 'septiembre', 'setiembre'],
  ['october', 'outubro', 'octobre', 'oktober', 'octubre'],
  ['november', 'novembro', 'novembre', 'noviembre'],
  ['december', 'dezembro', 'decembre', 'dezember', 'diciembre'],
];

const WORD = '\\p{L}{3,}\\.?';
const DATE_PATTERNS: ReadonlyArray<{ pattern: RegExp; parts: (m: RegExpExecArray, options: DateOptions) => [string, string, string] }> = [
  // 2024-01-15, 2024/01/15
  { pattern: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/u, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  // 15/01/2024, 15-01-24, 01/15/2024
  {
    pattern: /(?<![\d/.-])(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?![\d/.-]*\d)/u,
    parts: (m, options) => {
      const [first, second] = [Number(m[1]), Number(m[2])];
      const monthFirst = second > 12 || (first <= 12 && options.monthFirst === true);
      return monthFirst ? [m[3]!, m[1]!, m[2]!] : [m[3]!, m[2]!, m[1]!];
    },
  },
  // 15 January 2024, 15 de janeiro de 2024, 15. März 2024, 15-Jan-2024
  {
    pattern: new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th|º|\\.)?[\\s-]+(?:de\\s+)?(${WORD})[\\s,-]+(?:de\\s+)?(\\d{4})(?!\\d)`, 'u'),
    parts: (m) => [m[3]!, m[2]!, m[1]!],
  },
  // January 15, 2024
  {
    pattern: new RegExp(`(${WORD})\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'u'),
    parts: (m) => [m[3]!, m[1]!, m[2]!],
  },
];

/** The first date in `text`, normalised. */
export function findDate(text: string, options: DateOptions = {}): FoundDate | undefined {
  const found = DATE_PATTERNS.flatMap(({ pattern, parts }) => {
    const match = pattern.exec(text);
    if (!match) return [];
    const iso = isoDate(...parts(match, options));
    return iso ? [{ iso, index: match.index, length: match[0].length }] : [];
  });
  return found.sort((a, b) => a.index - b.index)[0];
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

/** Lower case without diacritics: "Março" -> "marco". */
export function plain(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY', R$: 'BRL' };
const CURRENCY_CODES = ['EUR', 'USD', 'GBP', 'CHF', 'BRL', 'JPY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'AOA', 'MZN', 'CVE'];
const CURRENCY = new RegExp(`(?<![A-Z])(${CURRENCY_CODES.join('|')})(?![A-Z])|(R\\$|[€$£¥])`, 'u');

export interface FoundCurrency {
  /** ISO 4217. */
  code: string;
  index: number;
  length: number;
}

/** Every currency code or symbol in `text`. */
export function findCurrencies(text: string): FoundCurrency[] {
  return [...text.matchAll(new RegExp(CURRENCY.source, 'gu'))].map((match) => ({
    code: match[1] ?? CURRENCY_SYMBOLS[match[2]!]!,
    index: match.index,
    length: match[0].length,
  }));
}

export function findCurrency(text: string): FoundCurrency | undefined {
  return findCurrencies(text)[0];
}

// A number as printed: thousands grouped by space, dot, comma or apostrophe, an optional decimal part.
const NUMBER = /[-−]?\d{1,3}(?:[ .,'’]\d{3})+(?:[.,]\d{1,4})?(?![\d%])|[-−]?\d+(?:[.,]\d{1,4})?(?![\d%])/gu;

/**
 * The amount in `text` (its last number that is not a percentage) as a plain decimal: "1.537,50 €"
 * and "$1,537.50" are both "1537.50".
 */
export function parseAmount(text: string): string | undefined {
  const numbers = [...text.matchAll(NUMBER)].map((m) => m[0]).filter((n) => !/[.,]$/.test(n));
  const last = numbers.at(-1);
  return last === undefined ? undefined : plainDecimal(last);
}

function plainDecimal(printed: string): string {
  const negative = /^[-−]/.test(printed);
  const digits = printed.replace(/^[-−]/, '').replace(/[ '’]/g, '');
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
  return /^[-−]?\d[\d .,'’]*$/.test(withoutCurrency) && (/[.,]\d{1,2}$/.test(withoutCurrency) || findCurrency(text) !== undefined);
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
