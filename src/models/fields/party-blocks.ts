/**
 * The blocks of a document's parties: a party's label ("Bill to", "Supplier") heads its block,
 * its name is under the label (wrapped onto the next lines by a narrow column), and a line in the
 * other party's block is never its value.
 */
import type { ReadValue } from './field-values.js';
import type { LabelCategory } from './invoice-labels.js';
import { lineBelow, type LabelHit, type ValueRun } from './label-hits.js';
import { hasLegalForm } from './legal-form.js';
import { plain } from './normalize.js';
import { overlap } from '../page/text/geometry.js';
import { joinRuns, type PageText, type TextLine, type TextRun } from '../page/text/text-lines.js';

/** A party's label heads a block: its name is under it, and a line far to its right is another block. */
export const BLOCK_LABELS: ReadonlySet<LabelCategory> = new Set(['CustomerName', 'VendorName']);

/**
 * A party's name after or under its label that a narrow column wrapped ("Sold By: Retailnet" over
 * "Commerce Private Limited,", "Caseificio Sociale Santa Rita Soc. Agr." over "Coop."): the name
 * goes on on the line under it when that line ends the name with a legal form and holds nothing
 * else (no number, no address).
 */
export function wrappedName(page: PageText, line: TextLine, name: TextRun): ReadValue | undefined {
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
export function inOtherPartysBlock(run: TextRun, hit: LabelHit, headings: readonly LabelHit[]): boolean {
  if (!('layoutBox' in run)) return false;
  const line = run as TextLine;
  if (isInBlockOf(hit.line, line)) return false;
  return headings.some((h) => h.definition.category !== hit.definition.category && isInBlockOf(h.line, line));
}

export function orderedValues(category: LabelCategory, values: ValueRun[]): ValueRun[] {
  if (!BLOCK_LABELS.has(category)) return values;
  return [...values.filter((v) => v.place === 'inline' || v.place === 'below'), ...values.filter((v) => v.place !== 'inline' && v.place !== 'below')];
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
