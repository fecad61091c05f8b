/**
 * The candidates for each invoice field on one page: every label of the vocabulary with the
 * values its geometry offers (same line, next column, line below), read by the field's form,
 * and the values that need no label (IBANs, dates, currencies: unlabelled-values.ts). The labels
 * and lines that name no field are label-filters.ts's, a totals row's further cells totals-row.ts's,
 * a party's block party-blocks.ts's. Choosing among them, with the cross-checks between fields, is
 * field-choice.ts's work.
 */
import type { CandidateCategory, FieldCandidate } from '../fields/field-candidate.js';
import { readAmount, readCurrency, readDate, readLabelledIban, readIdentifier, readName, readTaxAmount, readTaxId, subRun, type ReadValue, type ValueReader } from '../fields/field-values.js';
import { INVOICE_LABELS, TAX_WORD, type LabelCategory } from '../fields/invoice-labels.js';
import { compileLabels, findLabelHits, lineRightOf, valuesOf, type LabelHit, type ValuePlace } from '../fields/label-hits.js';
import { cents, type DateOptions, findAmounts, plain } from '../fields/normalize.js';
import { BLOCK_LABELS, inOtherPartysBlock, isInBlockOf, orderedValues, wrappedName } from '../fields/party-blocks.js';
import type { LayoutTable } from '../page/text/tables.js';
import type { PageText, TextLine, TextRun } from '../page/text/text-lines.js';
import { type FormLabels, inGridCell, opensLine, underGridLabel } from './grid-cells.js';
import { itemRowLines, namesNoField, TAX_CATEGORIES } from './label-filters.js';
import { columnSum, columnValues, firstInRow, furtherInRow, lineOf, rowAfter, totalsRowColumns } from './totals-row.js';
import { vatTableTotals } from './vat-table.js';
import { amountsInWords, currencyMentions, ibans, loneAmount, paidAmounts, taiwaneseInvoiceNumbers, totalsOfParts, unlabelledDates, unlabelledVatNumbers } from './unlabelled-values.js';

export interface PageReadOptions {
  dates: DateOptions;
  /** Portuguese documents: tax numbers must pass the NIF check digit. */
  portuguese: boolean;
  /** Tables of items: their rows hold no fields ("Total" heads the amount column), except the totals rows that close them. */
  itemTables: readonly LayoutTable[];
}

const COMPILED_LABELS = compileLabels(INVOICE_LABELS);

/** How much the place of a value relative to its label weighs. */
const PLACE_WEIGHT: Readonly<Record<ValuePlace, number>> = { inline: 1, right: 0.95, below: 0.85, nextRowRight: 0.75, afterWords: 0.8 };

type Readers = Readonly<Record<Exclude<LabelCategory, 'Other'>, ValueReader>>;

function readers(options: PageReadOptions): Readers {
  const date = readDate(options.dates);
  return {
    InvoiceId: readIdentifier,
    InvoiceDate: date,
    DueDate: date,
    VendorName: readName,
    PartyName: readName,
    VendorAddress: readName,
    VendorTaxId: readTaxId(options.portuguese),
    CustomerName: readName,
    CustomerTaxId: readTaxId(options.portuguese),
    TaxId: readTaxId(options.portuguese),
    TaxRegistration: readTaxId(options.portuguese),
    SubTotal: readAmount,
    TotalTax: readTaxAmount,
    TaxLine: readTaxAmount,
    Withheld: readAmount,
    InvoiceTotal: readAmount,
    Tendered: readAmount,
    Change: readAmount,
    Rounding: readAmount,
    Currency: readCurrency,
    IBAN: readLabelledIban,
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

/**
 * A tax office's or a register's number (Steuernummer, KvK, IČO) stands for the vendor's tax
 * number only where no VAT id is printed: it scores this share of a VAT id's.
 */
const REGISTRATION_SHARE = 0.5;

/**
 * Words right after a total's label that say which total it is: net ("Rechnungssumme Netto (excl.
 * USt.)", "Summe ohne MwSt.", "Montant HT", "Celkem bez DPH") or gross ("Summe brutto", "Total
 * TTC", "Celkem s DPH"), with the bracketed qualifier that may follow.
 */
const NET_QUALIFIER = /^[\s:(]*(?:netto|net|nett|ht|h\.t\.|hors\s+taxes?|excl\.?|exkl\.?|excluding|exclusive|exclusief|ohne|sans|senza|sin|sem|bez|uden|utan|without|w\/o|before\s+tax(?:es)?)(?![\p{L}\p{N}])(?:\s*\([^)]{0,30}\))?/iu;
const GROSS_QUALIFIER = /^[\s:(]*(?:brutto|bruto|gross|ttc|incl\.?|inkl\.?|including|inclusive|inclusief|avec|con|com|med|s\s+dph|vcetne|vč\.?)(?![\p{L}\p{N}])(?:\s*[^\d\s(]{0,12})?(?:\s*\([^)]{0,30}\))?/iu;

/**
 * The tax's name right after a total's label ("Gesamtbetrag Steuer", "Rechnungsbetrag MwSt.",
 * "Montant TVA"): the sum of the tax, not the total. Not a rate after it ("Total VAT 20%" is still
 * the tax's) nor "incl."/"excl." before or after it ("Total (VAT incl.)" is the gross).
 */
const TAX_QUALIFIER = new RegExp(`^[\\s:(]*(?:${TAX_WORD}|steuer|steuern)(?![\\p{L}\\p{N}])(?![\\s.-]*(?:incl|inkl|inclus|included|inclusive|inbegriffen|compris|ttc|brutto))`, 'iu');

/**
 * A total's label qualified by the words after it: net makes it the subtotal's, the tax's name
 * the total tax's, gross the total's surely, in every language the qualifiers are known in; the
 * label then ends after them, so the amount that follows is read as the label's own.
 */
export function qualifiedTotal(hit: LabelHit): LabelHit {
  const category = hit.definition.category;
  if (category !== 'InvoiceTotal' && category !== 'SubTotal') return hit;
  const rest = hit.line.text.slice(hit.labelEnd);
  const net = category === 'InvoiceTotal' ? NET_QUALIFIER.exec(rest) : null;
  const tax = category === 'InvoiceTotal' && !net ? TAX_QUALIFIER.exec(rest) : null;
  const gross = GROSS_QUALIFIER.exec(rest);
  const qualifier = net ?? tax ?? gross;
  if (!qualifier) return hit;
  const labelEnd = hit.labelEnd + qualifier[0].length;
  const separator = /^[\s:.)=|]*/.exec(hit.line.text.slice(labelEnd))![0].length;
  const definition = net
    ? { ...hit.definition, category: 'SubTotal' as const, orAs: undefined, strength: Math.max(hit.definition.strength, 0.9) }
    : tax
      ? { ...hit.definition, category: 'TotalTax' as const, orAs: undefined, strength: Math.max(hit.definition.strength, 0.9) }
      : { ...hit.definition, category: 'InvoiceTotal' as const, orAs: undefined, strength: Math.max(hit.definition.strength, 0.95) };
  return { ...hit, definition, labelEnd, valueStart: Math.max(hit.valueStart, labelEnd + separator) };
}

/** A rate printed on a tax line: "USt. 7%", "MwSt.-% 19,0" after its amounts' label is not one. */
const LINE_RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,3})?)\s*%/;

/**
 * The tax of a tax line that prints its rate and two amounts, the base and the tax ("Steuerbasisbetrag
 * USt. 7%  275,00  19,25", "VAT 20% 640.00 128.00", "Harmonized Sales Tax on | $62.63 | at | 13.00% |
 * 8.14"): the amount that is the rate of another one, to the cent, whichever order they stand in,
 * the rate on the label's line or in a cell of its row; with the base it was reckoned on. Undefined
 * when no pair agrees with the rate.
 */
export function taxByRate(page: PageText, hit: LabelHit): (ReadValue & { base: ReadValue }) | undefined {
  const line = hit.line;
  const runs = [line, ...rowAfter(page, line)];
  const rated = runs.map((run, k) => ({ run, k, match: LINE_RATE.exec(k === 0 ? run.text.slice(hit.start) : run.text) })).find((r) => r.match);
  if (!rated) return undefined;
  const rateMatch = rated.match!;
  const rate = Number(rateMatch[1]!.replace(',', '.'));
  if (!(rate > 0 && rate < 30)) return undefined;
  const amounts: Array<{ run: TextRun; value: string }> = [];
  for (const [k, run] of runs.entries()) {
    const from = k === 0 ? Math.max(hit.labelEnd, rated.k === 0 ? hit.start + rateMatch.index + rateMatch[0].length : 0) : 0;
    for (const a of findAmounts(run.text.slice(from)).filter((a) => a.decimals)) {
      const sub = subRun(page, run, from + a.index, a.length);
      if (sub) amounts.push({ run: sub, value: a.value });
    }
  }
  for (const tax of amounts) {
    const base = amounts.find((b) => b !== tax && Math.abs(cents(b.value)) > Math.abs(cents(tax.value)) && Math.abs((cents(b.value) * rate) / 100 - cents(tax.value)) <= 1);
    if (base) return { run: tax.run, contentNormalized: tax.value, fit: 1, base: { run: base.run, contentNormalized: base.value, fit: 1 } };
  }
  return undefined;
}

/**
 * The base a tax line states ("VAT 20% on 640.00 128.00") is the net of its rate: where the page
 * states one base only (one rate), a candidate for the net, below a labelled one.
 */
const STATED_BASE = 0.55;

/** What a label of the amount due keeps of its score on a statement that carries a balance forward. */
const CARRIED_BALANCE = 0.8;

/**
 * A name row ("Name:", "Firma", "Nom") opening its line in a party's block names that party: the
 * nearest heading above it in its column ("Verkäufer", "Bill to") tells which; outside any block
 * it names no one.
 */
function partyNameOf(hit: LabelHit, headings: readonly LabelHit[]): LabelHit[] {
  if (hit.start !== 0) return [];
  const above = headings.filter((h) => h.line !== hit.line && h.line.layoutBox.top < hit.line.layoutBox.top && isInBlockOf(h.line, hit.line));
  const heading = above.sort((a, b) => b.line.layoutBox.top - a.line.layoutBox.top)[0];
  return heading ? [{ ...hit, definition: { ...hit.definition, category: heading.definition.category } }] : [];
}

/** Amounts whose label may head a column with its sum at the foot. */
const AMOUNT_COLUMNS: ReadonlySet<LabelCategory> = new Set(['SubTotal', 'TotalTax', 'InvoiceTotal']);

/** A German tax office's number: groups of digits parted by slashes. */
const TAX_OFFICE_NUMBER = /^\d{2,5}\/\d{3,5}(?:\/\d{1,5})?$/;

/** Two amounts or more in cents, and not all the same (a figure below the table, a count, is none of its rows). */
function perRateColumn(values: ReadonlyArray<{ contentNormalized: string }>): boolean {
  return new Set(values.map((v) => v.contentNormalized).filter((v) => /\.\d{2}$/.test(v))).size > 1;
}

/** The columns of a tax table whose rows are one per rate. */
const PER_RATE_COLUMNS: ReadonlySet<LabelCategory> = new Set(['SubTotal', 'TotalTax']);

/** A tax line's label strength for a tax's name alone. */
const TAX_WORD_ALONE = 0.85;

export function findPageCandidates(page: PageText, options: PageReadOptions): PageCandidates {
  const everyHit = findLabelHits(page, COMPILED_LABELS, new Set());
  const excluded = itemRowLines(options.itemTables, everyHit);
  // A weak label in the middle of a line is a word of a sentence ("... 30 days net."), not a label.
  let hits = everyHit.filter((h) => !excluded.has(h.line) && (h.start === 0 || h.definition.strength >= 0.7) && !namesNoField(page, h));
  const read = readers(options);
  const candidates: FieldCandidate[] = [];
  const taxIds: FieldCandidate[] = [];
  // Lines that start with a strong label, or hold nothing but a label, are fields of their own;
  // so is a label's fragment a text layer split off its line ("/ RAZÃO SOCIAL", "/ CPF / NIF"):
  // a text that is itself a label is no value.
  const labelledLines = new Set(hits.filter((h) => opensLine(h) && (h.definition.strength >= 0.7 || h.valueStart >= h.line.text.trimEnd().length)).map((h) => h.line));
  // Lines that hold labels and nothing else: a grid's labels, whose values are in the cells under them.
  const labelOnlyLines = new Set(hits.filter((h) => opensLine(h) && h.valueStart >= h.line.text.trimEnd().length).map((h) => h.line));
  const partyHeadings = hits.filter((h) => BLOCK_LABELS.has(h.definition.category) && h.start === 0 && h.definition.strength >= 0.7);
  // A label's line with a value beside it, not another label: the heads of blocks side by side,
  // which the vocabulary knows, or set in capitals as the label is ("PATIENT | PROVIDER & INSURANCE").
  const headedLines = new Set(everyHit.filter((h) => h.start === 0).map((h) => h.line));
  const formLabels: FormLabels = { labelledLines, labelOnlyLines, headedLines };
  const capitals = (text: string) => /\p{Lu}{2}/u.test(text) && !/\p{Ll}/u.test(text);
  const valueBeside = (line: TextLine) => {
    const right = lineRightOf(page, line);
    if (!right || headedLines.has(right) || (capitals(line.text) && capitals(right.text))) return false;
    // Close beside it: far across the page it is another column's.
    const gap = right.layoutBox.left - (line.layoutBox.left + line.layoutBox.width);
    return gap < FORM_VALUE_GAP * line.layoutBox.height;
  };
  // A heading that names both parties and nothing else ("DESTINATÁRIO / REMETENTE", the other
  // party whichever way the goods go) names neither: no value of either, no block of either.
  const bothParties = new Set(hits.filter((h) => BLOCK_LABELS.has(h.definition.category)).map((h) => h.line).filter((line) => namesBothParties(line, hits)));
  hits = hits.filter((h) => !(BLOCK_LABELS.has(h.definition.category) && bothParties.has(h.line)));
  // A heading alone on its line heads a party's block ("Verkäufer" over its rows).
  const blockHeadings = hits.filter((h) => BLOCK_LABELS.has(h.definition.category) && h.definition.strength >= 0.7 && h.valueStart >= h.line.text.trimEnd().length);
  const nameRows = new Set<LabelHit>();
  hits = hits.flatMap((h) => {
    if (h.definition.category !== 'PartyName') return [h];
    const row = partyNameOf(h, blockHeadings);
    row.forEach((r) => nameRows.add(r));
    return row;
  });
  // A total's label its qualifier runs on ("Netto inkl. MWST", "Summe ohne USt."): the words of
  // the qualifier label nothing of their own (not a tax line at "inkl. MWST").
  const qualifiedEnds = hits.map((h) => ({ line: h.line, start: h.start, end: qualifiedTotal(h).labelEnd }));
  hits = hits.filter((h) => !qualifiedEnds.some((q) => q.line === h.line && q.start < h.start && h.start < q.end));
  const bases: ReadValue[] = [];
  hits.forEach((labelHit, i) => {
    const hit = qualifiedTotal(taxWordBesideAmount(page, labelHit, read) ?? labelHit);
    const category = hit.definition.category;
    if (category === 'Other') return;
    if (category === 'InvoiceTotal') candidates.push(...dueDateAfterTotal(page, hit, read.DueDate));
    // A name row's value is beside it, a form's next row under it; in a grid, the cell under it.
    const values = nameRows.has(labelHit)
      ? valuesOf(page, hit, hits[i - 1], hits[i + 1]).filter((v) => v.place === 'inline' || v.place === 'right' || inGridCell(page, hit, v.run, v.place, formLabels))
      : orderedValues(category, valuesOf(page, hit, hits[i - 1], hits[i + 1]));
    for (const found of values) {
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
      // A label's word that is itself a grid cell's value ("Prestador" under "EMITENTE DA NFS-e")
      // labels nothing beside it: the line to its right is the next cell's value.
      if (place === 'right' && underGridLabel(page, hit.line, labelOnlyLines)) continue;
      // A party's name is in its own block: the line across the page under "Bill to" is the customer's, not the supplier's.
      if (place !== 'inline' && BLOCK_LABELS.has(category) && inOtherPartysBlock(run, hit, partyHeadings)) continue;
      // In a form whose labels have their values beside them ("Client | M. Chevallier" over
      // "Chambre | 214"), the line under a label is the next label.
      if (place === 'below' && BLOCK_LABELS.has(category) && valueBeside(hit.line) && besideSomething(page, run)) continue;
      // A total's row may hold other figures before it ("Total  10 Coil  Rs. 1,00,300.00").
      const byRate = TAX_CATEGORIES.has(category) ? taxByRate(page, hit) : undefined;
      if (byRate) bases.push(byRate.base);
      const readValue = byRate ?? read[category](run, page) ?? (place === 'right' && category === 'InvoiceTotal' ? firstInRow(page, run as TextLine, read[category]) : undefined);
      const nameLine = place === 'inline' ? hit.line : place === 'below' ? lineOf(page, run) : undefined;
      const value = readValue && nameLine && BLOCK_LABELS.has(category) ? (wrappedName(page, nameLine, readValue.run) ?? readValue) : readValue;
      if (!value) continue;
      // Under a column's header, the column's sum at its foot is the document's figure, its first cell one row's.
      // A tax the price contains is one figure under its label (the DANFE's "VALOR DO ICMS"), never a table's column.
      const column = place === 'below' && AMOUNT_COLUMNS.has(category) && !hit.definition.included ? columnValues(page, run, read[category]) : [];
      const sum = columnSum(column);
      // A net or tax column of a tax table with a row per rate and no sum row read: the first
      // row is one rate's ("Netto" over 8,89 and 5,19), not the document's net or tax. One rate's
      // row and the totals row that repeats it ("1056,05" twice) are the document's.
      if (!sum && PER_RATE_COLUMNS.has(category) && perRateColumn(column)) break;
      const taxNumber = category === 'TaxId' || category === 'TaxRegistration';
      const candidate: FieldCandidate = {
        // A name row took its party's category (partyNameOf).
        category: (taxNumber ? 'VendorTaxId' : category) as CandidateCategory,
        value: value.run,
        contentNormalized: value.contentNormalized,
        // A German tax office's number ("339/5264/3049") is no VAT id (DE and nine digits), even
        // where a receipt prints it under "USt-IdNr.": it scores as a registration number.
        score: hit.definition.strength * PLACE_WEIGHT[inGridCell(page, hit, value.run, place, formLabels) ? 'right' : place] * value.fit * (category === 'TaxRegistration' || (taxNumber && TAX_OFFICE_NUMBER.test(value.contentNormalized)) ? REGISTRATION_SHARE : 1),
        label: hit.definition.strength,
        labelLine: hit.line,
        hit,
      };
      (taxNumber ? taxIds : candidates).push(candidate);
      // The sums decide which of its two fields an ambiguous label names.
      if (hit.definition.orAs) candidates.push({ ...candidate, category: hit.definition.orAs as CandidateCategory, score: candidate.score * (hit.definition.orAsShare ?? 1) });
      if (sum) candidates.push({ ...candidate, value: sum.run, contentNormalized: sum.contentNormalized, score: hit.definition.strength * PLACE_WEIGHT.right * sum.fit });
      if (place === 'right' && category === 'InvoiceTotal') candidates.push(...furtherInRow(page, value.run, candidate, hit.definition.strength * PLACE_WEIGHT[place], read[category]));
      if ((place === 'right' || place === 'inline') && category === 'InvoiceTotal') candidates.push(...totalsRowColumns(page, value.run, read.SubTotal));
      break;
    }
  });
  // A balance carried forward that is not zero: what is due is more than this bill's charges, so
  // a label of what is due names the total less surely than one of the charges.
  const carried = hits.some((h) => h.definition.carried && valuesOf(page, h, undefined, undefined).some((v) => cents(read.InvoiceTotal(v.run, page)?.contentNormalized ?? '0') !== 0));
  if (carried) for (const c of candidates) if (c.hit?.definition.due) c.score *= CARRIED_BALANCE;
  const [base, ...otherBases] = bases;
  if (base && otherBases.every((b) => b.contentNormalized === base.contentNormalized)) {
    candidates.push({ category: 'SubTotal', value: base.run, contentNormalized: base.contentNormalized, score: STATED_BASE, label: 0 });
  }
  restoreLostMinus(candidates);
  taxIds.push(...unlabelledVatNumbers(page, excluded, taxIds));
  candidates.push(
    ...paidAmounts(page, excluded, candidates),
    ...totalsOfParts(page, excluded, candidates),
    ...loneAmount(page, excluded, candidates),
    ...vatTableTotals(page, excluded),
    ...unlabelledDates(page, options.dates, excluded, candidates, hits),
    ...ibans(page, excluded),
    ...taiwaneseInvoiceNumbers(page, excluded),
    ...currencyMentions(page),
    ...amountsInWords(page),
  );
  return { candidates, taxIds, hits, excluded };
}

/** Amounts whose sign a refund prints on each of them. */
const SIGNED_CATEGORIES: ReadonlySet<string> = new Set(['InvoiceTotal', 'SubTotal', 'TotalTax', 'TaxLine']);

/**
 * A refund's or a credit's amounts are negative wherever they are printed ("Yhteensä -15,90" in
 * the totals, the tax table and the payments): when most of a field's readings of one amount
 * carry the minus, the reading without it lost it to OCR ("~15,90", a dash read as a speck).
 */
function restoreLostMinus(candidates: FieldCandidate[]): void {
  for (const category of SIGNED_CATEGORIES) {
    const own = candidates.filter((c) => c.category === category && /^-?\d/.test(c.contentNormalized));
    const magnitudes = new Set(own.map((c) => c.contentNormalized.replace(/^-/, '')));
    for (const magnitude of magnitudes) {
      const same = own.filter((c) => c.contentNormalized.replace(/^-/, '') === magnitude && Number(magnitude) !== 0);
      const negative = same.filter((c) => c.contentNormalized.startsWith('-')).length;
      if (negative * 2 <= same.length) continue;
      for (const c of same) if (!c.contentNormalized.startsWith('-')) c.contentNormalized = `-${magnitude}`;
    }
  }
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

/** A line of the labels of both parties and nothing but marks between them: "DESTINATÁRIO / REMETENTE", "Buyer / Seller". */
function namesBothParties(line: TextLine, hits: readonly LabelHit[]): boolean {
  const own = hits.filter((h) => h.line === line);
  const parties = new Set(own.filter((h) => BLOCK_LABELS.has(h.definition.category)).map((h) => h.definition.category));
  if (parties.size < 2) return false;
  let rest = line.text;
  for (const h of [...own].sort((a, b) => b.start - a.start)) rest = rest.slice(0, h.start) + rest.slice(h.labelEnd);
  return !/[\p{L}\p{N}]/u.test(rest);
}

/** A form's value stands within this many line heights right of its label. */
const FORM_VALUE_GAP = 8;

/** Whether the line holding `run` has another line to its right on its row. */
function besideSomething(page: PageText, run: TextRun): boolean {
  const line = lineOf(page, run);
  return line !== undefined && lineRightOf(page, line) !== undefined;
}
