/**
 * A VAT table's rows read by their sums: a till receipt or an invoice prints, per tax rate, the
 * net, the tax and the gross ("A 19,0% 2,69 0,51 3,20"), often with a totals row under them
 * ("Gesamtbetrag 4,54 0,64 5,18", "Summe 0,61 8,70 9,31" when the tax column comes first). A row
 * of three amounts and no other figure but rates, two adding up to the third right of them, the
 * smaller at most a VAT rate's share of the larger, is such a row whatever its headers or labels
 * say (OCR misreads them: "Gesantbetrag", "MWST 4°"): the larger is the net, the smaller the tax,
 * the sum the gross. The document's figures are the totals row, the row that is the sum of the
 * rate rows above it or is labelled a total; else, without one, the rate rows added up (a single
 * rate's row is the document's), unless a rate's row beside them was misread.
 */
import type { FieldCandidate } from '../fields/field-candidate.js';
import { subRun } from '../fields/field-values.js';
import { cents, findAmounts, plain } from '../fields/normalize.js';
import type { PageText, TextLine, TextRun } from '../page/text/text-lines.js';

/** The highest VAT rate in use is 27%: a tax above this share of its net is no tax. */
const MAX_RATE = 0.3;
/** Rows of one table lie within this many rows of each other. */
const TABLE_ROWS = 4;

export interface VatRow {
  net: { run: TextRun; value: number };
  tax: { run: TextRun; value: number };
  gross: { run: TextRun; value: number };
  /** Index of the row in the page's rows. */
  row: number;
  lines: readonly TextLine[];
}

interface RowAmount {
  run: TextRun;
  value: number;
  /** Where it is: its line in the row, and its place in the line's text. */
  line: number;
  start: number;
  end: number;
}

/** The figures of a row, left to right, each with its run; undefined when one is no amount in cents (a quantity, a count). */
function rowAmounts(page: PageText, row: readonly TextLine[]): RowAmount[] | undefined {
  const found = row.flatMap((line, l) => findAmounts(line.text).map((a) => ({ a, line, l })));
  if (found.some(({ a }) => !a.decimals)) return undefined;
  return found.flatMap(({ a, line, l }) => {
    const run = subRun(page, line, a.index, a.length);
    return run ? [{ run, value: cents(a.value), line: l, start: a.index, end: a.index + a.length }] : [];
  });
}

/**
 * Only figures, rates and currencies between two amounts of a row: the columns of a table. Words
 * between them make a sentence or a row of labelled totals ("Subtotal 100.00 Shipping 5.00 Total
 * 105.00"), whose parts add up without being net and tax.
 */
function onlyFiguresBetween(row: readonly TextLine[], first: RowAmount, last: RowAmount): boolean {
  let between = '';
  for (let l = first.line; l <= last.line; l++) {
    const text = row[l]!.text;
    between += ` ${text.slice(l === first.line ? first.end : 0, l === last.line ? last.start : text.length)}`;
  }
  return !/\p{L}{2}/u.test(between.replace(/\b[A-Z]{3}\b/g, ''));
}

/**
 * The row as net, tax and gross: its only three figures (rates aside), amounts in cents, two
 * positive ones adding up, to the cent, to the third right of both, the smaller a VAT rate's share
 * of the larger, with only figures between them. A row with more figures is an item's (quantity,
 * price, discount, net, tax, amount): its gross is one line's, and other taxes may follow it.
 */
export function vatRowOf(page: PageText, row: readonly TextLine[], index: number): VatRow | undefined {
  const amounts = rowAmounts(page, row);
  if (amounts?.length !== 3) return undefined;
  const [a, b, gross] = amounts as [RowAmount, RowAmount, RowAmount];
  if (a.value <= 0 || b.value <= 0 || Math.abs(a.value + b.value - gross.value) > 1) return undefined;
  const [net, tax] = a.value >= b.value ? [a, b] : [b, a];
  if (tax.value > MAX_RATE * net.value || !onlyFiguresBetween(row, a, gross)) return undefined;
  return { net, tax, gross, row: index, lines: row };
}

/** Whether `total` is the sum of `parts` in each column, a cent of rounding allowed per part. */
function sumOf(parts: readonly VatRow[], total: VatRow): boolean {
  const column = (pick: (r: VatRow) => number) => Math.abs(parts.reduce((s, r) => s + pick(r), 0) - pick(total)) <= parts.length;
  return parts.length > 0 && column((r) => r.net.value) && column((r) => r.tax.value) && column((r) => r.gross.value);
}

/** The page's VAT tables: runs of such rows close to each other. */
function vatTables(page: PageText): VatRow[][] {
  const tables: VatRow[][] = [];
  page.rows.forEach((row, index) => {
    const vat = vatRowOf(page, row, index);
    if (!vat) return;
    const last = tables.at(-1);
    if (last && index - last.at(-1)!.row <= TABLE_ROWS) last.push(vat);
    else tables.push([vat]);
  });
  return tables;
}

/** A rate and an amount in cents: a rate's row, read or not. */
const RATE_ROW = /\d\s*%.*\d[.,]\d{2}(?!\d)/;
/** How near a rate's row that did not read as one must be to leave its table unsure. */
const NEAR_ROWS = 2;

/**
 * A rate's row next to the table that OCR misread (its sums no longer add up): the table's rows
 * added up are then not the document's figures, a rate is missing.
 */
function missingRateRow(page: PageText, table: readonly VatRow[]): boolean {
  const rows = new Set(table.map((r) => r.row));
  for (let r = table[0]!.row - NEAR_ROWS; r <= table.at(-1)!.row + NEAR_ROWS; r++) {
    const row = page.rows[r];
    if (row && !rows.has(r) && RATE_ROW.test(row.map((l) => l.text).join(' '))) return true;
  }
  return false;
}

/** The label of a totals row, in the languages read ("Summe", "Gesamtbetrag", "Total", "Yhteensä"). */
const TOTALS_LABEL = /^\W*(?:summe|gesamt|total|totaal|totale|somme|suma|soma|sum|yhteensa|celkem|razem|totalt|i\s+alt)/;

/** Scores: a totals row the rate rows add up to is a second statement of each figure; rows added up or a row alone less so. */
const TOTALS_ROW = 0.85;
const ADDED_UP = 0.7;

/**
 * The net, tax and gross of the page's VAT table: its totals row (the rate rows above it add up
 * to it, or its label says so), else its rows added up when no rate's row near them was misread.
 * The gross scores below a labelled total's, which it confirms when they agree (field-choice.ts
 * adds the sums up).
 */
export function vatTableTotals(page: PageText, excluded: ReadonlySet<TextLine>): FieldCandidate[] {
  const found: FieldCandidate[] = [];
  const candidate = (category: FieldCandidate['category'], run: TextRun, value: number, score: number, line: TextLine): FieldCandidate => ({
    category,
    value: run,
    contentNormalized: (value / 100).toFixed(2),
    score,
    label: score,
    labelLine: line,
  });
  for (const table of vatTables(page)) {
    const rows = table.filter((r) => !r.lines.some((l) => excluded.has(l)));
    if (rows.length === 0) continue;
    const summed = rows.findIndex((r, i) => i > 0 && sumOf(rows.slice(0, i), r));
    const total = summed > 0 ? rows[summed] : rows.findLast((r) => TOTALS_LABEL.test(plain(r.lines[0]!.text)));
    if (total) {
      found.push(
        candidate('SubTotal', total.net.run, total.net.value, TOTALS_ROW, total.lines[0]!),
        candidate('TotalTax', total.tax.run, total.tax.value, TOTALS_ROW, total.lines[0]!),
        candidate('InvoiceTotal', total.gross.run, total.gross.value, TOTALS_ROW * 0.8, total.lines[0]!),
      );
      continue;
    }
    if (missingRateRow(page, table)) continue;
    const last = rows.at(-1)!;
    const add = (pick: (r: VatRow) => number) => rows.reduce((s, r) => s + pick(r), 0);
    found.push(
      candidate('SubTotal', last.net.run, add((r) => r.net.value), ADDED_UP, last.lines[0]!),
      candidate('TotalTax', last.tax.run, add((r) => r.tax.value), ADDED_UP, last.lines[0]!),
      candidate('InvoiceTotal', last.gross.run, add((r) => r.gross.value), ADDED_UP * 0.8, last.lines[0]!),
    );
  }
  return found;
}
