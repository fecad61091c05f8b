/**
 * The candidates for each invoice field on one page: every label of the vocabulary with the
 * values its geometry offers (same line, next column, line below), read by the field's form,
 * and the values that need no label (IBANs, dates, currencies). Choosing among them, with the
 * cross-checks between fields, is field-choice.ts's work.
 */
import { currencyNamed, findAmountInWords } from './amount-in-words.js';
import { overlap } from '../page/text/geometry.js';
import type { InvoiceField } from '../fields/invoice-field-names.js';
import { INVOICE_LABELS, TAX_WORD, type LabelCategory } from '../fields/invoice-labels.js';
import { compileLabels, findLabelHits, lineBelow, lineRightOf, valuesOf, type LabelHit, type ValuePlace, type ValueRun } from '../fields/label-hits.js';
import { hasLegalForm } from '../fields/legal-form.js';
import { plausibleYear, readAmount, readCurrency, readDate, readIban, readIdentifier, readName, readTaxAmount, readTaxId, REPAIRED_IBAN, subRun, type ReadValue, type ValueReader } from '../fields/field-values.js';
import { findIbans, findPrefixedVatNumber } from '../fields/identifiers.js';
import { findAmounts, findCurrencies, findDates, plain, type DateOptions } from '../fields/normalize.js';
import type { LayoutTable } from '../page/text/tables.js';
import { joinRuns, type PageText, type TextLine, type TextRun } from '../page/text/text-lines.js';

/** Fields, and the amounts that check them: tax lines to add up, cash tendered and change, rounding. */
export type CandidateCategory = InvoiceField | 'TaxLine' | 'Tendered' | 'Change' | 'Rounding' | 'CurrencyMention' | 'AmountInWords';

export interface FieldCandidate {
  category: CandidateCategory;
  value: TextRun;
  contentNormalized: string;
  /** 0..1: how surely this is the field: label strength × place × form. */
  score: number;
  /** Strength of the label that announced it; 0 for values found without one. */
  label: number;
  labelLine?: TextLine;
  hit?: LabelHit;
}

export interface PageReadOptions {
  dates: DateOptions;
  /** Portuguese documents: tax numbers must pass the NIF check digit. */
  portuguese: boolean;
  /** Tables of items: their rows hold no fields ("Total" heads the amount column), except the totals rows that close them. */
  itemTables: readonly LayoutTable[];
}

/** Labels that close an item table with its totals ("Subtotal 100.00" under the last item). */
const TOTALS_CATEGORIES: ReadonlySet<LabelCategory> = new Set(['SubTotal', 'TotalTax', 'TaxLine', 'InvoiceTotal', 'Tendered', 'Change', 'Rounding', 'Currency']);

/**
 * The lines of the item rows of the tables, without the totals rows that close them: rows whose
 * first line starts with a totals label ("Subtotal"), not a header row with a "Total" column.
 */
function itemRowLines(tables: readonly LayoutTable[], hits: readonly LabelHit[]): Set<TextLine> {
  const totalsLines = new Set(hits.filter((h) => TOTALS_CATEGORIES.has(h.definition.category) && h.start === 0).map((h) => h.line));
  const excluded = new Set<TextLine>();
  for (const table of tables) {
    const byRow = new Map<number, TextLine[]>();
    for (const line of table.lines) byRow.set(line.row, [...(byRow.get(line.row) ?? []), line]);
    const headerRow = Math.min(...byRow.keys());
    for (const [row, lines] of byRow) {
      const first = lines.reduce((a, b) => (b.layoutBox.left < a.layoutBox.left ? b : a));
      if (row !== headerRow && totalsLines.has(first)) continue;
      for (const line of lines) excluded.add(line);
    }
  }
  return excluded;
}

const COMPILED_LABELS = compileLabels(INVOICE_LABELS);

/** How much the place of a value relative to its label weighs. */
const PLACE_WEIGHT: Readonly<Record<ValuePlace, number>> = { inline: 1, right: 0.95, below: 0.85, nextRowRight: 0.75, afterWords: 0.8 };

/** Without a label, a date is the invoice's only weakly (the document may print several). */
const UNLABELLED_DATE = 0.3;
/** ...unless it follows the invoice number on its line: "Facture n°2024-118 du 3 mars 2024". */
const DATE_AFTER_NUMBER = 0.85;
/** ...or a letter dates itself with its town, alone on a line: "München, 05.03.2024", "Lyon, le 12 mars 2024". */
const PLACE_AND_DATE = 0.75;
const TOWN_BEFORE_DATE = /^\s*\p{Lu}[\p{L}\s.'’-]{1,30},\s*(?:den|le|il|el|am|on|the)?\s*$/u;

type Readers = Readonly<Record<Exclude<LabelCategory, 'Other'>, ValueReader>>;

function readers(options: PageReadOptions): Readers {
  const date = readDate(options.dates);
  return {
    InvoiceId: readIdentifier,
    InvoiceDate: date,
    DueDate: date,
    VendorName: readName,
    VendorAddress: readName,
    VendorTaxId: readTaxId(options.portuguese),
    CustomerName: readName,
    CustomerTaxId: readTaxId(options.portuguese),
    TaxId: readTaxId(options.portuguese),
    SubTotal: readAmount,
    TotalTax: readTaxAmount,
    TaxLine: readTaxAmount,
    InvoiceTotal: readAmount,
    Tendered: readAmount,
    Change: readAmount,
    Rounding: readAmount,
    Currency: readCurrency,
    IBAN: readIban,
  };
}

export interface PageCandidates {
  candidates: FieldCandidate[];
  /** Tax numbers whose owner (vendor or customer) their place decides, once the parties are known. */
  taxIds: FieldCandidate[];
  hits: LabelHit[];
  /** The item rows' lines, which hold no fields. */
  excluded: ReadonlySet<TextLine>;
}

/** A party's label heads a block: its name is under it, and a line far to its right is another block. */
const BLOCK_LABELS: ReadonlySet<LabelCategory> = new Set(['CustomerName', 'VendorName']);

/** OCR's confidence below which a word is a smudge read as letters ("sartiodh Mlactdicalc" for a name on a low-resolution scan). */
export const SMUDGE_CONFIDENCE = 0.3;

/**
 * Whether the run's text still holds a word of letters OCR read with next to no confidence (marks
 * without letters, a stray "%", do not count; nor a word a second reading replaced).
 */
export function hasSmudgedWord(run: TextRun): boolean {
  return run.words.some((w) => w.confidence < SMUDGE_CONFIDENCE && /\p{L}{2}/u.test(w.text) && run.text.includes(w.text));
}

/**
 * A party's name after or under its label that a narrow column wrapped ("Sold By: Retailnet" over
 * "Commerce Private Limited,", "Caseificio Sociale Santa Rita Soc. Agr." over "Coop."): the name
 * goes on on the line under it when that line ends the name with a legal form and holds nothing
 * else (no number, no address).
 */
function wrappedName(page: PageText, line: TextLine, name: TextRun): ReadValue | undefined {
  const legal = (runs: readonly TextRun[]) => hasLegalForm(plain(runs.map((r) => r.text).join(' ')).replace(/[,.;]+\s*$/, ''));
  if (legal([name])) return undefined;
  const parts: TextRun[] = [name];
  // Up to two more lines, each right under the last, short, with no number.
  for (let last = line, n = 0; n < 2; n++) {
    const below = lineBelow(page, last);
    // Right under it: the next row, or close below where a neighbouring column's rows come between.
    const close = below && (below.row === last.row + 1 || below.layoutBox.top - (last.layoutBox.top + last.layoutBox.height) < 0.5 * last.layoutBox.height);
    if (!below || !close || /\d/.test(below.text) || below.text.trim().split(/\s+/).length > 4) return undefined;
    parts.push(below);
    if (legal(parts)) {
      const run = joinRuns(parts);
      return { run, contentNormalized: run.text.replace(/\s+/g, ' ').replace(/[,;]\s*$/, '').trim(), fit: 0.9 };
    }
    last = below;
  }
  return undefined;
}

/** Whether a value run (a line) lies in the block of the other party's label and not in its own label's. */
function inOtherPartysBlock(run: TextRun, hit: LabelHit, headings: readonly LabelHit[]): boolean {
  if (!('layoutBox' in run)) return false;
  const line = run as TextLine;
  if (isInBlockOf(hit.line, line)) return false;
  return headings.some((h) => h.definition.category !== hit.definition.category && isInBlockOf(h.line, line));
}

/** A tax's name alone ("Btw", "VAT", "MwSt."): the label of its number or of its amount. */
const BARE_TAX_WORD = new RegExp(`^${TAX_WORD}$`, 'i');

/**
 * A tax's name alone on its line labels the amount in the cell to its right ("Btw | 339,39 EUR"),
 * as a tax line, when that cell holds an amount and no tax number; else the hit as it was found.
 */
function taxWordBesideAmount(page: PageText, hit: LabelHit, read: Readers): LabelHit | undefined {
  if (hit.definition.category !== 'TaxId' || hit.start !== 0 || hit.valueStart < hit.line.text.trimEnd().length) return undefined;
  if (!BARE_TAX_WORD.test(plain(hit.line.text.slice(hit.start, hit.labelEnd)).trim())) return undefined;
  const right = lineRightOf(page, hit.line);
  if (!right || read.TaxId(right, page) || !read.TaxLine(right, page)) return undefined;
  return { ...hit, definition: { ...hit.definition, category: 'TaxLine', strength: TAX_WORD_ALONE } };
}

/** A tax line's label strength for a tax's name alone. */
const TAX_WORD_ALONE = 0.85;

/** Labels of a tax amount: the total tax, or one tax line of several. */
const TAX_CATEGORIES: ReadonlySet<LabelCategory> = new Set(['TotalTax', 'TaxLine']);

function orderedValues(category: LabelCategory, values: ValueRun[]): ValueRun[] {
  if (!BLOCK_LABELS.has(category)) return values;
  return [...values.filter((v) => v.place === 'inline' || v.place === 'below'), ...values.filter((v) => v.place !== 'inline' && v.place !== 'below')];
}

export function findPageCandidates(page: PageText, options: PageReadOptions): PageCandidates {
  const everyHit = findLabelHits(page, COMPILED_LABELS, new Set());
  const excluded = itemRowLines(options.itemTables, everyHit);
  // A weak label in the middle of a line is a word of a sentence ("... 30 days net."), not a label.
  // A tax word that qualifies an amount's label ("Subtotaal (excl. btw)", "Zwischensumme (ohne
  // USt.)") labels no tax number, nor a tax.
  const qualifier = (h: LabelHit) => (h.definition.category === 'TaxId' || TAX_CATEGORIES.has(h.definition.category)) && h.start > 0 && TAX_QUALIFIER.test(h.line.text.slice(0, h.start));
  // A number named in brackets inside a line refers to another paper ("... reports (Ticket #NFR-2241)").
  const aside = (h: LabelHit) => h.definition.category === 'InvoiceId' && h.start > 0 && /\(\s*$/.test(h.line.text.slice(0, h.start));
  // A tax's name inside a sentence ("Order and review UCC, tax lien and judgment searches 0.9"),
  // words following it that name no base ("on", "auf"): no tax line.
  const inSentence = (h: LabelHit) =>
    h.definition.category === 'TaxLine' && h.start > 0 && /^\s*\p{Ll}{2,}/u.test(h.line.text.slice(h.valueStart)) && !/^\s*(?:on|auf|sur|su|sobre|over|of)\b/i.test(h.line.text.slice(h.valueStart));
  // A party's word beside, under or over an IBAN names the account's holder, the payee ("IBAN
  // IT70... / Intestatario: Ferretti S.r.l.").
  const accountHolder = (h: LabelHit) => h.definition.category === 'CustomerName' && besideAnIban(page, h.line);
  const hits = everyHit.filter((h) => !excluded.has(h.line) && (h.start === 0 || h.definition.strength >= 0.7) && !qualifier(h) && !aside(h) && !accountHolder(h) && !inSentence(h));
  const read = readers(options);
  const candidates: FieldCandidate[] = [];
  const taxIds: FieldCandidate[] = [];
  // Lines that start with a strong label, or hold nothing but a label, are fields of their own.
  const labelledLines = new Set(hits.filter((h) => h.start === 0 && (h.definition.strength >= 0.7 || h.valueStart >= h.line.text.trimEnd().length)).map((h) => h.line));
  const partyHeadings = hits.filter((h) => BLOCK_LABELS.has(h.definition.category) && h.start === 0 && h.definition.strength >= 0.7);
  // A label's line with a value beside it, not another label: the heads of blocks side by side,
  // which the vocabulary knows, or set in capitals as the label is ("PATIENT | PROVIDER & INSURANCE").
  const headedLines = new Set(everyHit.filter((h) => h.start === 0).map((h) => h.line));
  const capitals = (text: string) => /\p{Lu}{2}/u.test(text) && !/\p{Ll}/u.test(text);
  const valueBeside = (line: TextLine) => {
    const right = lineRightOf(page, line);
    if (!right || headedLines.has(right) || (capitals(line.text) && capitals(right.text))) return false;
    // Close beside it: far across the page it is another column's.
    const gap = right.layoutBox.left - (line.layoutBox.left + line.layoutBox.width);
    return gap < FORM_VALUE_GAP * line.layoutBox.height;
  };
  hits.forEach((labelHit, i) => {
    const hit = taxWordBesideAmount(page, labelHit, read) ?? labelHit;
    const category = hit.definition.category;
    if (category === 'Other') return;
    if (category === 'InvoiceTotal') candidates.push(...dueDateAfterTotal(page, hit, read.DueDate));
    for (const found of orderedValues(category, valuesOf(page, hit, hits[i - 1], hits[i + 1]))) {
      let { run, place } = found;
      // A tax line may print its rate and base after the label and the tax in the next cell
      // ("inkl. MWST 8.1% auf 105.60 | 7.92"), or its rate or base alone in a cell of its own
      // ("SGST | 9 % | 900.00", "MwSt 19% | auf 2.401,10 | 456,21"): the base or rate is no tax,
      // the cell to the right holds it.
      if ((place === 'inline' || place === 'right') && TAX_CATEGORIES.has(category) && !read[category](run, page)) {
        const nextCell = lineRightOf(page, place === 'right' ? (run as TextLine) : hit.line);
        if (nextCell) [run, place] = [nextCell, 'right'];
      }
      // A line that starts with a label of its own is another field, not this one's value.
      if (place !== 'inline' && labelledLines.has(run as TextLine)) continue;
      // A party's name is in its own block: the line across the page under "Bill to" is the customer's, not the supplier's.
      if (place !== 'inline' && BLOCK_LABELS.has(category) && inOtherPartysBlock(run, hit, partyHeadings)) continue;
      // In a form whose labels have their values beside them ("Client | M. Chevallier" over
      // "Chambre | 214"), the line under a label is the next label.
      if (place === 'below' && BLOCK_LABELS.has(category) && valueBeside(hit.line) && besideSomething(page, run)) continue;
      // A total's row may hold other figures before it ("Total  10 Coil  Rs. 1,00,300.00").
      const readValue = read[category](run, page) ?? (place === 'right' && category === 'InvoiceTotal' ? firstInRow(page, run as TextLine, read[category]) : undefined);
      const nameLine = place === 'inline' ? hit.line : place === 'below' ? lineOf(page, run) : undefined;
      const value = readValue && nameLine && BLOCK_LABELS.has(category) ? (wrappedName(page, nameLine, readValue.run) ?? readValue) : readValue;
      if (!value) continue;
      const candidate: FieldCandidate = {
        category: category === 'TaxId' ? 'VendorTaxId' : category,
        value: value.run,
        contentNormalized: value.contentNormalized,
        score: hit.definition.strength * PLACE_WEIGHT[place] * value.fit,
        label: hit.definition.strength,
        labelLine: hit.line,
        hit,
      };
      (category === 'TaxId' ? taxIds : candidates).push(candidate);
      // The sums decide which of its two fields an ambiguous label names.
      if (hit.definition.orAs) candidates.push({ ...candidate, category: hit.definition.orAs as CandidateCategory, score: candidate.score * (hit.definition.orAsShare ?? 1) });
      if (place === 'right' && category === 'InvoiceTotal') candidates.push(...furtherInRow(page, value.run, candidate, hit.definition.strength * PLACE_WEIGHT[place], read[category]));
      if ((place === 'right' || place === 'inline') && category === 'InvoiceTotal') candidates.push(...totalsRowColumns(page, value.run, read.SubTotal));
      break;
    }
  });
  taxIds.push(...unlabelledVatNumbers(page, excluded, taxIds));
  candidates.push(
    ...paidAmounts(page, excluded, candidates),
    ...unlabelledDates(page, options.dates, excluded, candidates),
    ...ibans(page, excluded),
    ...currencyMentions(page),
    ...amountsInWords(page),
  );
  return { candidates, taxIds, hits, excluded };
}

/**
 * The date an amount due is due on, inside its label: "TOTAL AMOUNT DUE ON April 1, 2024  $54.23".
 * The total's label took the word "due"; the date after "on" or "by" is the due date.
 */
function dueDateAfterTotal(page: PageText, hit: LabelHit, readDueDate: ValueReader): FieldCandidate[] {
  const rest = hit.line.text.slice(hit.labelEnd);
  const lead = /^\s*(?:on|by|before)\s+/i.exec(rest);
  if (!/due\W*$/i.test(hit.line.text.slice(hit.start, hit.labelEnd)) || !lead) return [];
  const start = hit.labelEnd + lead[0].length;
  const run = subRun(page, hit.line, start, hit.line.text.length - start);
  const value = run && readDueDate(run, page);
  return value ? [{ category: 'DueDate', value: value.run, contentNormalized: value.contentNormalized, score: 0.85 * value.fit, label: 0.85, labelLine: hit.line, hit }] : [];
}

/** Words before a tax word that make it part of an amount's label: "(excl.", "incl.", "hors", "ohne". */
const TAX_QUALIFIER = /(?:\(|\b(?:excl|incl|exkl|inkl|excluding|including|exclusive|inclusive|ex|inc|exclusief|inclusief|zzgl|ohne|hors|sans|avec|plus|with|without|sem|com|sin|con)\.?)\s*(?:of\s+)?$/i;

/** Each step further right along a totals row makes an amount a little likelier the total. */
const FURTHER_IN_ROW = 1.05;

/**
 * A table's totals row ("TOTAL:  106.78  700.00": the tax column's sum, then the total's; or net,
 * tax and gross): the amounts further right on the row than the first are the total's candidates
 * too, the rightmost first, as the total column ends a table; where a subtotal and a tax add up
 * to one of them, that one is chosen (field-choice.ts).
 */
function furtherInRow(page: PageText, first: TextRun, candidate: FieldCandidate, labelScore: number, read: ValueReader): FieldCandidate[] {
  const found: FieldCandidate[] = [];
  let score = labelScore;
  // Cells the text layer or OCR joined into the value's line ("₹198.15 ₹1,299.00") first, then the row's further lines.
  for (const run of [...laterInLine(page, first), ...rowAfter(page, first)]) {
    const value = read(run, page);
    score *= FURTHER_IN_ROW;
    if (value) found.push({ ...candidate, value: value.run, contentNormalized: value.contentNormalized, score: score * value.fit });
  }
  return found;
}

/** Words of a column's header: the tax's column ("Tax Amount", "IGST", "Total Tax Amount"), the net amount's ("Taxable Value", "Net Amount"). */
const TAX_COLUMN = new RegExp(`(?<![\\p{L}\\p{N}])${TAX_WORD}(?![\\p{L}\\p{N}])`, 'iu');
const NET_COLUMN = /\b(?:taxable|net|nett|netto|subtotal|excl|exkl|ht)\b/i;
/** How far up a column its header may be, in the cell's heights (over a table's rows). */
const MAX_HEADER_HEIGHTS = 60;

/**
 * The sums of a table's totals row read by their columns' headers ("Total | 2,23,965.00 |
 * 40,313.70" under "Taxable Value" and "Total Tax Amount"; "TOTAL: ₹290.79 ₹3,214.00" under "Tax
 * Amount" and "Total"): the net column's sum is a subtotal, the tax column's the tax. Which of
 * them the document means, the sums decide (field-choice.ts).
 */
function totalsRowColumns(page: PageText, first: TextRun, read: ValueReader): FieldCandidate[] {
  const found: FieldCandidate[] = [];
  for (const run of [first, ...laterInLine(page, first), ...rowAfter(page, first)]) {
    const value = read(run, page);
    const header = value && columnHeader(page, value.run);
    if (!value || !header) continue;
    const category = NET_COLUMN.test(plain(header.text)) ? 'SubTotal' : TAX_COLUMN.test(plain(header.text)) ? 'TotalTax' : undefined;
    if (category) found.push({ category, value: value.run, contentNormalized: value.contentNormalized, score: COLUMN_SUM * value.fit, label: COLUMN_SUM, labelLine: header.lines[0]! });
  }
  return found;
}

/** A column sum's score: below a labelled subtotal's or tax's. */
const COLUMN_SUM = 0.75;

/**
 * The header over a cell: the nearest lines above it that overlap it across and hold words but no
 * figures (the rows between hold figures), two when the header is set on two lines.
 */
function columnHeader(page: PageText, cell: TextRun): { text: string; lines: TextLine[] } | undefined {
  const boxes = cell.words.map((w) => w.layoutBox);
  if (boxes.length === 0) return undefined;
  const left = Math.min(...boxes.map((b) => b.left));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const top = Math.min(...boxes.map((b) => b.top));
  const height = Math.max(...boxes.map((b) => b.height));
  const above = page.lines
    .filter((l) => l.layoutBox.top + l.layoutBox.height <= top + 0.2 * height && top - l.layoutBox.top < MAX_HEADER_HEIGHTS * height && overlap(left, right, l.layoutBox.left, l.layoutBox.left + l.layoutBox.width) > 0)
    .sort((a, b) => b.layoutBox.top - a.layoutBox.top);
  const headerAt = above.findIndex((l) => !/\d/.test(l.text) && /\p{L}{2}/u.test(l.text));
  if (headerAt < 0) return undefined;
  const lower = above[headerAt]!;
  const upper = above[headerAt + 1];
  // A header set on two lines ("Tax" / "Amount"): the line right above it, in words too.
  const twoLines = upper && !/\d/.test(upper.text) && lower.layoutBox.top - (upper.layoutBox.top + upper.layoutBox.height) < 0.8 * lower.layoutBox.height;
  return twoLines ? { text: `${upper.text} ${lower.text}`, lines: [upper, lower] } : { text: lower.text, lines: [lower] };
}

/** Whether a line, or a line right above or below it in its column, holds an IBAN. */
function besideAnIban(page: PageText, line: TextLine): boolean {
  const { left, top, width, height } = line.layoutBox;
  const bottom = top + height;
  const touching = (l: TextLine) => (l.layoutBox.top < top ? top - (l.layoutBox.top + l.layoutBox.height) : l.layoutBox.top - bottom) < height;
  const neighbours = page.lines.filter((l) => l !== line && touching(l) && overlap(left, left + width, l.layoutBox.left, l.layoutBox.left + l.layoutBox.width) > 0);
  return [line, ...neighbours].some((l) => findIbans(l.text.toUpperCase()).length > 0);
}

/** A form's value stands within this many line heights right of its label. */
const FORM_VALUE_GAP = 8;

/** Whether the line holding `run` has another line to its right on its row. */
function besideSomething(page: PageText, run: TextRun): boolean {
  const line = lineOf(page, run);
  return line !== undefined && lineRightOf(page, line) !== undefined;
}

/** The first line of the row after `line` that reads as a value, and that value. */
function firstInRow(page: PageText, line: TextLine, read: ValueReader): ReturnType<ValueReader> {
  for (const next of rowAfter(page, line)) {
    const value = read(next, page);
    if (value) return value;
  }
  return undefined;
}

/** The line that holds a run. */
function lineOf(page: PageText, run: TextRun): TextLine | undefined {
  return page.lines.find((l) => l.spans[0] && run.spans[0] && l.spans[0].offset <= run.spans[0].offset && run.spans[0].offset < l.spans[0].offset + l.spans[0].length);
}

/** The lines of a run's row to the right of its line. */
function rowAfter(page: PageText, run: TextRun): TextLine[] {
  const line = lineOf(page, run);
  const row = line ? (page.rows[line.row] ?? []) : [];
  return line ? row.slice(row.indexOf(line) + 1) : [];
}

/** The amounts of a run's line after the run, each as a run of its own. */
function laterInLine(page: PageText, run: TextRun): TextRun[] {
  const line = lineOf(page, run);
  const [span] = run.spans;
  if (!line || !span) return [];
  const from = span.offset + span.length - line.spans[0]!.offset;
  return findAmounts(line.text.slice(from))
    .filter((a) => a.decimals)
    .flatMap((a) => {
      const start = a.currency ? Math.min(a.currency.index, a.index) : a.index;
      const end = a.currency ? Math.max(a.currency.index + a.currency.length, a.index + a.length) : a.index + a.length;
      return subRun(page, line, from + start, end - start) ?? [];
    });
}

/** Payment lines surely read (an amount with its decimals, after a clear label) check the total. */
export const SURE_PAYMENT = 0.5;
/** An amount that is the cash tendered less the change is what was paid: a total whatever its label. */
const PAID_AMOUNT = 0.7;

/** Amounts equal to a tendered amount less a change amount of the page: the total, however OCR spoiled its label. */
function paidAmounts(page: PageText, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  // Tills print the cash tendered as a payment ("Cash -50.00"): its size counts.
  const cents = (value: string) => Math.abs(Math.round(Number(value) * 100));
  const tendered = labelled.filter((c) => c.category === 'Tendered' && c.score >= SURE_PAYMENT);
  const change = labelled.filter((c) => c.category === 'Change' && c.score >= SURE_PAYMENT);
  const paid = new Set(tendered.flatMap((t) => change.map((c) => cents(t.contentNormalized) - cents(c.contentNormalized))).filter((v) => v > 0));
  if (paid.size === 0) return [];
  const taken = new Set([...tendered, ...change].map((c) => c.value.spans[0]?.offset));
  const found: FieldCandidate[] = [];
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    for (const amount of findAmounts(line.text)) {
      if (!amount.decimals || !paid.has(cents(amount.value))) continue;
      const run = subRun(page, line, amount.index, amount.length);
      if (!run || taken.has(run.spans[0]?.offset)) continue;
      found.push({ category: 'InvoiceTotal', value: run, contentNormalized: amount.value, score: PAID_AMOUNT, label: 0, labelLine: line });
    }
  }
  return found;
}

/** Dates no label names: weak invoice date candidates, strong right after the invoice number. */
function unlabelledDates(page: PageText, dates: DateOptions, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  const taken = new Set(labelled.filter((c) => c.category === 'InvoiceDate' || c.category === 'DueDate').map((c) => c.value.spans[0]?.offset));
  const found: FieldCandidate[] = [];
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    const idOnLine = labelled.find((c) => c.category === 'InvoiceId' && c.labelLine === line);
    for (const date of findDates(line.text, dates).filter((d) => plausibleYear(d.iso))) {
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

/** IBANs anywhere on the page: their check digits make them certain without a label. */
function ibans(page: PageText, excluded: ReadonlySet<TextLine>): FieldCandidate[] {
  return page.lines.flatMap((line, index) => {
    if (excluded.has(line)) return [];
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
function currencyMentions(page: PageText): FieldCandidate[] {
  // A yen sign on a page of Indian taxes is OCR's reading of the rupee sign (₹ and ¥ look alike).
  const indian = INDIAN_TAX.test(page.text);
  return page.lines.flatMap((line) => {
    const found = findCurrencies(line.text).map((c) => (indian && c.code === 'JPY' && c.length === 1 ? { ...c, code: 'INR' } : c));
    const gstin = GSTIN.exec(line.text);
    if (gstin) found.push({ code: 'INR', index: gstin.index, length: gstin[0].length });
    return found.flatMap((c) => {
      const run = subRun(page, line, c.index, c.length);
      return run ? [{ category: 'CurrencyMention' as const, value: run, contentNormalized: c.code, score: 0.5, label: 0, labelLine: line }] : [];
    });
  });
}

/** An unlabelled VAT number's score: below a labelled one's, above a French SIRET's (0.7), which stands in for a VAT number only where none is printed. */
const UNLABELLED_VAT = 0.75;

/**
 * VAT numbers whose shape alone names them ("CHE-417.829.569 MWST", the label after the number; a
 * bare "ATU12345678" in a letterhead), where no label found them: less sure than a labelled one.
 */
function unlabelledVatNumbers(page: PageText, excluded: ReadonlySet<TextLine>, labelled: readonly FieldCandidate[]): FieldCandidate[] {
  const known = new Set(labelled.map((t) => t.contentNormalized));
  return page.lines.flatMap((line) => {
    if (excluded.has(line)) return [];
    const vat = findPrefixedVatNumber(line.text);
    const run = vat && !known.has(vat.normalized) ? subRun(page, line, vat.index, vat.length) : undefined;
    return run ? [{ category: 'VendorTaxId' as const, value: run, contentNormalized: vat!.normalized, score: UNLABELLED_VAT, label: UNLABELLED_VAT, labelLine: line }] : [];
  });
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
function amountsInWords(page: PageText): FieldCandidate[] {
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

/** How far below a party's label (in its line heights) its block reaches: about five lines. */
const BLOCK_LINE_HEIGHTS = 7.5;

/** True when `line` lies in the block headed by `heading`: below it (or on it), in its column. */
export function isInBlockOf(heading: TextLine, line: TextLine): boolean {
  if (heading === line) return true;
  const a = heading.layoutBox;
  const b = line.layoutBox;
  const below = b.top - (a.top + a.height);
  return below >= -0.5 * a.height && below <= BLOCK_LINE_HEIGHTS * a.height && overlap(a.left, a.left + Math.max(a.width, 6 * a.height), b.left, b.left + b.width) > 0;
}
