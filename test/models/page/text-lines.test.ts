import { describe, expect, it } from 'vitest';
import { buildPageText, type PageWord } from '../../../src/models/page/text/text-lines.js';

/** Words of a text layer (points, top-left origin), each `size` high, set one after another from x. */
function placedWords(text: string, x: number, top: number, size = 10): PageWord[] {
  let left = x;
  return text.split(' ').map((word) => {
    const width = word.length * size * 0.5;
    const placed = { text: word, box: { left, top, width, height: size }, confidence: 1 };
    left += width + size * 0.3;
    return placed;
  });
}

const lineTexts = (page: PageWord[]) => buildPageText(page).lines.map((l) => l.text);

describe('lines of a text layer', () => {
  it('keeps the small lines beside a tall title apart from it and from each other', () => {
    // A 30 pt title on the right, level with the first of three 9 pt lines of the vendor's block.
    const page = [
      ...placedWords('INVOICE', 400, 40, 30),
      ...placedWords('Northwind Supplies Ltd', 50, 41, 9),
      ...placedWords('12 Harbour Road', 50, 52, 9),
      ...placedWords('Bristol BS1 4QA', 50, 63, 9),
    ];
    const lines = lineTexts(page);
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(expect.arrayContaining(['INVOICE', 'Northwind Supplies Ltd', '12 Harbour Road', 'Bristol BS1 4QA']));
    // The block reads top to bottom.
    expect(lines.indexOf('Northwind Supplies Ltd')).toBeLessThan(lines.indexOf('12 Harbour Road'));
    expect(lines.indexOf('12 Harbour Road')).toBeLessThan(lines.indexOf('Bristol BS1 4QA'));
  });

  it('keeps a large name whole when OCR puts small print beside it on its line', () => {
    // Words 40 high, 30 apart (wide-set capitals), then 10-high address words 60 further right.
    const name = ['PIONEER', 'SYSTEMS', 'S.L.'].map((text, i) => ({ text, box: { left: 50 + i * 230, top: 100, width: 200, height: 40 }, confidence: 90 }));
    const address = placedWords('Calle Mayor 3 28013 Madrid Spain', 740, 115, 10);
    const lines = lineTexts([...name, ...address]);
    expect(lines).toContain('PIONEER SYSTEMS S.L.');
    expect(lines).toContain('Calle Mayor 3 28013 Madrid Spain');
  });

  it('does not interleave the lines of a footer set beside a larger name', () => {
    // An 18 pt name spanning the height of two 8 pt lines set right after it.
    const page = [...placedWords('Northwind', 50, 800, 18), ...placedWords('Registered office: 12 Harbour Road', 150, 802, 8), ...placedWords('VAT GB123456789', 150, 811, 8)];
    const lines = lineTexts(page);
    expect(lines).toContain('VAT GB123456789');
    expect(lines.some((line) => line.endsWith('Registered office: 12 Harbour Road'))).toBe(true);
  });

  it('keeps a label and its larger value on one line, and splits columns at wide gaps', () => {
    const page = [...placedWords('Total due:', 300, 502, 10), ...placedWords('1,537.50 EUR', 355, 500, 13), ...placedWords('Thank you', 50, 501, 10)];
    const text = buildPageText(page);
    expect(text.lines.map((l) => l.text)).toEqual(['Thank you', 'Total due: 1,537.50 EUR']);
    expect(text.rows).toHaveLength(1);
  });
});

describe('the skew of a page', () => {
  /** Words OCR read off a logo set at a slant, one line rising 6 points a word. */
  const slantedLogo = (ocrLine: string): PageWord[] =>
    ['Nota', 'Fiscal', 'de', 'Servico'].map((text, i) => ({ text, box: { left: 20 + 40 * i, top: 30 - 6 * i, width: 35, height: 10 }, confidence: 0.9, ocrLine }));

  it('is not taken from an image on a text page: a slanted logo turns none of the text layer\'s words', () => {
    const text = [...placedWords('NUMERO DA NOTA', 20, 100), ...placedWords('999', 20, 112), ...placedWords('VALOR TOTAL', 300, 100), ...placedWords('1.000,00', 300, 112)];
    const page = buildPageText([...slantedLogo('1.1.1'), ...text]);
    const number = page.lines.find((l) => l.text === 'NUMERO DA NOTA')!;
    const total = page.lines.find((l) => l.text === 'VALOR TOTAL')!;
    // Level as printed: the two labels share a row, the number's value is in the row under it.
    expect(number.layoutBox.top).toBeCloseTo(100, 5);
    expect(total.row).toBe(number.row);
    expect(page.lines.find((l) => l.text === '999')!.row).toBe(number.row + 1);
  });

  it('is taken from the OCR\'d words of a page that is mostly OCR', () => {
    const page = buildPageText([...slantedLogo('1.1.1'), ...placedWords('x', 20, 200)]);
    const word = page.lines.flatMap((l) => l.words).find((w) => w.text === 'Servico')!;
    expect(word.layoutBox.top).not.toBeCloseTo(word.box.top, 1);
  });
});
