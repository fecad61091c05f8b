/**
 * Table rules and boxes erased from a page image before OCR. Tesseract takes a ruled table for a
 * picture and leaves out the text inside its cells: a bordered "Invoice No. | Date" box or a boxed
 * totals table comes back empty. Without the rules the cells are lines of text like any other,
 * which the layout reads as rows and columns.
 *
 * A rule is a run of ink along a row (or a column) many text lines long: longer than any stroke of
 * a letter. Only its pixels are painted over, so text that touches a rule keeps its own strokes.
 */
import type { Pixels } from './pdf.js';

/** A horizontal run of ink longer than this many text line heights is a rule... */
const MIN_RULE_LINE_HEIGHTS = 2.5;
/** ...and a vertical one longer than this: the strokes of a title's tall letters stay. */
const MIN_COLUMN_RULE_LINE_HEIGHTS = 4;
/** A rule is thin: thicker than this share of a text line, it is a filled band (a dark header with white text in it). */
const MAX_RULE_THICKNESS = 0.5;

/**
 * The grey pixels with their horizontal and vertical rules painted in the paper's colour;
 * `lineHeight` is the typical height of the text lines in pixels. Returns how many pixels were
 * painted (0: untouched).
 */
export function eraseRulingLines(pixels: Pixels & { channels: 1 }, lineHeight: number, ink: { threshold: number; paper: number }): number {
  if (lineHeight <= 0) return 0;
  const { data, width, height } = pixels;
  const minRow = Math.round(MIN_RULE_LINE_HEIGHTS * lineHeight);
  const minColumn = Math.round(MIN_COLUMN_RULE_LINE_HEIGHTS * lineHeight);
  // Both directions are found on the page as it is, then painted: a cross of two rules is found twice.
  const marked = new Uint8Array(width * height);
  const maxThickness = Math.max(2, Math.round(MAX_RULE_THICKNESS * lineHeight));
  const inked = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && data[y * width + x]! < ink.threshold;
  /** The ink across a run at its middle, a quarter and three quarters: thin at most of them. */
  const thin = (along: (t: number) => [number, number], across: [number, number], length: number) => {
    let thinSamples = 0;
    for (const share of [0.25, 0.5, 0.75]) {
      const [x, y] = along(Math.floor(share * length));
      let extent = 1;
      for (let d = 1; d <= maxThickness && inked(x + d * across[0], y + d * across[1]); d++) extent++;
      for (let d = 1; d <= maxThickness && inked(x - d * across[0], y - d * across[1]); d++) extent++;
      if (extent <= maxThickness) thinSamples++;
    }
    return thinSamples >= 2;
  };
  let found = 0;
  for (let y = 0; y < height; y++) {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const inked = x < width && data[y * width + x]! < ink.threshold;
      if (inked && start < 0) start = x;
      else if (!inked && start >= 0) {
        const from = start;
        if (x - start >= minRow && thin((t) => [from + t, y], [0, 1], x - start)) found += mark(marked, y * width + start, x - start, 1);
        start = -1;
      }
    }
  }
  // Columns are walked row by row (each column's run so far in `starts`): the image is stored by rows.
  const starts = new Int32Array(width).fill(-1);
  for (let y = 0; y <= height; y++) {
    for (let x = 0; x < width; x++) {
      const inked = y < height && data[y * width + x]! < ink.threshold;
      const start = starts[x]!;
      if (inked && start < 0) starts[x] = y;
      else if (!inked && start >= 0) {
        if (y - start >= minColumn && thin((t) => [x, start + t], [1, 0], y - start)) found += mark(marked, start * width + x, y - start, width);
        starts[x] = -1;
      }
    }
  }
  if (found === 0) return 0;
  // The rule's blurred rim is lighter than the threshold but still a mark, and its edge pixels
  // along a slightly turned rule make runs too short to count: the pixel next to the rule goes
  // whatever it is, the paper around it is evened out without touching letters that meet the rule.
  const rim = Math.max(1, Math.round(lineHeight / 15));
  for (let i = 0; i < marked.length; i++) {
    if (!marked[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    data[i] = ink.paper;
    for (let dy = -rim; dy <= rim; dy++) {
      for (let dx = -rim; dx <= rim; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const at = ny * width + nx;
        if (!marked[at] && (data[at]! >= ink.threshold || (Math.abs(dx) <= 1 && Math.abs(dy) <= 1))) data[at] = ink.paper;
      }
    }
  }
  return found;
}

function mark(marked: Uint8Array, from: number, count: number, step: number): number {
  for (let i = 0, at = from; i < count; i++, at += step) marked[at] = 1;
  return count;
}
