/**
 * The pageRange syntax of create task (context.pageRange), e.g. "1-3,5": its one parser, shared by
 * the validation at creation (tasks.service.ts) and the page selection at pre-processing
 * (pipeline/page-selection.ts).
 */

/** Positive numbers, commas and hyphens: the syntax the API accepts (checked by the request schema). */
export const PAGE_RANGE_PATTERN = /^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$/;

/** One comma-separated span of a range: `from` to `to` inclusive (a single page has to = from); `text` as written. */
export interface PageSpan {
  from: number;
  to: number;
  text: string;
}

/** The spans of a range of valid syntax, in the order written; an empty or blank range has none. */
export function parsePageRange(range: string): PageSpan[] {
  if (range.trim() === '') return [];
  return range.split(',').map((part) => {
    const [from, to = from] = part.split('-').map((n) => Number(n.trim())) as [number, number?];
    return { from, to, text: part.trim() };
  });
}

/** What is wrong with the spans of a range: pages numbered from 0, spans running backwards. */
export function pageRangeProblems(range: string): string[] {
  const problems: string[] = [];
  for (const span of parsePageRange(range)) {
    if (span.from === 0 || span.to === 0) problems.push('page numbers start at 1');
    if (span.from > span.to) problems.push(`range ${span.text} runs backwards`);
  }
  return problems;
}
