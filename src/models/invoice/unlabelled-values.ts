/**
 * The values of a page that need no label: the total a tendered amount less its change gives, the
 * total a labelled net and tax add up to, a page's only amount, dates, IBANs (wrapped ones too), the currencies printed,
 * VAT numbers whose shape names them, and a total written out in words.
 */
import { currencyNamed, findAmountInWords } from './amount-in-words.js';
import { SURE_PAYMENT, type FieldCandidate } from '../fields/field-candidate.js';
import { plausibleYear, readIban, REPAIRED_IBAN, subRun, type ValueReader } from '../fields/field-values.js';
import { findIbans, findPrefixedVatNumber } from '../fields/identifiers.js';
import { cents, chineseYuan, type DateOptions, hasCjk, findAmounts, findCurrencies, findDates, type FoundCurrency, plain } from '../fields/normalize.js';
import { CARD_PAYMENT } from '../fields/invoice-labels.js';
import { debitsTheAccount } from './label-filters.js';
import { vatCheckDigits } from '../fields/vat-check-digits.js';
import { joinRuns, type PageText, type TextLine } from '../page/text/text-lines.js';
import type { LabelHit } from '../fields/label-hits.js';

/** Without a label, a date is the invoice's only weakly (the document may print several). */
const UNLABELLED_DATE = 0.3;
/** ...unless it follows the invoice number on its line: "Facture n°2024-118 du 3 mars 2024". */
const DATE_AFTER_NUMBER = 0.85;
/** ...or a letter dates itself with its town, alone on a line: "München, 05.03.2024", "Lyon, le 12 mars 2024". */
const PLACE_AND_DATE = 0.75;
const TOWN_BEFORE_DATE = /^\s*\p{Lu}[\p{L}\s.'’-]{1,30},\s*(?:den|le|il|el|am|on|the)?\s*$/u;

/** An amount that is the cash tendered less the change is what was paid: a total whatever its label. */
const PAID_AMOUNT = 0.7;

/** What a card paid, read from its own payment line: below a total's label (0.8) and a repeat of the paid amount elsewhere. */
const CARD_PAID = 0.6;
const CARD_LABEL = new RegExp(`^(?:${CARD_PAYMENT}|card|visa|master\\s*card)`);

function isCardPayment(candidate: FieldCandidate): boolean {
  const hit = candidate.hit;
  return hit !== undefined && CARD_LABEL.test(plain(hit.line.text.slice(hit.start, hit.labelEnd)).trim());
}

/** Amounts equal to a tendered amount less a change amount of the page: the total, however OCR spoiled its label. */
export function paidAmounts(page: PageText, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  // Tills print the cash tendered as a payment ("Cash -50.00"): its size counts.
  const size = (value: string) => Math.abs(cents(value));
  const tendered = labelled.filter((c) => c.category === 'Tendered' && c.score >= SURE_PAYMENT);
  const change = labelled.filter((c) => c.category === 'Change' && c.score >= SURE_PAYMENT);
  const paid = new Set(tendered.flatMap((t) => change.map((c) => size(t.contentNormalized) - size(c.contentNormalized))).filter((v) => v > 0));
  // A card pays the amount due exactly: without a change line, what a card paid is the total,
  // printed on the card's line itself when the total's line lost its amount ("Summe" over "EC
  // LASTSCHRIFT 134,39"); a total line that kept it says so more surely.
  const cards = change.length === 0 ? tendered.filter(isCardPayment) : [];
  const found: FieldCandidate[] = cards.map((card) => ({ ...card, category: 'InvoiceTotal', score: CARD_PAID, label: 0 }));
  for (const card of cards) paid.add(size(card.contentNormalized));
  paid.delete(0);
  if (paid.size === 0) return found;
  const taken = new Set([...tendered, ...change].map((c) => c.value.spans[0]?.offset));
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    for (const amount of findAmounts(line.text)) {
      if (!amount.decimals || !paid.has(size(amount.value))) continue;
      const run = subRun(page, line, amount.index, amount.length);
      if (!run || taken.has(run.spans[0]?.offset)) continue;
      found.push({ category: 'InvoiceTotal', value: run, contentNormalized: amount.value, score: PAID_AMOUNT, label: 0, labelLine: line });
    }
  }
  return found;
}

/** A bare amount that is a labelled net plus a labelled tax: the total, printed under them without a label of its own. */
const TOTAL_OF_PARTS = 0.6;
/** ...within this many rows below the lower of the two. */
const PARTS_REACH = 3;
/** A line of nothing but an amount and its currency ("1 210,00 Kč", "€ 96.00"), alone on its row: no label of anything. */
const BARE_AMOUNT_LINE = /^[^\p{L}]*(?:\p{L}{1,3}\.?)?[^\p{L}]*$/u;

/**
 * The total an invoice prints bare under its net and tax lines ("Celkem bez DPH 1 000,00" / "DPH
 * 21 % 210,00" / "1 210,00 Kč"): a line of a single amount, a few lines under a labelled net and a
 * labelled tax, equal to their sum. The sum is the evidence; field-choice.ts weighs it with the
 * other totals.
 */
export function totalsOfParts(page: PageText, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  const placed = (category: string) =>
    labelled.flatMap((c) => (c.category === category && c.label > 0 && c.labelLine && 'row' in c.labelLine ? [{ value: cents(c.contentNormalized), row: (c.labelLine as TextLine).row }] : []));
  const nets = placed('SubTotal');
  const taxes = [...placed('TotalTax'), ...placed('TaxLine')];
  if (nets.length === 0 || taxes.length === 0) return [];
  const taken = new Set(labelled.filter((c) => c.category === 'InvoiceTotal').map((c) => c.value.spans[0]?.offset));
  const found: FieldCandidate[] = [];
  for (const line of page.lines) {
    // Alone on its row: an amount with a label beside it ("CASH   94.00", label and amount apart) is that label's.
    if (excluded.has(line) || !BARE_AMOUNT_LINE.test(line.text) || (page.rows[line.row]?.length ?? 0) > 1) continue;
    const amounts = findAmounts(line.text).filter((a) => a.decimals);
    if (amounts.length !== 1) continue;
    const [amount] = amounts as [(typeof amounts)[number]];
    const value = cents(amount.value);
    const under = (n: { row: number }, t: { row: number }) => line.row > Math.max(n.row, t.row) && line.row - Math.max(n.row, t.row) <= PARTS_REACH;
    if (!nets.some((n) => taxes.some((t) => under(n, t) && Math.abs(n.value + t.value - value) <= 1))) continue;
    const run = subRun(page, line, amount.index, amount.length);
    if (!run || taken.has(run.spans[0]?.offset)) continue;
    found.push({ category: 'InvoiceTotal', value: run, contentNormalized: amount.value, score: TOTAL_OF_PARTS, label: 0, labelLine: line });
  }
  return found;
}

/** The one amount of a page no label names is its total only weakly: a reviewer confirms it. */
const LONE_AMOUNT = 0.5;

/**
 * The total of a page that prints a single amount and no label of a total (an invoice image whose
 * header band OCR could not read, "$56,651.49" under "Total Due" lost): what else would one amount
 * of an invoice be. An amount a label already claims (a payment, a tax) is that label's.
 */
export function loneAmount(page: PageText, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  if (labelled.some((c) => c.category === 'InvoiceTotal')) return [];
  const amounts = page.lines.flatMap((line) => (excluded.has(line) ? [] : findAmounts(line.text).filter((a) => a.decimals).map((amount) => ({ line, amount }))));
  if (amounts.length !== 1) return [];
  const [{ line, amount }] = amounts as [(typeof amounts)[number]];
  const run = subRun(page, line, amount.index, amount.length);
  const claimed = new Set(labelled.map((c) => c.value.spans[0]?.offset));
  return run && !claimed.has(run.spans[0]?.offset) ? [{ category: 'InvoiceTotal', value: run, contentNormalized: amount.value, score: LONE_AMOUNT, label: 0, labelLine: line }] : [];
}

/**
 * Dates no label names: weak invoice date candidates, strong right after the invoice number. A date
 * right after a label of another date ("Delv. Date: 5/16/2024", "Leistungsdatum") is named, as
 * not the issue date.
 */
export function unlabelledDates(page: PageText, dates: DateOptions, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[], hits: readonly LabelHit[]): FieldCandidate[] {
  const taken = new Set(labelled.filter((c) => c.category === 'InvoiceDate' || c.category === 'DueDate').map((c) => c.value.spans[0]?.offset));
  const found: FieldCandidate[] = [];
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    const idOnLine = labelled.find((c) => c.category === 'InvoiceId' && c.labelLine === line);
    const lineHits = hits.filter((h) => h.line === line);
    for (const date of findDates(line.text, dates).filter((d) => plausibleYear(d.iso))) {
      const [nearest] = lineHits.filter((h) => h.valueStart <= date.index).sort((a, b) => b.valueStart - a.valueStart);
      if (nearest?.definition.category === 'Other' && !/\p{L}{2}/u.test(line.text.slice(nearest.valueStart, date.index))) continue;
      const run = subRun(page, line, date.index, date.length);
      if (!run || taken.has(run.spans[0]?.offset)) continue;
      const afterNumber = idOnLine && idOnLine.value.spans[0] && run.spans[0]!.offset > idOnLine.value.spans[0].offset;
      const placeAndDate = TOWN_BEFORE_DATE.test(line.text.slice(0, date.index)) && !/[\p{L}\p{N}]/u.test(line.text.slice(date.index + date.length));
      const score = afterNumber ? DATE_AFTER_NUMBER : placeAndDate ? PLACE_AND_DATE : UNLABELLED_DATE;
      found.push({ category: 'InvoiceDate', value: run, contentNormalized: date.iso, score, label: 0 });
    }
  }
  return found;
}

/** IBANs anywhere on the page, their check digits making them certain without a label; not an account the amount is debited from. */
export function ibans(page: PageText, excluded: ReadonlySet<TextLine>): FieldCandidate[] {
  return page.lines.flatMap((line, index) => {
    if (excluded.has(line) || debitsTheAccount(line.text)) return [];
    const value = readIban(line, page) ?? wrappedIban(page, line, page.lines[index + 1]);
    return value ? [{ category: 'IBAN' as const, value: value.run, contentNormalized: value.contentNormalized, score: value.fit, label: 0 }] : [];
  });
}

/** The start of an IBAN ending a line: its country, check digits and some of its groups. */
const IBAN_START_AT_END = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){4,}$/i;

/**
 * An IBAN a paragraph wrapped ("... IBAN DE89 3704 0044 0532 0130" / "00 · BIC COBADEFFXXX", a
 * footer of small print): begun at the end of a line, ended at the start of the next line of the
 * paragraph (below it, from the same left edge), and whole only when its check digits say so.
 */
function wrappedIban(page: PageText, line: TextLine, next: TextLine | undefined): ReturnType<ValueReader> {
  const head = IBAN_START_AT_END.exec(line.text.trimEnd());
  if (!head || !next) return undefined;
  const [a, b] = [line.layoutBox, next.layoutBox];
  const below = b.top - (a.top + a.height);
  if (below < -0.3 * a.height || below > a.height || Math.abs(b.left - a.left) > a.height) return undefined;
  const [iban] = findIbans(`${head[0]} ${next.text}`.toUpperCase());
  const tailLength = iban ? iban.length - head[0].length - 1 : 0;
  if (!iban || iban.index !== 0 || tailLength <= 0) return undefined;
  const start = subRun(page, line, head.index, head[0].length);
  const tail = subRun(page, next, 0, tailLength);
  return start && tail ? { run: joinRuns([start, tail]), contentNormalized: iban.normalized, fit: iban.repaired ? REPAIRED_IBAN : 1 } : undefined;
}

/**
 * Every currency sign or code the page prints, to tell the currency when no label does; and an
 * Indian GSTIN, since only Indian businesses have one (OCR often misses or misreads the ₹).
 */
export function currencyMentions(page: PageText): FieldCandidate[] {
  // A yen sign on a page of Indian taxes is OCR's reading of the rupee sign (₹ and ¥ look alike).
  const indian = INDIAN_TAX.test(page.text);
  // The yuan sign and character on a Chinese page: the renminbi, or the Taiwan dollar on a Taiwanese one.
  const yuan = chineseYuan(page.text);
  const yuanSign = (text: string, c: FoundCurrency) => yuan !== undefined && (text[c.index] === '¥' || text[c.index] === '元');
  return page.lines.flatMap((line) => {
    const found = findCurrencies(line.text).map((c) => (indian && c.code === 'JPY' && c.length === 1 ? { ...c, code: 'INR' } : yuanSign(line.text, c) ? { ...c, code: yuan! } : c));
    const gstin = GSTIN.exec(line.text);
    if (gstin) found.push({ code: 'INR', index: gstin.index, length: gstin[0].length });
    return found.flatMap((c) => {
      const run = subRun(page, line, c.index, c.length);
      return run ? [{ category: 'CurrencyMention' as const, value: run, contentNormalized: c.code, score: 0.5, label: 0, labelLine: line }] : [];
    });
  });
}

/**
 * A Taiwanese unified invoice's number: the two capitals of its track (字軌) and eight digits,
 * printed with or without a dash ("AB-12345678"), often with no label at all (an e-invoice proof
 * prints it alone under the filing period).
 */
const TAIWAN_INVOICE_NUMBER = /(?<![A-Za-z0-9-])[A-Z]{2}-?\d{8}(?![\d-])/;
/** Its score: above a title's guess (the line under "統一發票" is its period), below a labelled number's. */
const TAIWAN_INVOICE_NUMBER_SCORE = 0.8;

/** Numbers of a Taiwanese unified invoice's shape on a page written in Chinese (elsewhere two letters and eight digits are anything). */
export function taiwaneseInvoiceNumbers(page: PageText, excluded: ReadonlySet<TextLine>): FieldCandidate[] {
  if (!hasCjk(page.text)) return [];
  return page.lines.flatMap((line) => {
    const match = excluded.has(line) ? null : TAIWAN_INVOICE_NUMBER.exec(line.text);
    const run = match && subRun(page, line, match.index, match[0].length);
    return run ? [{ category: 'InvoiceId' as const, value: run, contentNormalized: match![0], score: TAIWAN_INVOICE_NUMBER_SCORE, label: 0, labelLine: line }] : [];
  });
}

/** An unlabelled VAT number's score: below a labelled one's, above a French SIRET's (0.7), which stands in for a VAT number only where none is printed. */
const UNLABELLED_VAT = 0.75;

/**
 * VAT numbers whose shape alone names them ("CHE-417.829.569 MWST", the label after the number; a
 * bare "ATU12345678" in a letterhead), where no label found them: less sure than a labelled one.
 */
export function unlabelledVatNumbers(page: PageText, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  const known = new Set(labelled.map((t) => t.contentNormalized));
  return page.lines.flatMap((line) => {
    if (excluded.has(line)) return [];
    const vat = findPrefixedVatNumber(line.text) ?? checkedGermanVat(line.text);
    const run = vat && !known.has(vat.normalized) ? subRun(page, line, vat.index, vat.length) : undefined;
    return run ? [{ category: 'VendorTaxId' as const, value: run, contentNormalized: vat!.normalized, score: UNLABELLED_VAT, label: UNLABELLED_VAT, labelLine: line }] : [];
  });
}

/** "DE" and nine digits: a German VAT id's shape, which any "DE" before a number has too. */
const GERMAN_VAT = /\bDE\s?\d{9}\b/g;

/**
 * A German VAT id whose label OCR spoiled ("us ST-ID- IR: DE814689550" for "USt-ID-Nr."): its
 * shape names it only with its check digit holding (one in ten numbers passes by chance, a
 * placeholder "DE123456789" does not).
 */
function checkedGermanVat(text: string): { index: number; length: number; normalized: string } | undefined {
  for (const match of text.matchAll(GERMAN_VAT)) {
    const normalized = match[0].replace(/\s/g, '');
    if (vatCheckDigits(normalized) === true) return { index: match.index, length: match[0].length, normalized };
  }
  return undefined;
}

/** Words only Indian invoices print: the GST's kinds, the GSTIN, the goods' and services' codes. */
const INDIAN_TAX = /\b(?:[CISU]GST|UTGST|GSTIN|HSN|SAC)\b/;

/** An Indian GST number after its label: state code, PAN, entity number, "Z", check character (its digits' 0 may be read O). */
const GSTIN = /\bGSTIN\b[^A-Z0-9]{0,12}[\dO]{2}[A-Z]{5}[\dO]{4}[A-Z][A-Z\d]Z[A-Z\d]\b/i;

/** A label of the tax written out in words, in the text before the words. */
const TAX_IN_WORDS = /\b(?:tax|[CIS]?GST|VAT|IVA|TVA|BTW|MwSt|USt)\b[^\d]*$/i;

/**
 * Totals written out in words ("INR Eleven Thousand Eight Hundred Only"): field-choice.ts takes
 * the figure they agree with as the total. The currency the same line names is the document's.
 */
export function amountsInWords(page: PageText): FieldCandidate[] {
  return page.lines.flatMap((line, at) => {
    const words = findAmountInWords(line.text);
    const run = words && subRun(page, line, words.index, words.length);
    if (!words || !run) return [];
    // "Tax Amount (in words): INR Forty Thousand ...": the tax's figure, not the total's.
    const before = line.text.slice(0, words.index);
    if (TAX_IN_WORDS.test(/\p{L}{3}/u.test(before) ? before : `${page.lines[at - 1]?.text ?? ''} ${before}`)) return [];
    const amount: FieldCandidate = { category: 'AmountInWords', value: run, contentNormalized: (words.cents / 100).toFixed(2), score: 0.9, label: 0, labelLine: line };
    const currency = findCurrencies(line.text).find((c) => c.length > 1) ?? currencyNamed(line.text);
    const named = currency && subRun(page, line, currency.index, currency.length);
    return named ? [amount, { category: 'Currency', value: named, contentNormalized: currency.code, score: 0.9, label: 0.9, labelLine: line }] : [amount];
  });
}
