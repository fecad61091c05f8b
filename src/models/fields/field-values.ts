/**
 * What a field's value looks like, read from the text after (or under) its label: the part of the
 * run that is the value, its normalised form, and how well it fits (0..1), which weighs the
 * candidate against others.
 */
import { findIbans, findTaxId, findUncheckedIban } from './identifiers.js';
import { ATTENTION } from './label-hits.js';
import { AFTER_THE_NAME, hasLegalForm, isOnlyLegalForm } from './legal-form.js';
import { findAmounts, findCurrency, findDates, isCountBeforeWord, plain, QUANTITY_UNIT, type DateOptions, type FoundAmount } from './normalize.js';
import { runInRange, type PageText, type TextRun } from '../page/text/text-lines.js';

export interface ReadValue {
  run: TextRun;
  contentNormalized: string;
  /** 0..1: how well the text has the field's form. */
  fit: number;
}

export type ValueReader = (run: TextRun, page: PageText) => ReadValue | undefined;

/** The part of a run from `index` for `length` characters of its text. */
export function subRun(page: PageText, run: TextRun, index: number, length: number): TextRun | undefined {
  const [span] = run.spans;
  return span && run.spans.length === 1 ? runInRange(page, span.offset + index, span.offset + index + length) : undefined;
}

/** The first date of the run that can be a document's, in ISO. */
/** Invoices and receipts are dated from here to a few years ahead: other years are misread digits. */
const FIRST_YEAR = 1990;
const YEARS_AHEAD = 5;

export function plausibleYear(iso: string): boolean {
  const year = Number(iso.slice(0, 4));
  return year >= FIRST_YEAR && year <= new Date().getUTCFullYear() + YEARS_AHEAD;
}

/**
 * A date right after its label whose first separator OCR lost or read as a 7 or a 1 ("2504/2017",
 * "13707/2017"): day and month as two digits each, then the year with its separator.
 */
const SPOILED_DATE = /^\s*(\d{2})[71]?(\d{2})([/.-])(\d{4}|\d{2})(?!\d)/;

function spoiledDate(text: string, options: DateOptions): { iso: string; index: number; length: number } | undefined {
  const match = SPOILED_DATE.exec(text);
  if (!match) return undefined;
  const [whole, first, second, separator, year] = match;
  const [date] = findDates(`${first}${separator}${second}${separator}${year}`, options);
  if (!date || !plausibleYear(date.iso)) return undefined;
  const index = whole.length - whole.trimStart().length;
  return { iso: date.iso, index, length: whole.length - index };
}

export function readDate(options: DateOptions): ValueReader {
  return (run, page) => {
    const date = findDates(run.text, options).find((d) => plausibleYear(d.iso));
    if (!date) {
      const spoiled = spoiledDate(run.text, options);
      return spoiled && { run: subRun(page, run, spoiled.index, spoiled.length) ?? run, contentNormalized: spoiled.iso, fit: 0.7 };
    }
    const sub = subRun(page, run, date.index, date.length) ?? run;
    // A date far into the text after the label is less surely its value.
    return { run: sub, contentNormalized: date.iso, fit: date.index <= 3 ? 1 : 0.8 };
  };
}

/**
 * The first amount of the run: with decimals or a currency it is surely one; a bare integer may
 * be a count. Words before it ("Total items 3 ... 31.00") make it less sure.
 */
export const readAmount: ValueReader = (run, page) => firstAmount(run, page, findAmounts(run.text));

/**
 * Words that name the base a tax is reckoned on, right before an amount: on a tax line that
 * prints both ("TVA 5,5% HT 10,10 TVA 0,56", "IVA 10% BASE 10,85 CUOTA 1,09", "MWST 8.1% auf
 * 105.60 7.92", "VAT 20% on 640.00 128.00") it is not the tax.
 */
const TAX_BASE =
  /(?:^|[^\p{L}])(?:ht|h\.t\.|hors\s+taxes?|net|nett|netto|base|basis|excl\.?|exkl\.?|taxable|imponible|imponibile|grundlage|iliquido|auf|on|sur|su|sobre|over)\s*[:=]?\s*\p{Sc}?\s*$/iu;

/** A tax's amount: the first amount of the run that is not its base. */
export const readTaxAmount: ValueReader = (run, page) => {
  const start = (a: FoundAmount) => (a.currency ? Math.min(a.currency.index, a.index) : a.index);
  return firstAmount(run, page, findAmounts(run.text).filter((a) => !TAX_BASE.test(run.text.slice(0, start(a)))));
};

/**
 * A whole number in brackets, no currency beside it: a count of items after a total's label
 * ("SUMME [3]", "Total (2)"), not an amount. A credit in brackets has cents ("(15.90)").
 */
function bracketedCount(text: string, amount: FoundAmount): boolean {
  return !amount.decimals && !amount.currency && /[[(]\s*$/.test(text.slice(0, amount.index)) && /^\s*[\])]/.test(text.slice(amount.index + amount.length));
}

/**
 * What follows an amount that ends its run: the next cell of its row, where a table prints a
 * quantity's unit apart from the number ("Total Consumption | 492 | m3").
 */
function nextCellOf(page: PageText, run: TextRun): string {
  const last = run.spans.at(-1);
  if (!last) return '';
  const end = last.offset + last.length;
  const line = page.lines.find((l) => l.spans.some((s) => s.offset <= end && end <= s.offset + s.length));
  if (!line || line.text.trimEnd().length > end - line.spans[0]!.offset) return '';
  const row = page.rows[line.row] ?? [];
  return row[row.indexOf(line) + 1]?.text ?? '';
}

/**
 * A quantity, not an amount: a unit after the number, in its run or the next cell ("492 m3"); or a
 * whole number, no currency beside it, that a word follows (a house number, "for 152 LOUISA ST",
 * a count, "3 items"): money is printed with its cents or its currency, or stands alone.
 */
function isQuantity(run: TextRun, page: PageText, amount: FoundAmount): boolean {
  if (amount.currency) return false;
  const after = run.text.slice(amount.index + amount.length);
  const following = after.trim() === '' ? ` ${nextCellOf(page, run)}` : after;
  return QUANTITY_UNIT.test(following) || isCountBeforeWord(run.text, amount);
}

function firstAmount(run: TextRun, page: PageText, found: readonly FoundAmount[]): ReadValue | undefined {
  // The year of a date is no amount, though a currency sign follows it ("due April 1, 2024 $54.23").
  const dates = findDates(run.text);
  const amounts = found.filter((a) => !dates.some((d) => a.index >= d.index && a.index < d.index + d.length) && !bracketedCount(run.text, a) && !isQuantity(run, page, a));
  const amount = amounts.find((a) => a.decimals || a.currency) ?? amounts[0];
  if (!amount) return undefined;
  const start = amount.currency ? Math.min(amount.currency.index, amount.index) : amount.index;
  const end = amount.currency ? Math.max(amount.currency.index + amount.currency.length, amount.index + amount.length) : amount.index + amount.length;
  const sub = subRun(page, run, start, end - start) ?? run;
  const before = run.text.slice(0, start);
  let fit = amount.decimals ? 1 : amount.currency ? 0.8 : 0.4;
  if (/\p{L}{2}/u.test(before.replace(/\b(?:[A-Z]{3}|RM|Rs|Fr)\b/g, ''))) fit *= 0.6;
  return { run: sub, contentNormalized: amount.value, fit };
}

/** Words that are labels or titles, never an id. */
const NUMBER_LABEL = /^n[º°o2]\.?:$/i;
const NOT_AN_ID = /^(?:date|datum|data|fecha|dated|page|total|invoice|facture|rechnung|factuur|fattura|factura|fatura|tax|vat|due|no\.?|nr\.?|number)$/i;

/**
 * An identifier: its first token holding a digit ("INV-0042", "2024/118", "#10482"), with a short
 * series prefix before it ("FT 2024/17", "FT A/17"); not a date, an amount, a phone number.
 */
export const readIdentifier: ValueReader = (run, page) => {
  const tokens = [...run.text.matchAll(/\S+/g)].slice(0, 4);
  // The year of a date ("12 Jan 2024") is no number of the document.
  const dates = findDates(run.text);
  const inDate = (index: number) => dates.some((d) => index >= d.index && index < d.index + d.length);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (inDate(token.index)) continue;
    const grouped = i === 0 ? digitGroups(run.text) : undefined;
    if (grouped) return { run: subRun(page, run, token.index, grouped.length) ?? run, contentNormalized: grouped.replace(/\s/g, ''), fit: 0.9 };
    // A number sign glued to the number ("#10482", "№ 12", "N°F-20240000014"): its label, not a part of it.
    const text = token[0].replace(/^(?:[#:№]+|N[°º]\.?:?)(?=[\p{L}\p{N}])/u, '').replace(/[.,;:)]+$/, '');
    if (NOT_AN_ID.test(text)) continue;
    // A number's own label before it ("Nº:", which OCR reads "N2:").
    if (NUMBER_LABEL.test(token[0]) && tokens[i + 1]) continue;
    if (!/\d/.test(text) || text.length > 30) {
      // A series prefix ("FT", "A") before a token with digits.
      if (/^[A-Z]{1,4}$/.test(text) && tokens[i + 1] && /\d/.test(tokens[i + 1]![0])) {
        const nextText = tokens[i + 1]![0].replace(/[.,;:)]+$/, '');
        if (findDates(nextText).length > 0) return undefined;
        const start = token.index;
        const end = tokens[i + 1]!.index + nextText.length;
        const sub = subRun(page, run, start, end - start) ?? run;
        return { run: sub, contentNormalized: run.text.slice(start, end), fit: 0.9 };
      }
      if (i === 0 && /^\p{L}+$/u.test(text)) return undefined;
      continue;
    }
    if (findDates(text).length > 0 && findDates(text)[0]!.length >= text.length - 1) return undefined;
    // An amount is no id, also as statements print credits and zero balances ("73.83CR", ".00", "12.50-").
    if (/^-?(?:\d{1,3}(?:[.,]\d{3})*)?[.,]\d{2}(?:CR|DR|-)?$/i.test(text)) return undefined;
    if (/^\+?\d[\d\s()-]{8,}$/.test(token[0]) && /^\+/.test(token[0])) return undefined;
    const start = token.index + token[0].indexOf(text);
    const sub = subRun(page, run, start, text.length) ?? run;
    // A number that ends in its separator goes on in the next line ("... factuurnummer F2024-"): a piece of it.
    const fit = (i === 0 ? 1 : 0.7) * (/[-/]$/.test(text) ? 0.3 : 1);
    return { run: sub, contentNormalized: text, fit: /^\d{1,2}$/.test(text) ? fit * 0.5 : fit };
  }
  return undefined;
};

/**
 * A number printed in groups of digits ("123 456 7890", as telecoms and utilities print account
 * and invoice numbers): the groups at the start of `text`, when they make six digits or more and
 * nothing but a line's end or a word follows them.
 */
function digitGroups(text: string): string | undefined {
  const match = /^\s*(\d{2,4}(?: \d{2,4}){1,4})(?=\s*$|\s+\p{L})/u.exec(text);
  if (!match || match[1]!.replace(/\s/g, '').length < 6) return undefined;
  return match[1]!;
}

/**
 * Codes before a name on its line (a GLN, a supplier number: "GLN 4333741000005 Lief-Nr: 549910
 * Musterlieferant GmbH"): the name is what follows the last of them; the run itself without such codes.
 */
export function afterCodes(page: PageText, run: TextRun): TextRun {
  const lastCode = [...run.text.matchAll(/\d{5,}/g)].at(-1);
  if (!lastCode || !/\p{L}{2}/u.test(run.text.slice(lastCode.index + lastCode[0].length))) return run;
  const at = lastCode.index + lastCode[0].length;
  const skip = /^[\s,;:·|/-]*/.exec(run.text.slice(at))![0].length;
  return subRun(page, run, at + skip, run.text.length - at - skip) ?? run;
}

/** A name field's label standing where its value should be. */
const FORM_PLACEHOLDER = /^(?:(?:seller|buyer|vendor|supplier|customer|client|company|trade|business|legal|registered|contact|full)\s*)*(?:trade\s*)?name$|^(?:nom\s*commercial|raison\s*sociale|firmenname|handelsname|ragione\s*sociale|nombre\s*comercial|razon\s*social|denominacao(?:\s*social)?)$/;

/** Street words of the addresses of the languages read (plain text), glued or apart: "Lieferanten-Str.12", "rue", "Via". */
const STREET = /(?:str\.|strasse|straße|weg\b|gasse\b|allee\b|platz\b|\bstreet\b|\bst\.|\broad\b|\bavenue\b|\brue\b|\bvia\b|\bcalle\b|\brua\b|straat\b|laan\b|\bulice\b|\bul\.|gatan\b|\bvej\b|katu\b)/;

/** The end of a label: a colon, or a number's sign ("N°", "Nr.", "No.", "#"). */
const LABEL_AT_END = /(?::|(?<![\p{L}\p{N}])(?:n\s?[°ºo]|nr|no|num)\.?|#)\s*$/iu;

const LEADING_MARKS = /^[¡!¿?|«»"“”„·•*~_=+:;,.\-–—[\]]+\s*/u;

/**
 * A name: a few words with letters, not a date, an amount or an address line with a number
 * first. A name the address follows on its line ("Kestrel Cafe Ltd, 4 Mill Lane, Bath") ends at
 * the comma before the street and its number.
 */
export const readName: ValueReader = (run, page) => {
  // A mark OCR read from a speck or a rule before the name ("¡Mehta Textiles") is no part of it.
  const marks = LEADING_MARKS.exec(run.text)?.[0].length ?? 0;
  if (marks > 0) {
    const rest = subRun(page, run, marks, run.text.length - marks);
    return rest && /^\p{L}/u.test(rest.text) ? readName(rest, page) : undefined;
  }
  // Not the comma before a legal form ("Acme, Inc. 12 Main St"): that is still the name.
  const address = [...run.text.matchAll(/,\s*(?=(?:\S+\s+){0,2}?\S*\d)/gu)].find((comma) => !hasLegalForm(run.text.slice(comma.index).split(/\s+/).slice(0, 2).join(' ')));
  if (address && /\p{L}{2}/u.test(run.text.slice(0, address.index))) {
    const name = subRun(page, run, 0, address.index);
    if (name) return readName(name, page);
  }
  const named = afterCodes(page, run);
  if (named !== run) return readName(named, page);
  // A web address before the name, a telephone number after it, on a letterhead's line
  // ("www.kwhydro.on.ca KITCHENER-WILMOT HYDRO INC (519) 743-3600"): no part of the name.
  const contact = /^(?:https?:\/\/|www\.)\S+\s+/i.exec(run.text)?.[0].length ?? 0;
  const phone = /\s+\+?(?:\(\d{2,4}\)\s?)?\d[\d\s./-]{5,}\d\s*$/.exec(run.text.slice(contact));
  if (contact > 0 || phone) {
    const name = subRun(page, run, contact, (phone ? phone.index : run.text.length - contact));
    if (name && /\p{L}{2}/u.test(name.text)) return readName(name, page);
  }
  // A legal line's share capital or branch after the name ("Atelier SARL au capital de 10 000 €").
  const after = AFTER_THE_NAME.exec(run.text);
  if (after && after.index >= 2) {
    const name = subRun(page, run, 0, after.index);
    if (name) return readName(name, page);
  }
  const text = run.text.replace(/\s+/g, ' ').trim();
  // A legal form alone ("GmbH", "S.A.") names no one: it is the end of a name printed apart.
  if (isOnlyLegalForm(text)) return undefined;
  // A form's own words ("Trade name", "Company name") are a blank left unfilled, no name; words
  // ending in a colon or a number's sign are another field's label ("Informationen:", "AFFACTURÉE N°").
  if (FORM_PLACEHOLDER.test(plain(text)) || LABEL_AT_END.test(text)) return undefined;
  // Words that all hold digits are a code ("CO-123/V2A", "SE0815"); a street and its number an address.
  const words = text.split(/\s+/);
  if (words.every((w) => /\d/.test(w) || !/\p{L}{2}/u.test(w))) return undefined;
  if (/\d/.test(text) && STREET.test(plain(text)) && !hasLegalForm(text)) return undefined;
  // Two letters alone are a state's or a country's code, initials, a unit: no party's name.
  if (!/\p{L}{2}/u.test(text) || /^\p{L}{1,2}\.?$/u.test(text) || text.length > 80 || ATTENTION.test(text)) return undefined;
  if (findDates(text).length > 0 || /^[\d\s.,:/-]+$/.test(text) || /@|https?:|www\./i.test(text)) return undefined;
  return { run, contentNormalized: text, fit: /^\d/.test(text) ? 0.4 : 1 };
};

export function readTaxId(portuguese: boolean): ValueReader {
  return (run, page) => {
    const taxId = findTaxId(run.text, portuguese);
    if (!taxId) return undefined;
    const sub = subRun(page, run, taxId.index, taxId.length) ?? run;
    return { run: sub, contentNormalized: taxId.normalized, fit: taxId.index <= 2 ? 1 : 0.8 };
  };
}

export const readCurrency: ValueReader = (run) => {
  const currency = findCurrency(run.text);
  return currency && { run, contentNormalized: currency.code, fit: 1 };
};

/** An IBAN read with one character put right passes its check digits less surely than one read whole. */
export const REPAIRED_IBAN = 0.6;

export const readIban: ValueReader = (run, page) => {
  const [iban] = findIbans(run.text.toUpperCase());
  if (!iban) return undefined;
  return { run: subRun(page, run, iban.index, iban.length) ?? run, contentNormalized: iban.normalized, fit: iban.repaired ? REPAIRED_IBAN : 1 };
};

/** An unchecked IBAN's form: a value that only its label makes an account number. */
export const UNCHECKED_IBAN = 0.6;

/**
 * The value of an "IBAN" label: a valid IBAN, else one of its country's form whose check digits
 * fail (findUncheckedIban), less surely; its choice then reports it as failing its check.
 */
export const readLabelledIban: ValueReader = (run, page) => {
  const valid = readIban(run, page);
  if (valid) return valid;
  const unchecked = findUncheckedIban(run.text.toUpperCase());
  if (!unchecked) return undefined;
  return { run: subRun(page, run, unchecked.index, unchecked.length) ?? run, contentNormalized: unchecked.normalized, fit: UNCHECKED_IBAN };
};
