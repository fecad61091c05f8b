/**
 * Forms that set each value in a cell under a small label (Brazilian DANFE and NFS-e prints, ERP
 * header boxes, "NÚMERO DA NFS-e" over "999"): which value under a label is its grid cell's, and
 * which label word is itself a cell's value. The candidates are invoice-fields.ts's.
 */
import { lineRightOf, type LabelHit, type ValuePlace } from '../fields/label-hits.js';
import { overlap } from '../page/text/geometry.js';
import type { PageText, TextLine, TextRun } from '../page/text/text-lines.js';
import { lineOf } from './totals-row.js';

/** The lines a form's labels open, and those that hold nothing but labels. */
export interface FormLabels {
  labelledLines: ReadonlySet<TextLine>;
  labelOnlyLines: ReadonlySet<TextLine>;
  /** Lines that open with any label of the vocabulary, a weak one too ("NÚMERO DA DPS"). */
  headedLines: ReadonlySet<TextLine>;
}

/** Whether a label opens its line: nothing but marks before it ("/ RAZÃO SOCIAL" is a label's fragment too). */
export function opensLine(hit: LabelHit): boolean {
  return !/[\p{L}\p{N}]/u.test(hit.line.text.slice(0, hit.start));
}

/**
 * A value in a form's grid cell under its label ("NÚMERO DA NFS-e" over "999", "DATA DA EMISSÃO"
 * over a date, "Invoice number" over its number in an ERP's header box): the term's own label
 * holds its cell's line alone, nothing stands to its right but the next cell's label or nothing,
 * the value is on the very next row, under the label, and no other value under it (a table's
 * column). There the line below is the label's value as surely as the line to the right of a
 * label is where values stand beside their labels.
 */
export function inGridCell(page: PageText, hit: LabelHit, value: TextRun, place: ValuePlace, { labelOnlyLines, labelledLines, headedLines }: FormLabels): boolean {
  if (place !== 'below' || hit.definition.strength < GRID_LABEL || !opensLine(hit) || hit.valueStart < hit.line.text.trimEnd().length) return false;
  const beside = lineRightOf(page, hit.line);
  if (beside && !labelOnlyLines.has(beside)) return false;
  const line = lineOf(page, value);
  if (!line || line.row !== hit.line.row + 1) return false;
  const label = hit.line.layoutBox;
  const cell = value.words.map((w) => w.layoutBox);
  const left = Math.min(...cell.map((b) => b.left));
  const right = Math.max(...cell.map((b) => b.left + b.width));
  if (overlap(label.left, label.left + label.width, left, right) <= 0) return false;
  // A column of values under the label is a table's (its first row one item's or one rate's), not a
  // grid's cell: under a cell comes the next row's label, or nothing.
  const under = (page.rows[line.row + 1] ?? []).find((l) => overlap(l.layoutBox.left, l.layoutBox.left + l.layoutBox.width, left, right) > 0);
  return !under || under.layoutBox.top - (line.layoutBox.top + line.layoutBox.height) > 2 * line.layoutBox.height || labelledLines.has(under) || headedLines.has(under);
}

/** Whether `line` is the value in a grid cell: right under a label of a row of labels, with nothing but labels to its right. */
export function underGridLabel(page: PageText, line: TextLine, labelOnlyLines: ReadonlySet<TextLine>): boolean {
  const box = line.layoutBox;
  const over = (other: TextLine) => overlap(other.layoutBox.left, other.layoutBox.left + other.layoutBox.width, box.left, box.left + box.width) > 0;
  // The nearest line above in its column (rows of other columns between do not count), if it is just above.
  let above: TextLine | undefined;
  for (let r = line.row - 1; r >= Math.max(0, line.row - MAX_ROWS_TO_GRID_LABEL) && !above; r--) above = page.rows[r]!.find(over);
  if (!above || !labelOnlyLines.has(above) || box.top - (above.layoutBox.top + above.layoutBox.height) > box.height) return false;
  // A grid's row of labels: two cells or more, and labels only to the right of the one above.
  const labels = (page.rows[above.row] ?? []).filter((l) => labelOnlyLines.has(l));
  const beside = lineRightOf(page, above);
  return labels.length >= 2 && (!beside || labelOnlyLines.has(beside));
}

/**
 * A grid's labels are the terms' own ("NÚMERO DA NFS-e", "Invoice number", "Nome Empresarial");
 * a generic word over a cell ("Importe", "Total", "Customer") heads a table's column as often,
 * its first row no more the document's figure than the row beside it.
 */
const GRID_LABEL = 0.95;

/** Rows of another column's text that may stand between a grid's label and its cell's value. */
const MAX_ROWS_TO_GRID_LABEL = 3;
