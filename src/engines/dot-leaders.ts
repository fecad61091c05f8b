/**
 * Dot leaders ("Total ............ 12.30") erased from a page image before OCR. Tesseract reads a
 * row of dots as words ("ee", "oe", "...") and, worse, merges them with the label before them,
 * so "Zwischensumme......€ 353,25" comes out as "ZWISCHENSUNMNG 4 oe ee £3537": label and amount
 * are lost together. Without the dots the label and the amount are two clean words on one row,
 * which the label-to-value geometry pairs at any distance.
 *
 * A leader is a run of at least MIN_DOTS small, round, evenly spaced blobs on one baseline with
 * nothing but paper between them: a full stop, an ellipsis, the dots over "ü" or the points of
 * "1.000.000" are none.
 */
import type { Pixels } from './pdf.js';

/** Fewer dots in a row than this are punctuation (an ellipsis has three). */
const MIN_DOTS = 5;
/** A dot is at most this share of a text line tall and wide (a full stop is about a sixth). */
const MAX_DOT_SIDE = 0.3;
/** Next dot at most this many line heights further (leaders are set a space or a letter apart). */
const MAX_DOT_STEP = 1.2;

interface Blob {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number;
}

/**
 * The grey pixels with every dot leader painted over in the paper's colour; `lineHeight` is the
 * typical height of the text lines in pixels (textLineHeight). Returns how many dots were erased
 * (0: the pixels are untouched).
 */
export function eraseDotLeaders(pixels: Pixels & { channels: 1 }, lineHeight: number, ink: { threshold: number; paper: number }): number {
  if (lineHeight <= 0) return 0;
  const maxSide = Math.max(3, Math.round(MAX_DOT_SIDE * lineHeight));
  const dots = findBlobs(pixels, ink.threshold).filter((blob) => isDot(blob, maxSide));
  const leaders = dotRuns(dots, lineHeight, pixels, ink.threshold);
  let erased = 0;
  for (const run of leaders) {
    for (const dot of run) {
      paint(pixels, dot, ink.paper);
      erased++;
    }
  }
  return erased;
}

/**
 * The dot's box, grown by a third of its side, in the paper's colour: its blurred rim is lighter
 * than the ink threshold but still a mark tesseract reads.
 */
function paint(pixels: Pixels & { channels: 1 }, dot: Blob, paper: number): void {
  const rim = Math.max(1, Math.round((dot.right - dot.left + 1) / 3));
  const top = Math.max(0, dot.top - rim);
  const bottom = Math.min(pixels.height - 1, dot.bottom + rim);
  const left = Math.max(0, dot.left - rim);
  const right = Math.min(pixels.width - 1, dot.right + rim);
  for (let y = top; y <= bottom; y++) pixels.data.fill(paper, y * pixels.width + left, y * pixels.width + right + 1);
}

function isDot(blob: Blob, maxSide: number): boolean {
  const width = blob.right - blob.left + 1;
  const height = blob.bottom - blob.top + 1;
  if (width < 2 || height < 2 || width > maxSide || height > maxSide) return false;
  // Round or square, and filled: not a comma's tail, a hyphen or a thin stroke of a letter.
  return width <= 2 * height && height <= 2 * width && blob.pixels >= 0.4 * width * height;
}

/** The connected blobs of ink (4-neighbours) of the image, by one flood fill each. */
function findBlobs(pixels: Pixels & { channels: 1 }, threshold: number): Blob[] {
  const { data, width, height } = pixels;
  const seen = new Uint8Array(width * height);
  const blobs: Blob[] = [];
  const stack: number[] = [];
  for (let start = 0; start < seen.length; start++) {
    if (seen[start] || data[start]! >= threshold) continue;
    const blob: Blob = { left: width, top: height, right: 0, bottom: 0, pixels: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const index = stack.pop()!;
      const x = index % width;
      const y = (index - x) / width;
      blob.pixels++;
      if (x < blob.left) blob.left = x;
      if (x > blob.right) blob.right = x;
      if (y < blob.top) blob.top = y;
      if (y > blob.bottom) blob.bottom = y;
      if (x > 0) visit(index - 1);
      if (x < width - 1) visit(index + 1);
      if (y > 0) visit(index - width);
      if (y < height - 1) visit(index + width);
    }
    blobs.push(blob);
  }
  return blobs;

  function visit(index: number) {
    if (seen[index] || data[index]! >= threshold) return;
    seen[index] = 1;
    stack.push(index);
  }
}

/** Runs of at least MIN_DOTS dots, each the next one's neighbour on the same baseline with only paper between. */
function dotRuns(dots: Blob[], lineHeight: number, pixels: Pixels & { channels: 1 }, threshold: number): Blob[][] {
  const middleX = (d: Blob) => (d.left + d.right) / 2;
  const middleY = (d: Blob) => (d.top + d.bottom) / 2;
  const sorted = [...dots].sort((a, b) => middleX(a) - middleX(b));
  const taken = new Set<Blob>();
  const runs: Blob[][] = [];
  const maxStep = MAX_DOT_STEP * lineHeight;
  const maxDrift = Math.max(2, 0.12 * lineHeight);
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i]!;
    if (taken.has(first)) continue;
    const run = [first];
    let last = first;
    for (let j = i + 1; j < sorted.length; j++) {
      const next = sorted[j]!;
      const step = next.left - last.right;
      if (middleX(next) - middleX(last) > maxStep) break;
      if (taken.has(next) || step < 1 || Math.abs(middleY(next) - middleY(last)) > maxDrift) continue;
      if (!paperBetween(pixels, threshold, last, next)) continue;
      run.push(next);
      last = next;
    }
    if (run.length >= MIN_DOTS && isRegular(run)) {
      for (const dot of run) taken.add(dot);
      runs.push(run);
    }
  }
  return runs;
}

/**
 * Leaders are set by a machine: dots of one size at one pitch. Pieces of faint grey letters that
 * the ink threshold cuts into blobs are neither.
 */
function isRegular(run: readonly Blob[]): boolean {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const pitches = run.slice(1).map((dot, i) => dot.left - run[i]!.left);
  const pitch = median(pitches);
  const size = median(run.map((dot) => dot.pixels));
  const steady = pitches.filter((p) => Math.abs(p - pitch) <= Math.max(2, 0.25 * pitch)).length;
  const alike = run.filter((dot) => dot.pixels <= 2 * size && dot.pixels >= size / 2).length;
  return steady >= 0.8 * pitches.length && alike >= 0.8 * run.length;
}

/** No ink in the band of two dots' rows between them. */
function paperBetween(pixels: Pixels & { channels: 1 }, threshold: number, a: Blob, b: Blob): boolean {
  const top = Math.min(a.top, b.top);
  const bottom = Math.max(a.bottom, b.bottom);
  for (let y = top; y <= bottom; y++) {
    const row = y * pixels.width;
    for (let x = a.right + 1; x < b.left; x++) if (pixels.data[row + x]! < threshold) return false;
  }
  return true;
}
