/**
 * A totals row read along its cells: the amounts further right than the first ("TOTAL: 106.78
 * 700.00"), the sums under a net and a tax column's headers, and the cells of a row after a line.
 */
import type { FieldCandidate } from '../fields/field-candidate.js';
import { subRun, type ValueReader } from '../fields/field-values.js';
import { TAX_WORD } from '../fields/invoice-labels.js';
import { cents, findAmounts, plain } from '../fields/normalize.js';
import { overlap } from '../page/text/geometry.js';
import { runOfWords, type PageText, type TextLine, type TextRun } from '../page/text/text-lines.js';

/** Each step further right along a totals row makes an amount a little likelier the total. */
const FURTHER_IN_ROW = 1.05;

/**
 * A table's totals row ("TOTAL:  106.78  700.00": the tax column's sum, then the total's; or net,
 * tax and gross): the amounts further right on the row than the first are the total's candidates
 * too, the rightmost first, as the total column ends a table; where a subtotal and a tax add up
 * to one of them, that one is chosen (field-choice.ts).
 */
export function furtherInRow(page: PageText, first: TextRun, candidate: FieldCandidate, labelScore: number, read: ValueReader): FieldCandidate[] {
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
export function totalsRowColumns(page: PageText, first: TextRun, read: ValueReader): FieldCandidate[] {
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

/** The first line of the row after `line` that reads as a value, and that value. */
export function firstInRow(page: PageText, line: TextLine, read: ValueReader): ReturnType<ValueReader> {
  for (const next of rowAfter(page, line)) {
    const value = read(next, page);
    if (value) return value;
  }
  return undefined;
}

/** The line that holds a run. */
export function lineOf(page: PageText, run: TextRun): TextLine | undefined {
  return page.lines.find((l) => l.spans[0] && run.spans[0] && l.spans[0].offset <= run.spans[0].offset && run.spans[0].offset < l.spans[0].offset + l.spans[0].length);
}

/** The lines of a run's row to the right of its line. */
export function rowAfter(page: PageText, run: TextRun): TextLine[] {
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

/** How many rows down a column its sum may stand under its first cell. */
const MAX_COLUMN_ROWS = 8;

/**
 * The sum at the foot of a column of amounts under a label ("Nettobetrag" over a row per tax rate
 * and the totals row), from the column's values (columnValues): the last amount of the column when
 * the amounts above it, two or more, add up to it to the cent. The first cell under a header is one row's; the sum is the document's.
 */
export function columnSum(values: ReadonlyArray<NonNullable<ReturnType<ValueReader>>>): ReturnType<ValueReader> {
  for (let end = values.length - 1; end >= 2; end--) {
    const sum = values.slice(0, end).reduce((total, v) => total + cents(v.contentNormalized), 0);
    if (Math.abs(sum - cents(values[end]!.contentNormalized)) <= end - 1) return values[end];
  }
  return undefined;
}

/**
 * The values of a column of amounts from its first cell down (a gap of one row allowed), as
 * `read` reads them: one for a figure alone under its header, more for a table's rows.
 */
export function columnValues(page: PageText, firstCell: TextRun, read: ValueReader): Array<NonNullable<ReturnType<ValueReader>>> {
  const boxes = firstCell.words.map((w) => w.layoutBox);
  const first = read(firstCell, page);
  if (boxes.length === 0 || !first) return [];
  const left = Math.min(...boxes.map((b) => b.left));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const height = Math.max(...boxes.map((b) => b.height));
  const line = lineOf(page, firstCell);
  if (!line) return [first];
  const values = [first];
  let gaps = 0;
  for (let r = line.row + 1; r < page.rows.length && r <= line.row + MAX_COLUMN_ROWS; r++) {
    const cell = page.rows[r]!.flatMap((l) => l.words.filter((w) => overlap(left - height, right + height, w.layoutBox.left, w.layoutBox.left + w.layoutBox.width) > 0).map(() => l)).at(0);
    const words = cell?.words.filter((w) => overlap(left - height, right + height, w.layoutBox.left, w.layoutBox.left + w.layoutBox.width) > 0) ?? [];
    const value = words.length > 0 ? read(runOfWords(words), page) : undefined;
    if (!value) {
      if (++gaps > 1) break;
      continue;
    }
    values.push(value);
  }
  return values;
}
