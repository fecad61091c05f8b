/**
 * Where the words of a pdf.js text run lie along it. pdf.js gives a run's text and its total
 * advance only; the advance of each glyph is in the page's operator list (each shown glyph
 * carries its character and width), and so are the gaps the page leaves between letters (TJ
 * offsets, moves to each glyph's place). A run is split at these, the spaces taking up the rest of
 * its advance, rather than at an equal share per character, which puts the middle words of a
 * proportional line off by a character or two.
 */
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { OperatorVisitor } from './pdf-page-walk.js';

/** The advances of one font's glyphs, in ems (font size 1), by the character they show. */
export interface FontAdvances {
  /** By code point. */
  readonly byCharacter: ReadonlyMap<number, number>;
  /** Of the glyphs known: stands for a character the page never showed in this font. */
  readonly average: number;
  /** Character spacing (Tc) in ems, when the page shows this font with one value of it only. */
  readonly charSpacing: number;
  /**
   * The gap the page leaves between two letters shown one after the other (kerning, character
   * spacing), in ems, by the pair of code points (pairKey): as the page drew them, by TJ offsets
   * or by moving to each glyph's place.
   */
  readonly pairGaps: ReadonlyMap<number, number>;
}

/** Glyph advances of a page's fonts by their pdf.js name (a text item's `fontName`). */
export type PageFontAdvances = ReadonlyMap<string, FontAdvances>;

/** Two code points as one number (code points are below 0x110000), cheaper to look up than a string. */
function pairKey(before: number, after: number): number {
  return before * 0x110000 + after;
}

/** Whether a UTF-16 unit is whitespace as a regular expression's \s has it (checked per character of every run). */
function isWhitespace(code: number): boolean {
  return (
    code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** A shown glyph as the operator list gives it (pdf.js' font Glyph, copied across its worker port). */
interface ShownGlyph {
  unicode?: unknown;
  width?: unknown;
  isSpace?: unknown;
}

/** pdf.js' glyph widths are in thousandths of the font size (its font matrix) for all but Type3 fonts. */
const GLYPH_UNITS_PER_EM = 1000;
/**
 * A gap between two letters is kerning or spacing when it is under a tenth of an em (pdf.js reads
 * a wider one as a space) and over a fifth of one back (pdf.js ends its run at a wider step back).
 */
const MAX_PAIR_GAP_EM = 0.1;
const MIN_PAIR_GAP_EM = -0.2;

interface FontTally {
  widths: Map<number, number>;
  charSpacings: Set<number>;
  pairGaps: Map<number, number>;
}

/** The text state the walk keeps through save/restore (PDF keeps it in the graphics state). */
interface TextState {
  font: string | undefined;
  size: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
}

/**
 * Collects each font's glyph advances from the operators of a page's list, in order (one walk of
 * it, pdf-page-walk.ts): the font in force (setFont, through save/restore and form XObjects) and
 * its character spacing at each showText, and the gaps between letters shown one after the other
 * on a line: the pen is followed along the line (glyph advances, spacing, TJ offsets) and across
 * moves that stay on it (Td, Tm).
 */
export class FontAdvanceTally implements OperatorVisitor {
  private readonly tallies = new Map<string, FontTally>();
  private state: TextState = { font: undefined, size: 1, charSpacing: 0, wordSpacing: 0, hScale: 1 };
  private readonly saved: TextState[] = [];
  // Along the current line, in text space from the line's origin: where the pen is, and where the
  // last letter ended (before the character spacing after it) unless a space followed it (then
  // lastFont is undefined). Fields rather than an object: this runs for every glyph of the page.
  private pen = 0;
  private lastFont: string | undefined;
  private lastCharacter = 0;
  private lastEnd = 0;
  private lineMatrix: readonly number[] | undefined = [1, 0, 0, 1, 0, 0];

  /** A move (Td, or a new matrix) starts the pen at the new origin, dx further along the line. */
  private moveAlong(dx: number): void {
    this.pen = 0;
    if (this.lastFont !== undefined) this.lastEnd -= dx;
  }

  private newLine(): void {
    this.pen = 0;
    this.lastFont = undefined;
  }

  visit(op: number, args: unknown[] | null): void {
    switch (op) {
      case OPS.save:
      case OPS.paintFormXObjectBegin:
        this.saved.push(this.state);
        break;
      case OPS.restore:
      case OPS.paintFormXObjectEnd:
        this.state = this.saved.pop() ?? this.state;
        break;
      case OPS.setFont:
        this.state = { ...this.state, font: typeof args?.[0] === 'string' ? args[0] : undefined, size: Math.abs(Number(args?.[1])) || 1 };
        break;
      case OPS.setCharSpacing:
        this.state = { ...this.state, charSpacing: Number(args?.[0]) || 0 };
        break;
      case OPS.setWordSpacing:
        this.state = { ...this.state, wordSpacing: Number(args?.[0]) || 0 };
        break;
      case OPS.setHScale:
        this.state = { ...this.state, hScale: (Number(args?.[0]) || 100) / 100 };
        break;
      case OPS.beginText:
        this.newLine();
        this.lineMatrix = [1, 0, 0, 1, 0, 0];
        break;
      case OPS.moveText:
      case OPS.setLeadingMoveText: {
        const [dx = 0, dy = 0] = (args ?? []) as number[];
        if (dy === 0) this.moveAlong(dx);
        else this.newLine();
        if (this.lineMatrix) {
          const [a, b, c, d, e, f] = this.lineMatrix as [number, number, number, number, number, number];
          this.lineMatrix = [a, b, c, d, e + dx * a + dy * c, f + dx * b + dy * d];
        }
        break;
      }
      case OPS.setTextMatrix: {
        const m = Array.from((args?.[0] ?? []) as ArrayLike<number>);
        const before = this.lineMatrix;
        // A new matrix on the same line (same scale, no turn, same baseline) moves the pen along it.
        const along = before && m.length === 6 && m[1] === 0 && m[2] === 0 && m[0] !== 0 && m[0] === before[0] && m[3] === before[3] && before[1] === 0 && before[2] === 0 && m[5] === before[5];
        if (along) this.moveAlong((m[4]! - before[4]!) / m[0]!);
        else this.newLine();
        this.lineMatrix = m.length === 6 ? m : undefined;
        break;
      }
      case OPS.nextLine:
        this.newLine();
        this.lineMatrix = undefined;
        break;
      case OPS.showText:
        if (this.state.font !== undefined && Array.isArray(args?.[0])) this.showText(this.state.font, args[0] as unknown[]);
        break;
    }
  }

  private showText(font: string, glyphs: readonly unknown[]): void {
    const { size, charSpacing, wordSpacing, hScale } = this.state;
    let tally = this.tallies.get(font);
    if (!tally) this.tallies.set(font, (tally = { widths: new Map(), charSpacings: new Set(), pairGaps: new Map() }));
    tally.charSpacings.add(charSpacing / size);
    for (const glyph of glyphs) {
      if (typeof glyph === 'number') {
        this.pen -= (glyph / GLYPH_UNITS_PER_EM) * size * hScale; // a TJ position adjustment
        continue;
      }
      if (typeof glyph !== 'object' || glyph === null) continue;
      const { unicode, width, isSpace } = glyph as ShownGlyph;
      const em = typeof width === 'number' && Number.isFinite(width) ? width / GLYPH_UNITS_PER_EM : 0;
      const character = typeof unicode === 'string' ? unicode : '';
      if (character.trim() === '') {
        if (character.length > 0 && !tally.widths.has(character.codePointAt(0)!)) tally.widths.set(character.codePointAt(0)!, em);
        this.pen += (em * size + charSpacing + (isSpace === true ? wordSpacing : 0)) * hScale;
        this.lastFont = undefined;
        continue;
      }
      const first = character.codePointAt(0)!;
      let final = first;
      if (character.length === 1 || (character.length === 2 && first > 0xffff)) {
        if (!tally.widths.has(first)) tally.widths.set(first, em);
      } else {
        // pdf.js writes a ligature glyph ("ﬁ") as its letters in the text: each gets a share.
        const letters = Array.from(character.normalize('NFKC'), (letter) => letter.codePointAt(0)!);
        if (!tally.widths.has(first)) tally.widths.set(first, em);
        for (const letter of letters) if (!tally.widths.has(letter)) tally.widths.set(letter, em / letters.length);
        final = letters.at(-1) ?? first;
      }
      if (this.lastFont === font) {
        const gap = (this.pen - this.lastEnd) / (size * hScale);
        const key = pairKey(this.lastCharacter, first);
        if (gap > MIN_PAIR_GAP_EM && gap < MAX_PAIR_GAP_EM && !tally.pairGaps.has(key)) tally.pairGaps.set(key, gap);
      }
      this.pen += em * size * hScale;
      this.lastFont = font;
      this.lastCharacter = final;
      this.lastEnd = this.pen;
      this.pen += charSpacing * hScale;
    }
  }

  /** Each font's advances, of the operators visited so far. */
  result(): PageFontAdvances {
    const fonts = new Map<string, FontAdvances>();
    for (const [name, { widths, charSpacings, pairGaps }] of this.tallies) {
      const known = [...widths.entries()].filter(([character]) => !isWhitespace(character)).map(([, width]) => width);
      if (known.length === 0) continue;
      const [charSpacing] = charSpacings;
      fonts.set(name, {
        byCharacter: widths,
        average: known.reduce((sum, width) => sum + width, 0) / known.length,
        charSpacing: charSpacings.size === 1 ? (charSpacing ?? 0) : 0,
        pairGaps,
      });
    }
    return fonts;
  }
}

/** A word of a run: its UTF-16 range in the run's text and its extent along the run, in run units. */
export interface WordSpan {
  text: string;
  index: number;
  start: number;
  end: number;
}

/**
 * An in-flow space is at most this many ems wide: pdf.js inserts a space into a run for a gap of
 * 0.1 to 0.6 em and ends the run at a wider one; a drawn space glyph with word spacing stays below.
 */
const MAX_SPACE_EM = 1;
/** When the run holds no space to take up the rest, a space is this wide (a typical Latin space). */
const DEFAULT_SPACE_EM = 0.25;

/**
 * The words of a run (`text`, `width` long, `em` its font size along the run, both in the same
 * units) at their glyph advances: each letter as wide as its glyph plus the character spacing,
 * each space taking an equal part of what the letters leave of the run's width (the space glyph,
 * word spacing, or the gap a producer moved across); when that part is not a plausible space, or
 * the run has none, everything is scaled to fit. Without the font's advances each character gets
 * an equal share of the width.
 */
export function wordSpans(text: string, width: number, em: number, font: FontAdvances | undefined): WordSpan[] {
  const matches = [...text.matchAll(/\S+/g)];
  if (matches.length === 0) return [];
  const offsets = font && em > 0 ? glyphOffsets(text, width / em, font) : undefined;
  return matches.map((match) => {
    const index = match.index;
    const last = index + match[0].length;
    if (!offsets) return { text: match[0], index, start: (width * index) / text.length, end: (width * last) / text.length };
    // A word ends where its last glyph does, before the character spacing that follows it.
    return { text: match[0], index, start: offsets.starts[index]! * em, end: offsets.ends[last - 1]! * em };
  });
}

/** Start and end of each UTF-16 unit's glyph along the run, in ems; a low surrogate has no width of its own. */
function glyphOffsets(text: string, widthEm: number, font: FontAdvances): { starts: number[]; ends: number[] } | undefined {
  // Per UTF-16 unit: the glyph's advance, the gap before it (from the letter before it), or a
  // space (sized below), or nothing (the second half of a character counted at its first).
  const advances: number[] = [];
  const gaps: number[] = [];
  let letters = 0;
  let spaces = 0;
  let unknown = 0;
  let lettersWidth = 0;
  let before: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff && i > 0) {
      advances.push(Number.NaN);
      gaps.push(0);
      continue;
    }
    const character = code >= 0xd800 && code <= 0xdbff ? text.codePointAt(i)! : code;
    if (isWhitespace(code)) {
      spaces++;
      advances.push(Number.POSITIVE_INFINITY);
      gaps.push(0);
      before = undefined;
      continue;
    }
    letters++;
    const known = font.byCharacter.get(character);
    if (known === undefined) unknown++;
    const advance = known ?? font.average;
    const gap = before === undefined ? 0 : (font.pairGaps.get(pairKey(before, character)) ?? font.charSpacing);
    advances.push(advance);
    gaps.push(gap);
    lettersWidth += gap + advance;
    before = character;
  }
  // A run mostly of characters the font never showed is better split evenly.
  if (letters === 0 || unknown * 2 > letters) return undefined;
  const spaceShare = spaces > 0 ? (widthEm - lettersWidth) / spaces : Number.NaN;
  const spaceFits = spaceShare >= 0 && spaceShare <= MAX_SPACE_EM;
  const spaceWidth = spaceFits ? spaceShare : (font.byCharacter.get(32) ?? DEFAULT_SPACE_EM);
  const total = lettersWidth + spaces * spaceWidth;
  const scale = spaceFits || total <= 0 ? 1 : widthEm / total;
  const starts: number[] = [];
  const ends: number[] = [];
  let x = 0;
  for (let i = 0; i < advances.length; i++) {
    const advance = advances[i]!;
    if (Number.isNaN(advance)) {
      starts.push(starts.at(-1) ?? x);
      ends.push(ends.at(-1) ?? x);
    } else if (advance === Number.POSITIVE_INFINITY) {
      // A space spans the whole gap between the letters around it.
      starts.push(x);
      x += spaceWidth * scale;
      ends.push(x);
    } else {
      x += gaps[i]! * scale;
      starts.push(x);
      x += advance * scale;
      ends.push(x);
    }
  }
  return { starts, ends };
}
