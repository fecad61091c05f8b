import { TemplateType } from '../domain/enums.js';
import { parsePageRange } from '../domain/page-range.js';

/** Pages OCR workspaces process; later pages have no detections (spec: Limits). */
export const OCR_PAGE_LIMIT = 200;

/**
 * The 1-based pages a pageRange selects in a document of `pageCount` pages, ascending, without
 * duplicates; pages past the end are ignored. Empty or absent range: every page.
 * The syntax was validated when the task was created.
 */
export function selectPages(pageRange: string | undefined, pageCount: number): number[] {
  if (!pageRange || pageRange.trim() === '') return Array.from({ length: pageCount }, (_, i) => i + 1);
  const selected = new Set<number>();
  for (const { from, to } of parsePageRange(pageRange)) {
    for (let page = from; page <= Math.min(to, pageCount); page += 1) selected.add(page);
  }
  return [...selected].sort((a, b) => a - b);
}

/**
 * The pages a task's model processes, decided once at pre-processing: the pageRange selection,
 * then its first 200 pages in OCR workspaces. Labelling workspaces prepare pages for people and
 * run no OCR, so they have no cap.
 */
export function pagesToProcess(pageRange: string | undefined, pageCount: number, templateType: number): number[] {
  const pages = selectPages(pageRange, pageCount);
  return templateType === TemplateType.Labelling ? pages : pages.slice(0, OCR_PAGE_LIMIT);
}

/** Ascending pages as the shortest page range that selects exactly them: [1,2,3,5] -> "1-3,5". */
export function formatPageRange(pages: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let last = i;
    while (last + 1 < pages.length && pages[last + 1] === pages[last]! + 1) last += 1;
    runs.push(last === i ? String(pages[i]) : `${pages[i]}-${pages[last]}`);
    i = last + 1;
  }
  return runs.join(',');
}

/** The pages of a range written by formatPageRange (every page it names: there is no document end to clip to). */
export function pagesOfRange(range: string): number[] {
  return range.trim() === '' ? [] : selectPages(range, Number.MAX_SAFE_INTEGER);
}
