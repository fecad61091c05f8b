import { overlap, unionBox, type Box } from './geometry.js';
import { joinRuns, median, type PageText, type TextLine, type TextRun } from './text-lines.js';

/** A grid found in aligned text: row 0 is the header row. */
export interface LayoutTable {
  /** rows[r][c]: the text of a cell, undefined when the cell is empty. */
  rows: Array<Array<TextRun | undefined>>;
  columnCount: number;
  box: Box;
  lines: ReadonlySet<TextLine>;
}

/** Rows further apart than this many line heights belong to different tables. */
const MAX_ROW_GAP_LINE_HEIGHTS = 2.5;
/** Cells are short (a name, a number); two columns of prose side by side are not a table. */
const MAX_MEDIAN_WORDS_PER_CELL = 5;

/**
 * Tables from aligned text: runs of consecutive rows with two or more lines each, whose lines
 * line up in columns. A grid of two rows needs three columns (and one of two columns three rows),
 * so a pair of side-by-side label lines is not taken for a table, and its cells must be short, so
 * text set in columns is not either. `isLabelled` rows (all "Label: value") are form fields.
 */
export function findTables(page: PageText, isLabelled: (line: TextLine) => boolean): LayoutTable[] {
  const tables: LayoutTable[] = [];
  let run: TextLine[][] = [];
  const flush = () => {
    const table = tableOf(run);
    if (table) tables.push(table);
    run = [];
  };
  for (const row of page.rows) {
    const candidate = row.length >= 2 && !row.every(isLabelled);
    if (!candidate) {
      flush();
      continue;
    }
    const previous = run.at(-1);
    if (previous && rowGap(previous, row) > MAX_ROW_GAP_LINE_HEIGHTS * lineHeight(row)) flush();
    run.push(row);
  }
  flush();
  return tables;
}

function tableOf(rows: TextLine[][]): LayoutTable | undefined {
  if (rows.length < 2) return undefined;
  const columns = columnsOf(rows);
  if (columns.length < 2 || (rows.length < 3 && columns.length < 3)) return undefined;
  const grid = rows.map((row) =>
    columns.map((column) => {
      const inColumn = row.filter((line) => columnOf(line, columns) === column);
      return inColumn.length > 0 ? joinRuns(inColumn) : undefined;
    }),
  );
  const lines = rows.flat();
  if (median(lines.map((line) => line.words.length)) > MAX_MEDIAN_WORDS_PER_CELL) return undefined;
  return { rows: grid, columnCount: columns.length, box: unionBox(lines.map((l) => l.box)), lines: new Set(lines) };
}

interface Column {
  left: number;
  right: number;
}

/**
 * Columns: the horizontal extents of all lines, merged where they overlap. Neighbouring columns
 * that no row fills both of are one column whose cells are aligned differently (a left-aligned
 * header over right-aligned numbers).
 */
function columnsOf(rows: TextLine[][]): Column[] {
  const extents = rows
    .flat()
    .map((line) => ({ left: line.layoutBox.left, right: line.layoutBox.left + line.layoutBox.width }))
    .sort((a, b) => a.left - b.left);
  const columns: Column[] = [];
  for (const extent of extents) {
    const last = columns.at(-1);
    if (last && extent.left <= last.right) last.right = Math.max(last.right, extent.right);
    else columns.push({ ...extent });
  }
  for (let i = columns.length - 1; i > 0; i--) {
    const [left, right] = [columns[i - 1]!, columns[i]!];
    const bothFilled = rows.some((row) => row.some((l) => columnOf(l, columns) === left) && row.some((l) => columnOf(l, columns) === right));
    if (!bothFilled) columns.splice(i - 1, 2, { left: left.left, right: Math.max(left.right, right.right) });
  }
  return columns;
}

function columnOf(line: TextLine, columns: readonly Column[]): Column | undefined {
  const { left, width } = line.layoutBox;
  let best: Column | undefined;
  let bestShared = 0;
  for (const column of columns) {
    const shared = overlap(left, left + width, column.left, column.right);
    if (shared > bestShared) [best, bestShared] = [column, shared];
  }
  return best;
}

function rowGap(upper: TextLine[], lower: TextLine[]): number {
  const bottom = Math.max(...upper.map((l) => l.layoutBox.top + l.layoutBox.height));
  const top = Math.min(...lower.map((l) => l.layoutBox.top));
  return top - bottom;
}

function lineHeight(row: TextLine[]): number {
  return median(row.map((l) => l.layoutBox.height));
}
