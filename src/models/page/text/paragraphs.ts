import { overlap } from './geometry.js';
import { joinRuns, type TextLine, type TextRun } from './text-lines.js';

/** A line continues a paragraph when it starts below the paragraph's last line within this many line heights. */
const MAX_LINE_GAP_LINE_HEIGHTS = 0.8;
/** ...and its height is within this factor of that line's (a heading is not its body's first line). */
const MAX_HEIGHT_RATIO = 1.5;

/**
 * Paragraphs: lines stacked closely, overlapping horizontally, of similar height. Several
 * paragraphs may be open at once, so columns side by side each get their own.
 */
export function findParagraphs(lines: readonly TextLine[]): TextRun[] {
  const paragraphs: TextLine[][] = [];
  for (const line of [...lines].sort((a, b) => a.row - b.row || a.layoutBox.left - b.layoutBox.left)) {
    const paragraph = paragraphs.find((candidate) => continues(candidate.at(-1)!, line));
    if (paragraph) paragraph.push(line);
    else paragraphs.push([line]);
  }
  return paragraphs.map(joinRuns);
}

function continues(last: TextLine, line: TextLine): boolean {
  const a = last.layoutBox;
  const b = line.layoutBox;
  const height = Math.max(a.height, b.height);
  const gap = b.top - (a.top + a.height);
  return (
    line.row > last.row &&
    gap <= MAX_LINE_GAP_LINE_HEIGHTS * height &&
    Math.max(a.height, b.height) / Math.min(a.height, b.height) <= MAX_HEIGHT_RATIO &&
    overlap(a.left, a.left + a.width, b.left, b.left + b.width) > 0
  );
}
