import { findLabelledValues, isLabelledLine, type LabelledValue } from './key-values.js';
import type { PageWord } from './text-lines.js';
import { findParagraphs } from './paragraphs.js';
import { findTables, type LayoutTable } from './tables.js';
import { buildPageText, type PageText, type TextRun } from './text-lines.js';

/** What the text of a page is made of: lines, paragraphs, tables and labelled values. */
export interface PageLayout {
  text: PageText;
  paragraphs: TextRun[];
  tables: LayoutTable[];
  labelledValues: LabelledValue[];
}

export function analyzeLayout(words: readonly PageWord[]): PageLayout {
  const text = buildPageText(words);
  const tables = findTables(text, isLabelledLine);
  const inTables = new Set(tables.flatMap((table) => [...table.lines]));
  return {
    text,
    tables,
    // Table rows are not prose, and a cell that reads "Label: value" is still a cell.
    paragraphs: findParagraphs(text.lines.filter((line) => !inTables.has(line))),
    labelledValues: findLabelledValues(text, inTables),
  };
}
