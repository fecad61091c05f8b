import type { Span } from '../../../domain/entities.js';
import { overlap, unionBox, type Box } from './geometry.js';

/**
 * Words grouped into lines and visual rows, and the page text every span points into: the lines
 * top to bottom (left to right inside a row), one per text line.
 */

/** A word of a page: from its text layer or its OCR (page-reader.ts). */
export interface PageWord {
  text: string;
  /** Page units. */
  box: Box;
  /** 0..1; 1 for words of a text layer. */
  confidence: number;
  /** OCR only: tesseract's line of the word (block.paragraph.line), which survives skew better than geometry. */
  ocrLine?: string;
}

export interface PlacedWord extends PageWord {
  /** Where the word is in the page text. */
  span: Span;
  /** The word's box with the page skew taken out: rows and columns are compared in this space. */
  layoutBox: Box;
}

/** Any stretch of text on a page: a line, a cell, a paragraph, a value. */
export interface TextRun {
  text: string;
  /** Page units. */
  box: Box;
  confidence: number;
  spans: Span[];
  words: PlacedWord[];
}

export interface TextLine extends TextRun {
  /** Index of the line's visual row in `PageText.rows`. */
  row: number;
  layoutBox: Box;
}

export interface PageText {
  text: string;
  lines: TextLine[];
  /** Lines side by side (table rows, label and value), top to bottom. */
  rows: TextLine[][];
}

/**
 * A gap wider than this many line heights ends a line: a column gutter or a table cell, not the
 * space between two words (about a third of a line height, even in justified text).
 */
const COLUMN_GAP_LINE_HEIGHTS = 1.4;
/** Text layer words share a line when this share of the lower one's height overlaps. */
const SAME_LINE_OVERLAP = 0.5;

/**
 * Lines of the words (tesseract's for OCR, by vertical overlap for text layers), split where a
 * column gap runs through them, ordered in rows, and the page text with every word's span.
 */
export function buildPageText(words: readonly PageWord[]): PageText {
  const slope = skewSlope(words);
  const laidOut = words.map((word) => ({ word, layoutBox: deskew(word.box, slope) }));
  const segments = groupIntoLines(laidOut).flatMap(splitAtGaps);
  const rows = groupIntoRows(segments);

  let text = '';
  const lineRows = rows.map((row, rowIndex) =>
    row.map((segment): TextLine => {
      if (text) text += '\n';
      const lineStart = text.length;
      const placed = segment.map(({ word, layoutBox }, i) => {
        if (i > 0) text += ' ';
        const span = { offset: text.length, length: word.text.length };
        text += word.text;
        return { ...word, span, layoutBox };
      });
      return {
        ...runOfWords(placed),
        spans: [{ offset: lineStart, length: text.length - lineStart }],
        row: rowIndex,
        layoutBox: unionBox(placed.map((w) => w.layoutBox)),
      };
    }),
  );
  return { text, lines: lineRows.flat(), rows: lineRows };
}

/** The run of some words in page order: text joined by single spaces, spans merged where adjacent. */
export function runOfWords(words: readonly PlacedWord[]): TextRun {
  const ordered = [...words].sort((a, b) => a.span.offset - b.span.offset);
  return {
    text: ordered.map((w) => w.text).join(' '),
    box: unionBox(ordered.map((w) => w.box)),
    confidence: meanConfidence(ordered),
    spans: mergeSpans(ordered.map((w) => w.span)),
    words: ordered,
  };
}

/** The runs of several pieces (lines of a paragraph, lines of a cell) as one. */
export function joinRuns(runs: readonly TextRun[]): TextRun {
  return runOfWords(runs.flatMap((run) => run.words));
}

/**
 * The text between two page text offsets, with boxes cut to the characters: a word holding more
 * than the range (an e-mail address right after "E-mail:") contributes only its share of width.
 */
export function runInRange(page: PageText, start: number, end: number): TextRun | undefined {
  const pieces = piecesInRange(page.lines, start, end);
  if (pieces.length === 0) return undefined;
  return {
    text: page.text.slice(start, end),
    box: unionBox(pieces.map((p) => p.box)),
    confidence: meanConfidence(pieces.map((p) => p.word)),
    spans: [{ offset: start, length: end - start }],
    words: pieces.map((p) => p.word),
  };
}

/**
 * One box per line the range touches, cut to the range's characters: what a redaction covers
 * (one box, so the spaces between the words do not tell how many there were).
 */
export function boxesInRange(page: PageText, start: number, end: number): Box[] {
  return page.lines.flatMap((line) => {
    const pieces = piecesInRange([line], start, end);
    return pieces.length ? [unionBox(pieces.map((p) => p.box))] : [];
  });
}

function piecesInRange(lines: readonly TextLine[], start: number, end: number): Array<{ word: PlacedWord; box: Box }> {
  const pieces: Array<{ word: PlacedWord; box: Box }> = [];
  for (const line of lines) {
    const [lineSpan] = line.spans;
    if (!lineSpan || lineSpan.offset >= end || lineSpan.offset + lineSpan.length <= start) continue;
    for (const word of line.words) {
      const from = Math.max(start, word.span.offset) - word.span.offset;
      const to = Math.min(end, word.span.offset + word.span.length) - word.span.offset;
      if (to <= from) continue;
      // Character widths are not known, so a part of a word gets its share of the characters.
      const share = word.box.width / word.span.length;
      pieces.push({ word, box: { ...word.box, left: word.box.left + from * share, width: (to - from) * share } });
    }
  }
  return pieces;
}

export function meanConfidence(items: readonly { confidence: number }[]): number {
  return items.length === 0 ? 0 : items.reduce((sum, item) => sum + item.confidence, 0) / items.length;
}

/** Adjacent spans (apart by one separator character) become one. */
function mergeSpans(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.offset <= last.offset + last.length + 1) {
      last.length = Math.max(last.length, span.offset + span.length - last.offset);
    } else merged.push({ ...span });
  }
  return merged;
}

interface LaidOutWord {
  word: PageWord;
  layoutBox: Box;
}

/**
 * The slope (dy/dx) of the text lines: the median over OCR lines of three words or more of the
 * least-squares fit of their centres. Text layers are upright (pdfjs applies the page rotation):
 * where most of a page's words are its text layer's, the OCR'd words of an image on it (a logo
 * set at a slant, a stamp) tell the image's slant, not the page's, and turn nothing.
 */
function skewSlope(words: readonly PageWord[]): number {
  const ocrWords = words.filter((w) => w.ocrLine !== undefined);
  if (ocrWords.length * 2 < words.length) return 0;
  const byLine = groupBy(ocrWords, (w) => w.ocrLine);
  const slopes: number[] = [];
  for (const line of byLine.values()) {
    if (line.length < 3) continue;
    const xs = line.map((w) => w.box.left + w.box.width / 2);
    const ys = line.map((w) => w.box.top + w.box.height);
    const meanX = mean(xs);
    const meanY = mean(ys);
    const spread = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
    if (spread > 0) slopes.push(xs.reduce((sum, x, i) => sum + (x - meanX) * (ys[i]! - meanY), 0) / spread);
  }
  return slopes.length > 0 ? median(slopes) : 0;
}

/** The box turned by the skew angle about the page origin, so skewed lines become level. */
function deskew(box: Box, slope: number): Box {
  if (slope === 0) return box;
  const angle = Math.atan(slope);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  const x = cx * Math.cos(angle) + cy * Math.sin(angle);
  const y = -cx * Math.sin(angle) + cy * Math.cos(angle);
  return { left: x - box.width / 2, top: y - box.height / 2, width: box.width, height: box.height };
}

/**
 * OCR words keep tesseract's lines; text layer words are grouped by vertical overlap with the
 * whole line: a word joins the line whose band (the median top and bottom of its words) holds
 * its centre while the word holds the band's centre, the line it overlaps most when several do.
 * So a tall title does not swallow the small lines beside it, and tightly set lines (footers) do
 * not interleave.
 */
function groupIntoLines(words: readonly LaidOutWord[]): LaidOutWord[][] {
  const ocrLines = groupBy(
    words.filter((w) => w.word.ocrLine !== undefined),
    (w) => w.word.ocrLine,
  );
  const lines = [...ocrLines.values()];
  // Each line's tops and bottoms kept in order: its median band after every word it takes, without
  // sorting all its words again each time (that grew with the square of a line's words).
  type Line = { words: LaidOutWord[]; tops: number[]; bottoms: number[]; top: number; bottom: number };
  const made: Line[] = [];
  // The lines a word may still join, in the order they were made. Words come by their centres,
  // top to bottom, and a line only takes a word whose centre its band holds: once a centre is
  // below a line's band, so are all the words after it, and the band moves only when it takes a
  // word, so the line is done. Comparing each word with every line made so far grew with words
  // times lines.
  let open: Line[] = [];
  const byCentre = words.filter((w) => w.word.ocrLine === undefined).sort((a, b) => centreY(a.layoutBox) - centreY(b.layoutBox));
  for (const word of byCentre) {
    const centre = centreY(word.layoutBox);
    if (open.some((line) => line.bottom < centre)) open = open.filter((line) => line.bottom >= centre);
    let best: Line | undefined;
    let bestShared = 0;
    for (const line of open) {
      const shared = sharedHeight(line, word.layoutBox);
      if (shared > bestShared) [best, bestShared] = [line, shared];
    }
    if (best) {
      best.words.push(word);
      best.top = medianOfSorted(insertSorted(best.tops, word.layoutBox.top));
      best.bottom = medianOfSorted(insertSorted(best.bottoms, word.layoutBox.top + word.layoutBox.height));
    } else {
      const [top, bottom] = [word.layoutBox.top, word.layoutBox.top + word.layoutBox.height];
      const line = { words: [word], tops: [top], bottoms: [bottom], top, bottom };
      made.push(line);
      open.push(line);
    }
  }
  return [...lines, ...made.map((line) => line.words)].map((line) => line.sort((a, b) => a.layoutBox.left - b.layoutBox.left));
}

/** How much of its height a word shares with a line's band, or 0 when they are not on one line. */
function sharedHeight(line: { top: number; bottom: number }, box: Box): number {
  const centre = centreY(box);
  const bandCentre = (line.top + line.bottom) / 2;
  const holdsWord = centre >= line.top && centre <= line.bottom;
  const wordHoldsBand = bandCentre >= box.top && bandCentre <= box.top + box.height;
  if (!holdsWord || !wordHoldsBand) return 0;
  const shared = overlap(line.top, line.bottom, box.top, box.top + box.height);
  return shared >= SAME_LINE_OVERLAP * Math.min(line.bottom - line.top, box.height) ? shared : 0;
}

function splitAtGaps(line: LaidOutWord[]): LaidOutWord[][] {
  // Dots of a leader OCR reads as tiny "words": they must not shrink the line's height.
  const heights = line.map((w) => w.layoutBox.height);
  const height = Math.max(median(heights), 0.5 * Math.max(...heights));
  const segments: LaidOutWord[][] = [];
  let previous: Box | undefined;
  for (const word of line) {
    const gap = previous ? word.layoutBox.left - (previous.left + previous.width) : 0;
    // Spaces grow with the print: between two large words (a name set large beside small print
    // OCR put on its line) the gap is measured against their own height, not the line's.
    const scale = previous ? Math.max(height, Math.min(previous.height, word.layoutBox.height)) : height;
    if (!previous || gap > COLUMN_GAP_LINE_HEIGHTS * scale) segments.push([word]);
    else segments.at(-1)!.push(word);
    previous = word.layoutBox;
  }
  return segments;
}

/**
 * Lines whose vertical centres lie within half a line height (the smaller one's) of a row's centre
 * share the row: a label and its larger value do, a title and the small lines beside it do not.
 */
function groupIntoRows(segments: LaidOutWord[][]): LaidOutWord[][][] {
  const extent = (segment: LaidOutWord[]) => unionBox(segment.map((w) => w.layoutBox));
  const sorted = segments.map((segment) => ({ segment, box: extent(segment) })).sort((a, b) => centreY(a.box) - centreY(b.box));
  const rows: Array<{ members: typeof sorted; centre: number; height: number }> = [];
  for (const item of sorted) {
    const row = rows.at(-1);
    if (row && Math.abs(centreY(item.box) - row.centre) <= 0.5 * Math.min(row.height, item.box.height)) {
      row.members.push(item);
      row.centre = mean(row.members.map((m) => centreY(m.box)));
      row.height = mean(row.members.map((m) => m.box.height));
    } else rows.push({ members: [item], centre: centreY(item.box), height: item.box.height });
  }
  return rows.map((row) => row.members.sort((a, b) => a.box.left - b.box.left).map((m) => m.segment));
}

const centreY = (box: Box) => box.top + box.height / 2;

/** Map.groupBy, which Node 20 lacks: groups in first-seen order. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function median(values: readonly number[]): number {
  return medianOfSorted([...values].sort((a, b) => a - b));
}

function medianOfSorted(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `sorted` (ascending) with `value` put in its place. */
function insertSorted(sorted: number[], value: number): number[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  sorted.splice(low, 0, value);
  return sorted;
}
