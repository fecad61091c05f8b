import { overlap } from './geometry.js';
import { runInRange, type PageText, type TextLine, type TextRun } from './text-lines.js';

export interface LabelledValue {
  label: string;
  labelLine: TextLine;
  value: TextRun;
}

/**
 * "Label: value" at the start of a line: a label starts with a letter, is short, and its colon
 * is not the one of a URL scheme or a time of day.
 */
const LABEL = /^(\p{L}[\p{L}\p{N} .,'’()/#ºª°%&+-]{0,48}?)\s*:(?!\/\/)\s*/u;

/** A value on the next line must start within this many line heights below its label. */
const MAX_VALUE_BELOW_LINE_HEIGHTS = 1.5;

export function isLabelledLine(line: TextLine): boolean {
  return LABEL.test(line.text);
}

/** Every "Label: value" pair of the page (lines in `excluded`, e.g. table cells, are skipped). */
export function findLabelledValues(page: PageText, excluded: ReadonlySet<TextLine> = new Set()): LabelledValue[] {
  const pairs: LabelledValue[] = [];
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    const match = LABEL.exec(line.text);
    if (!match) continue;
    const value = valueAfter(page, line, match[0].length);
    if (value) pairs.push({ label: match[1]!, labelLine: line, value });
  }
  return pairs;
}

/**
 * The value of a label that ends `labelLength` characters into `line`: the rest of the line, or
 * when the label ends the line, the next line of the row (a value in its own column) or else the
 * line just below it (a form with the value under its label); a line that is itself labelled is
 * another field, not a value.
 */
export function valueAfter(page: PageText, line: TextLine, labelLength: number): TextRun | undefined {
  const [lineSpan] = line.spans;
  if (!lineSpan) return undefined;
  const rest = line.text.slice(labelLength);
  if (rest.trim()) {
    const start = lineSpan.offset + labelLength + (rest.length - rest.trimStart().length);
    return runInRange(page, start, lineSpan.offset + line.text.trimEnd().length);
  }
  return [lineRightOf(page, line), lineBelow(page, line)].find((next) => next !== undefined && !isLabelledLine(next));
}

function lineRightOf(page: PageText, line: TextLine): TextLine | undefined {
  const row = page.rows[line.row] ?? [];
  return row[row.indexOf(line) + 1];
}

function lineBelow(page: PageText, line: TextLine): TextLine | undefined {
  const a = line.layoutBox;
  const below = page.rows[line.row + 1]?.find((candidate) => {
    const b = candidate.layoutBox;
    return overlap(a.left, a.left + a.width, b.left, b.left + b.width) > 0 || Math.abs(a.left - b.left) < a.height;
  });
  if (!below) return undefined;
  const gap = below.layoutBox.top - (a.top + a.height);
  return gap <= MAX_VALUE_BELOW_LINE_HEIGHTS * a.height ? below : undefined;
}
