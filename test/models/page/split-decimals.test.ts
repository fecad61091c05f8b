import { describe, expect, it } from 'vitest';
import { joinSplitDecimals } from '../../../src/models/page/split-decimals.js';
import type { PageWord } from '../../../src/models/page/text/text-lines.js';

/** Words of one OCR line, each `[text, left, width]`, 34 px high (a till receipt's print photographed). */
function line(...words: Array<[string, number, number]>): PageWord[] {
  return words.map(([text, left, width]) => ({ text, box: { left, top: 700, width, height: 34 }, confidence: 0.95, ocrLine: '4.6.2' }));
}

const texts = (words: PageWord[]) => joinSplitDecimals(words).map((w) => w.text);

describe('an amount whose cents OCR set apart', () => {
  it('is one word when two digits follow its separator within a character cell ("21," "80")', () => {
    const [label, currency, amount] = joinSplitDecimals(line(['SUMME', 100, 120], ['EUR', 500, 70], ['21,', 702, 60], ['80', 780, 40]));
    expect([label!.text, currency!.text]).toEqual(['SUMME', 'EUR']);
    expect(amount).toMatchObject({ text: '21,80', box: { left: 702, width: 118 } });
    expect(texts(line(['0,', 719, 27], ['78', 765, 30], ['B', 860, 20]))).toEqual(['0,78', 'B']);
    expect(texts(line(['1.234.', 600, 100], ['50€', 716, 50]))).toEqual(['1.234.50€']);
  });

  it('keeps words apart that are no split amount', () => {
    // A wide gap (another column), three digits (a postcode, a price per kilo), a date's parts, another OCR line.
    expect(texts(line(['21,', 100, 40], ['80', 200, 30]))).toEqual(['21,', '80']);
    expect(texts(line(['Str.', 100, 60], ['3,', 170, 30], ['58239', 210, 90]))).toEqual(['Str.', '3,', '58239']);
    expect(texts(line(['2,', 100, 30], ['996', 140, 45]))).toEqual(['2,', '996']);
    expect(texts(line(['03.', 100, 45], ['04.', 160, 40], ['2025', 215, 70]))).toEqual(['03.', '04.', '2025']);
    expect(texts(line(['3,', 100, 30], ['8%', 140, 30]))).toEqual(['3,', '8%']);
    const [units, cents] = line(['21,', 702, 60], ['80', 780, 40]);
    expect(texts([units!, { ...cents!, ocrLine: '4.6.3' }])).toEqual(['21,', '80']);
  });

  it('takes the lower confidence of its two parts', () => {
    const [units, cents] = line(['9,', 100, 30], ['74', 140, 30]);
    expect(joinSplitDecimals([{ ...units!, confidence: 0.81 }, cents!])[0]!.confidence).toBe(0.81);
  });
});

describe('a decimal separator misread', () => {
  it('as a degree sign or a raised dot between units and two digits is a comma', () => {
    expect(texts(line(['zu', 100, 30], ['zahlen', 140, 90], ['9°31', 500, 60]))).toEqual(['zu', 'zahlen', '9,31']);
    expect(texts(line(['12·50', 500, 60]))).toEqual(['12,50']);
  });

  it('leaves degrees and longer digit runs alone', () => {
    expect(texts(line(['4°', 100, 30], ['19°C', 150, 50], ['45°315', 250, 80]))).toEqual(['4°', '19°C', '45°315']);
  });
});
