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
  for (const part of pageRange.split(',')) {
    const [from, to = from] = part.split('-').map((n) => Number(n.trim())) as [number, number?];
    for (let page = from; page <= Math.min(to, pageCount); page += 1) selected.add(page);
  }
  return [...selected].sort((a, b) => a - b);
}
