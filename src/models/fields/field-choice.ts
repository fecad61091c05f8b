/**
 * One value per field from the candidates of every page: the best scored, with the fields checked
 * against each other (subtotal + tax = total, cash tendered − change = total, the total as written
 * out in words, due date on or after the invoice date, no impossible value: impossible-values.ts), and a confidence a reviewer can act on: the
 * OCR's confidence in the characters and how surely the label names the field, weighed by the
 * evidence for and against the value (confidence-evidence.ts, one rule for invoices and receipts).
 */
import type { PageRef } from '../page/text/entities.js';
import type { InvoiceField } from './invoice-field-names.js';
import { hasSmudgedWord, SURE_PAYMENT, type CandidateCategory, type FieldCandidate } from './field-candidate.js';
import { cents, orderDecidesDate, plain } from './normalize.js';
import { isValidIban } from './identifiers.js';
import { capImpossible } from './impossible-values.js';
import { companyNumbers, compactId, confidenceFromEvidence, evidenceFor, TEXT_LAYER, type Check } from './confidence-evidence.js';
import type { TextRun } from '../page/text/text-lines.js';
import { containedAtRate, printedRates, totalAfterWithholding } from './included-taxes.js';

export interface PagedCandidate extends FieldCandidate {
  page: PageRef;
}

export interface ChosenField {
  page: PageRef;
  value: TextRun;
  contentNormalized: string;
  confidence: number;
}

function byScore(a: PagedCandidate, b: PagedCandidate): number {
  return b.score - a.score || a.page.chunkNumber - b.page.chunkNumber || (a.value.spans[0]?.offset ?? 0) - (b.value.spans[0]?.offset ?? 0);
}

/** Below this a candidate is a guess not worth a reviewer's time: the field stays not detected. */
const MIN_SCORE = 0.25;

function ofCategory(candidates: readonly PagedCandidate[], category: CandidateCategory): PagedCandidate[] {
  return candidates.filter((c) => c.category === category && c.score >= MIN_SCORE && !c.confirms).sort(byScore);
}

/** A value read by OCR without a check to confirm it can have a wrong character whatever the OCR says. */
const UNCHECKED_OCR_CAP = 0.85;
/** Only a value a code certifies (the fiscal QR code) is certain. */
const PRINTED_CAP = 0.99;

/**
 * How surely a field's value was read, before the evidence for it is weighed
 * (confidence-evidence.ts): its candidate's score (label × place × form) times how surely its
 * characters were read (1 for a text layer; from the OCR's confidence in its least sure word),
 * raised by a check over other printed values it passes, capped low by one it fails; read by OCR
 * and not confirmed by any check, it stays below the 0.9 from which a reviewer may skip it. A
 * confirmed value is not raised (its confirmation's score stands in for the candidate's,
 * chooseFields), only freed of that cap: its characters count as read.
 */
export function confidenceOf(candidate: FieldCandidate, check: Check): number {
  const reading = readingOf(candidate);
  let confidence = candidate.score * (0.5 + 0.5 * reading);
  if (check === 'pass') confidence = Math.max(confidence, (0.6 + 0.39 * reading) * Math.min(1, candidate.score + 0.3));
  if (check === 'fail') confidence = Math.min(confidence, 0.6);
  if (!charactersSure(candidate, check)) confidence = Math.min(confidence, UNCHECKED_OCR_CAP);
  return Math.max(0, Math.min(PRINTED_CAP, confidence));
}

/** The OCR's confidence in the value's least sure word (1 for a text layer). */
function ocrConfidenceOf(candidate: FieldCandidate): number {
  const words = candidate.value.words;
  return words.length > 0 ? Math.min(...words.map((w) => w.confidence)) : candidate.value.confidence;
}

/** How surely OCR read the value's characters, 0..1: 1 for a text layer. */
function readingOf(candidate: FieldCandidate): number {
  const ocr = ocrConfidenceOf(candidate);
  return ocr >= TEXT_LAYER ? 1 : Math.max(0, Math.min(1, (ocr - 0.6) / 0.35));
}

/** A text layer's characters are what was printed; OCR's only when a check or a second reading confirms them. */
function charactersSure(candidate: FieldCandidate, check: Check): boolean {
  return ocrConfidenceOf(candidate) >= TEXT_LAYER || check === 'pass' || check === 'confirmed';
}

interface AmountChoice {
  subTotal?: PagedCandidate;
  tax?: PagedCandidate;
  /** Tax lines added up when no line states the total tax (CGST + SGST). */
  taxLines?: PagedCandidate[];
  total?: PagedCandidate;
  score: number;
  /** Subtotal and tax add up to the total. */
  consistent: boolean;
  /** The total is what was paid (cash tendered less change) or what the words say. */
  confirmed?: boolean;
  /** The total is what the document writes out in words: a second statement of it. */
  worded?: boolean;
  /** The total is not what the cash tendered less the change says was paid. */
  contradicted?: boolean;
}

const TOP = 4;
/** What a total tax gains when the tax lines add up to it. */
const TAX_LINES_AGREE = 0.3;
/** The least score of a total the document also writes out in words. */
const WORDED_TOTAL = 0.9;

/**
 * Subtotal, tax and total chosen together: each combination of their best candidates scores the
 * sum of its candidates' scores, plus a bonus when the amounts add up (and when cash tendered less
 * change is the total), minus a penalty when they contradict (a tax above the total).
 */
function chooseAmounts(candidates: readonly PagedCandidate[]): AmountChoice {
  const subTotals = [undefined, ...ofCategory(candidates, 'SubTotal').slice(0, TOP)];
  const taxLines = ofCategory(candidates, 'TaxLine');
  const taxSum = distinctLines(taxLines);
  // A total tax the tax lines add up to is stated twice (the lines, a table's tax column, and its sum).
  const linesAddUpTo = taxSum.length > 1 ? taxSum.reduce((sum, t) => sum + cents(t.contentNormalized), 0) : undefined;
  const taxes: Array<{ tax?: PagedCandidate; lines?: PagedCandidate[]; value: number; score: number } | undefined> = [
    undefined,
    ...ofCategory(candidates, 'TotalTax')
      // A tax the price contains of 0,00 says the price holds none of it (Brazil's ICMS under the
      // Simples Nacional), not that the invoice's tax is zero.
      .filter((tax) => !(isIncluded(tax) && cents(tax.contentNormalized) === 0))
      .slice(0, TOP)
      .map((tax) => ({ tax, value: cents(tax.contentNormalized), score: tax.score + (cents(tax.contentNormalized) === linesAddUpTo ? TAX_LINES_AGREE : 0) })),
    ...taxLines.slice(0, TOP).map((tax) => ({ tax, value: cents(tax.contentNormalized), score: tax.score * 0.9 })),
  ];
  if (taxSum.length > 1) {
    // Tax lines of different taxes or rates ("CGST @ 9%", "SGST @ 9%") add up to the tax even
    // when no subtotal checks the sum; the same line printed twice (a summary and the totals) does not.
    const words = (c: PagedCandidate) => plain((c.labelLine ?? c.value).text).replace(/[\d\s.,%]+/g, ' ').trim();
    const different = new Set(taxSum.map(words)).size === taxSum.length;
    taxes.push({ lines: taxSum, value: taxSum.reduce((sum, t) => sum + cents(t.contentNormalized), 0), score: Math.min(...taxSum.map((t) => t.score)) * (different ? 0.95 : 0.9) });
  }
  // A "Rounding" line of a whole amount or more is no adjustment but the rounded total itself.
  const roundings = ofCategory(candidates, 'Rounding');
  const roundedTotals = roundings.filter((r) => Math.abs(cents(r.contentNormalized)) >= 100).map((r) => ({ ...r, category: 'InvoiceTotal' as const, score: r.score * 0.8 }));
  const totals = [undefined, ...[...ofCategory(candidates, 'InvoiceTotal'), ...roundedTotals].sort(byScore).slice(0, TOP + 2)];
  const tendered = ofCategory(candidates, 'Tendered').filter((c) => c.score >= SURE_PAYMENT).slice(0, 2);
  const change = ofCategory(candidates, 'Change').filter((c) => c.score >= SURE_PAYMENT).slice(0, 2);
  // Tills print the cash tendered as a payment ("Cash -50.00"): its size counts.
  const paid = new Set(tendered.flatMap((t) => change.map((c) => Math.abs(cents(t.contentNormalized)) - Math.abs(cents(c.contentNormalized)))));
  const rounding = roundings.map((r) => cents(r.contentNormalized)).filter((r) => Math.abs(r) < 100);
  const inWords = new Set(ofCategory(candidates, 'AmountInWords').map((w) => cents(w.contentNormalized)));
  // Taxes the buyer withholds: the total is what the net and the tax come to less one of them.
  const withheld = ofCategory(candidates, 'Withheld').slice(0, TOP).map((w) => cents(w.contentNormalized));
  // The rounded total follows the total it rounds, apart by the rounding (whose sign OCR may lose).
  const offset = (c: PagedCandidate) => c.value.spans[0]?.offset ?? 0;
  // Cash rounding to five cents moves a total by two cents at most, to a multiple of five.
  const roundedBy = (g: PagedCandidate, t: PagedCandidate) => {
    const difference = Math.abs(cents(g.contentNormalized) - cents(t.contentNormalized));
    return rounding.some((r) => r !== 0 && difference === Math.abs(r)) || (difference > 0 && difference <= 2 && cents(g.contentNormalized) % 5 === 0);
  };
  const rounded = new Set(totals.filter((g) => g && totals.some((t) => t && t.page === g.page && offset(t) < offset(g) && roundedBy(g, t))));

  let best: AmountChoice = { score: -Infinity, consistent: false };
  for (const subTotal of subTotals) {
    for (const tax of taxes) {
      for (const total of totals) {
        const runs = [subTotal?.value, tax?.tax?.value, total?.value].filter(Boolean);
        if (new Set(runs).size < runs.length) continue;
        let score = (subTotal?.score ?? 0) + (tax?.score ?? 0) + (total?.score ?? 0) * 1.5;
        const s = subTotal && cents(subTotal.contentNormalized);
        const t = tax?.value;
        const g = total && cents(total.contentNormalized);
        let consistent = false;
        let confirmed = false;
        // Nothing but zeros adds up trivially: no check of anything.
        if (s !== undefined && t !== undefined && g !== undefined && (s !== 0 || g !== 0)) {
          const sum = s + t;
          if (Math.abs(sum - g) <= 1 || rounding.some((r) => Math.abs(sum + r - g) <= 1) || totalAfterWithholding(s, t, g, withheld)) {
            score += 1.2;
            consistent = true;
          } else score -= 0.4;
        } else if (s === undefined && t !== undefined && g !== undefined && tax?.tax && isIncluded(tax.tax) && containedAtRate(t, g, printedRates([tax.tax.labelLine, total?.labelLine]))) {
          // A tax the gross contains, at the rate printed with either: the gross and the tax check
          // each other as a net and its tax would (no net is made of them).
          score += 1.2;
          consistent = true;
        }
        if (g !== undefined && paid.has(g)) {
          score += 0.8;
          confirmed = true;
        }
        // The total written out in words states it a second time.
        const worded = g !== undefined && inWords.has(g);
        if (worded) {
          score += 1;
          confirmed = true;
        }
        // A total that is another total plus the rounding is the rounded one, the amount paid.
        if (total && rounded.has(total)) score += 0.4;
        // By size: a credit note's amounts are all negative.
        const size = Math.abs;
        if (g !== undefined && ((s !== undefined && size(s) > size(g)) || (t !== undefined && size(t) > size(g)))) score -= 0.8;
        if (s !== undefined && t !== undefined && size(t) > size(s)) score -= 0.5;
        const contradicted = g !== undefined && paid.size > 0 && !paid.has(g);
        if (score > best.score) best = { subTotal, tax: tax?.tax, taxLines: tax?.lines, total, score, consistent, confirmed, worded, contradicted };
      }
    }
  }
  return best;
}

/** A tax the price contains, by its label ("enthaltene MwSt", "dont TVA"): part of the total, not added to a net. */
function isIncluded(candidate: PagedCandidate): boolean {
  return candidate.hit?.definition.included === true;
}

/** A confirmation of the chosen candidate's value for the field, on its page. */
function confirmationOf(candidates: readonly PagedCandidate[], field: InvoiceField, chosen: PagedCandidate): PagedCandidate | undefined {
  return candidates.find((c) => c.confirms && c.category === field && c.page.chunkNumber === chosen.page.chunkNumber && sameReading(c.contentNormalized, chosen.contentNormalized));
}

/** Two normalised values that are the same: amounts by value ("12.3" and "12.30"), the rest as written. */
function sameReading(a: string, b: string): boolean {
  const amount = /^-?\d+(?:\.\d+)?$/;
  return a === b || (amount.test(a) && amount.test(b) && cents(a) === cents(b));
}

/** Of candidates on the same line, the first: each tax line counts once. */
function distinctLines(candidates: readonly PagedCandidate[]): PagedCandidate[] {
  const seen = new Set<unknown>();
  return candidates.filter((c) => {
    const key = c.labelLine ?? c.value;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The party's tax id: the likeliest, unless it holds another company number than the party prints
 * and another candidate holds that number (a template's footer with a placeholder company's VAT id
 * under the seller's block with its own, SIREN and VAT id agreeing).
 */
function taxIdOfTheParty(field: 'VendorTaxId' | 'CustomerTaxId', candidates: readonly PagedCandidate[]): PagedCandidate | undefined {
  const ranked = ofCategory(candidates, field);
  const numbers = (c: PagedCandidate) => companyNumbers(field, compactId(c.contentNormalized), candidates);
  const [likeliest] = ranked;
  if (!likeliest || numbers(likeliest) !== 'differ') return likeliest;
  return ranked.find((c) => numbers(c) === 'agree') ?? likeliest;
}

/** What the whole document says that a field's own candidates cannot. */
export interface DocumentFacts {
  /** The document prints an address in the United States, a state with its ZIP code (invoice.ts): its "$" is the US dollar. */
  usAddress?: boolean;
  /**
   * Nothing says whether the document writes the day or the month first (no language hint, no
   * numeric date with a part over 12, a dollar document without a US address, or no currency):
   * a date such as 03/04/2024 was read in the order the model guessed.
   */
  dateOrderGuessed?: boolean;
  /** The dollar of the one country other than the US whose addresses the document prints (invoice.ts): what its bare "$" most likely is. */
  addressDollar?: string;
}

/**
 * One value per field, each with the confidence its evidence allows (confidence-evidence.ts): the
 * same rule for invoices and receipts.
 */
export function chooseFields(candidates: readonly PagedCandidate[], facts: DocumentFacts = {}): Map<InvoiceField, ChosenField> {
  const chosen = new Map<InvoiceField, ChosenField>();
  const set = (field: InvoiceField, candidate: PagedCandidate | undefined, check: Check = 'none') => {
    if (!candidate) return;
    // A second reading of the value (field-candidate.ts) confirms it, its score standing in for the candidate's.
    const confirmation = check === 'none' ? confirmationOf(candidates, field, candidate) : undefined;
    const read = confirmation ? { ...candidate, score: Math.max(candidate.score, confirmation.score) } : candidate;
    const checked = confirmation ? 'confirmed' : check;
    const evidence = evidenceFor(field, read, checked, candidates);
    const confidence = confidenceFromEvidence(confidenceOf(read, checked), evidence, ocrConfidenceOf(read));
    chosen.set(field, { page: candidate.page, value: candidate.value, contentNormalized: candidate.contentNormalized, confidence });
  };

  for (const field of ['InvoiceId', 'VendorAddress'] as const) set(field, ofCategory(candidates, field)[0]);
  for (const field of ['VendorTaxId', 'CustomerTaxId'] as const) set(field, taxIdOfTheParty(field, candidates));
  // A name OCR could not read (and no second reading put right) is not detected rather than
  // reported as letters a reviewer must retype.
  for (const field of ['CustomerName', 'VendorName'] as const) {
    set(field, ofCategory(candidates, field).find((c) => !hasSmudgedWord(c.value)));
  }
  // Its mod-97 check digits confirm an IBAN: a misread character fails them (an account only its
  // label made one is reported so). Which of two valid accounts (a Dutch G-rekening beside the
  // usual one, a second bank) is the one asked for, they do not say.
  const ibans = ofCategory(candidates, 'IBAN');
  const accounts = new Set(ibans.filter((c) => isValidIban(c.contentNormalized)).map((c) => c.contentNormalized));
  set('IBAN', ibans[0], ibans[0] && isValidIban(ibans[0].contentNormalized) && accounts.size === 1 ? 'pass' : 'fail');

  const due = ofCategory(candidates, 'DueDate')[0];
  const issued = ofCategory(candidates, 'InvoiceDate').find((c) => !due || c.value.spans[0]?.offset !== due.value.spans[0]?.offset || c.page !== due.page);
  // A due date on or after the issue date makes both plausible, no more: a weak check.
  const datesCheck: Check = issued && due ? (due.contentNormalized >= issued.contentNormalized ? 'weak-pass' : 'fail') : 'none';
  // A date the guessed order decides is one reading of two, whatever else agrees with it.
  const dateCheck = (date: PagedCandidate | undefined): Check => (date && facts.dateOrderGuessed && orderDecidesDate(date.value.text) ? 'ambiguous' : datesCheck);
  set('InvoiceDate', issued, dateCheck(issued));
  set('DueDate', due, dateCheck(due));

  const amounts = chooseAmounts(candidates);
  // What confirms the total alone (the amount paid, the words) says nothing of the subtotal and tax.
  const sumCheck: Check = amounts.consistent ? 'pass' : amounts.subTotal && (amounts.tax || amounts.taxLines) && amounts.total ? 'fail' : 'none';
  const amountCheck: Check = amounts.contradicted ? 'fail' : sumCheck;
  set('SubTotal', amounts.subTotal, amountCheck);
  // A figure the words state too is the total, however weakly its label or place said so.
  const total = amounts.total && amounts.worded ? { ...amounts.total, score: Math.max(amounts.total.score, WORDED_TOTAL) } : amounts.total;
  set('InvoiceTotal', total, amounts.contradicted ? 'fail' : amounts.confirmed ? 'pass' : sumCheck);
  if (amounts.tax) set('TotalTax', amounts.tax, amountCheck);
  else if (amounts.taxLines) {
    const [first] = amounts.taxLines;
    const sum = amounts.taxLines.reduce((total, t) => total + cents(t.contentNormalized), 0);
    set('TotalTax', { ...first!, contentNormalized: (sum / 100).toFixed(2), score: Math.min(...amounts.taxLines.map((t) => t.score)) }, amountCheck);
  }

  // Currencies are a closed list: a misread sign is no currency rather than another one.
  const labelled = ofCategory(candidates, 'Currency')[0] ?? currencyOfTotal(candidates, chosen.get('InvoiceTotal'));
  const read = labelled ?? mostMentioned(candidates);
  const named = read && dollarNamed(candidates, read);
  // A bare "$" is the US dollar only by default (Canada, Australia, Mexico print it too), and a
  // North American telephone number may be Canadian: only a US address settles it. Canadian or
  // Australian addresses and no US one make it their dollar, still unsettled: a seller abroad
  // may bill its local customers in US dollars.
  const byAddress = named && isBareDollar(named) && named.contentNormalized === 'USD' && !facts.usAddress ? facts.addressDollar : undefined;
  const currency = named && byAddress ? { ...named, contentNormalized: byAddress } : named;
  const ambiguous = currency && isBareDollar(currency) && (byAddress !== undefined || (currency.contentNormalized === 'USD' && !facts.usAddress));
  set('Currency', currency, ambiguous ? 'ambiguous' : labelled ? 'pass' : 'none');
  // A total the net and tax come to less a tax the page says is withheld adds up.
  capImpossible(chosen, new Date(), ofCategory(candidates, 'Withheld').map((w) => cents(w.contentNormalized)));
  return chosen;
}

/** The currency printed with the total, as the document's currency. */
function currencyOfTotal(candidates: readonly PagedCandidate[], total: ChosenField | undefined): PagedCandidate | undefined {
  if (!total) return undefined;
  const [span] = total.value.spans;
  if (!span) return undefined;
  const mention = candidates.find(
    (c) => c.category === 'CurrencyMention' && c.page === total.page && c.value.spans[0] && c.value.spans[0].offset >= span.offset - 1 && c.value.spans[0].offset <= span.offset + span.length + 1,
  );
  return mention && { ...mention, score: 0.95, label: 1 };
}

/** Dollars other than the US dollar, which a bare "$" means unless the document names one of these. */
const OTHER_DOLLARS: ReadonlySet<string> = new Set(['CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD', 'MXN']);

/**
 * A currency read from a bare "$" is the dollar the document names elsewhere ("Amount Due (CAD)",
 * "All amounts in AUD"), when it names one other than the US dollar.
 */
function dollarNamed(candidates: readonly PagedCandidate[], currency: PagedCandidate): PagedCandidate {
  if (currency.contentNormalized !== 'USD' || !isBareDollar(currency)) return currency;
  const named = candidates.find((c) => c.category === 'CurrencyMention' && OTHER_DOLLARS.has(c.contentNormalized));
  return named ? { ...currency, value: named.value, contentNormalized: named.contentNormalized } : currency;
}

function isBareDollar(currency: PagedCandidate): boolean {
  return currency.value.text.trim() === '$';
}

/** Without a label or a sign on the total: the currency the document mentions most, less surely. */
function mostMentioned(candidates: readonly PagedCandidate[]): PagedCandidate | undefined {
  const mentions = candidates.filter((c) => c.category === 'CurrencyMention');
  const counts = new Map<string, number>();
  for (const m of mentions) counts.set(m.contentNormalized, (counts.get(m.contentNormalized) ?? 0) + 1);
  const [top, second] = [...counts].sort((a, b) => b[1] - a[1]);
  if (!top) return undefined;
  const mention = mentions.find((m) => m.contentNormalized === top[0])!;
  const share = top[1] / (top[1] + (second?.[1] ?? 0));
  return { ...mention, score: 0.5 + 0.4 * share * Math.min(1, top[1] / 3), label: 0.8 };
}
