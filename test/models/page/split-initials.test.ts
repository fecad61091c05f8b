import { describe, expect, it } from 'vitest';
import { joinSplitInitials } from '../../../src/models/page/split-initials.js';
import type { PageWord } from '../../../src/models/page/text/text-lines.js';

/** Words of one OCR line, each `[text, left, width, confidence]`, 18 px high. */
function line(...words: Array<[string, number, number, number]>): PageWord[] {
  return words.map(([text, left, width, confidence]) => ({ text, box: { left, top: 100, width, height: 18 }, confidence, ocrLine: '1.1.1' }));
}

describe('a first capital OCR set apart from its word', () => {
  it('is joined to the rest of the word when close and read unsure ("S ubtotaal")', () => {
    const [word, ...rest] = joinSplitInitials(line(['S', 817, 8, 0.75], ['ubtotaal', 830, 73, 0.75], ['€', 950, 10, 0.9], ['214,00', 965, 50, 0.9]));
    expect(word).toMatchObject({ text: 'Subtotaal', box: { left: 817, width: 86 }, confidence: 0.75 });
    expect(rest.map((w) => w.text)).toEqual(['€', '214,00']);
  });

  it('stays a word of its own when a space apart, read surely, on another line or followed by capitals', () => {
    const texts = (words: PageWord[]) => joinSplitInitials(words).map((w) => w.text);
    expect(texts(line(['A', 100, 10, 0.7], ['house', 120, 50, 0.7]))).toEqual(['A', 'house']);
    expect(texts(line(['S', 817, 8, 0.95], ['ubtotaal', 830, 73, 0.95]))).toEqual(['S', 'ubtotaal']);
    expect(texts(line(['B', 100, 10, 0.7], ['BTW', 112, 40, 0.7]))).toEqual(['B', 'BTW']);
    const [initial, rest] = line(['S', 817, 8, 0.75], ['ubtotaal', 830, 73, 0.75]);
    expect(texts([initial!, { ...rest!, ocrLine: '1.1.2' }])).toEqual(['S', 'ubtotaal']);
  });
});
