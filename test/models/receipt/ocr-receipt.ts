import { buildPageText, type PageWord } from '../../../src/models/page/text/text-lines.js';

/**
 * A receipt as PP-OCR reads a thermal print: one OCR line per printed line, the header centred,
 * amounts to the right of their labels; every word read at `confidence` unless a line says.
 */
export type Row = string | { text: string; right?: string; confidence?: number };

export function ocrReceipt(rows: readonly Row[], confidence = 0.97) {
  const size = 20;
  const words: PageWord[] = rows.flatMap((row, index) => {
    const { text, right, confidence: sure = confidence } = typeof row === 'string' ? { text: row } : row;
    const top = 40 + index * 32;
    const place = (line: string, left: number, ocrLine: string) => {
      let x = left;
      return line.split(' ').map((word) => {
        const box = { left: x, top, width: word.length * size * 0.6, height: size };
        x += box.width + size * 0.4;
        return { text: word, box, confidence: sure, ocrLine };
      });
    };
    const left = right === undefined ? Math.round(300 - (text.length * size * 0.6) / 2) : 40;
    return [...place(text, left, `${index}.1`), ...(right === undefined ? [] : place(right, 560 - right.length * size * 0.6, `${index}.2`))];
  });
  return buildPageText(words);
}

/** Cells of a row at their left edges (`[left, text]`), one OCR line each, 20 units tall, read at 0.95. */
export function ocrCells(top: number, cells: ReadonlyArray<[number, string]>): PageWord[] {
  return cells.flatMap(([left, text], cell) => {
    let x = left;
    return text.split(' ').map((word) => {
      const box = { left: x, top, width: word.length * 12, height: 20 };
      x += box.width + 8;
      return { text: word, box, confidence: 0.95, ocrLine: `${top}.${cell}` };
    });
  });
}
