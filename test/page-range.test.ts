import { describe, expect, it } from 'vitest';
import { PAGE_RANGE_PATTERN, pageRangeProblems, parsePageRange } from '../src/domain/page-range.js';
import { formatPageRange, pagesOfRange, pagesToProcess, selectPages } from '../src/pipeline/page-selection.js';
import { TemplateType } from '../src/domain/enums.js';

describe('pageRange: one parser for validation and selection', () => {
  it('parses spans as written, a single page spanning itself', () => {
    expect(parsePageRange(' 1-3, 5 ,7 - 9')).toEqual([
      { from: 1, to: 3, text: '1-3' },
      { from: 5, to: 5, text: '5' },
      { from: 7, to: 9, text: '7 - 9' },
    ]);
    expect(parsePageRange('  ')).toEqual([]);
  });

  it('accepts the syntax of the API only', () => {
    for (const ok of ['1', '1-3,5', ' 2 - 4 , 6 ']) expect(PAGE_RANGE_PATTERN.test(ok)).toBe(true);
    for (const bad of ['-1', '1-', 'a', '1,,2', '1-2-3', '1.5']) expect(PAGE_RANGE_PATTERN.test(bad)).toBe(false);
  });

  it('finds pages numbered from 0 and spans running backwards', () => {
    expect(pageRangeProblems('1-3,5')).toEqual([]);
    expect(pageRangeProblems('0,2-1')).toEqual(['page numbers start at 1', 'range 2-1 runs backwards']);
    expect(pageRangeProblems('0-0')).toEqual(['page numbers start at 1']);
  });

  it('selects the pages of the document it names, ascending and once each', () => {
    expect(selectPages('5,1-3,2', 10)).toEqual([1, 2, 3, 5]);
    expect(selectPages('8-12', 10)).toEqual([8, 9, 10]);
    expect(selectPages(undefined, 3)).toEqual([1, 2, 3]);
    expect(pagesOfRange(formatPageRange([1, 2, 3, 5]))).toEqual([1, 2, 3, 5]);
  });

  it('caps OCR workspaces at 200 pages after the range, Labelling not at all', () => {
    expect(pagesToProcess('101-400', 400, TemplateType.Receipts)).toHaveLength(200);
    expect(pagesToProcess('101-400', 400, TemplateType.Receipts).at(-1)).toBe(300);
    expect(pagesToProcess(undefined, 250, TemplateType.Labelling)).toHaveLength(250);
  });
});
