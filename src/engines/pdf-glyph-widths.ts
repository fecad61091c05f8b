/**
 * Where the words of a pdf.js text run lie along it. pdf.js gives a run's text and its total
 * advance only; the advance of each glyph is in the page's operator list (each shown glyph
 * carries its character and width), so a run is split at the glyph widths of its font, scaled to
 * the run's advance, rather than at an equal share per character, which puts the middle words of
 * a proportional line off by a character or two.
 */
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The advances of one font's glyphs, in ems (font size 1), by the character they show. */
export interface FontAdvances {
  readonly byCharacter: ReadonlyMap<string, number>;
  /** Of the glyphs known: stands for a character the page never showed in this font. */
  readonly average: number;
  /** Character spacing (Tc) in ems, when the page shows this font with one value of it only. */
  readonly charSpacing: number;
}

/** Glyph advances of a page's fonts by their pdf.js name (a text item's `fontName`). */
export type PageFontAdvances = ReadonlyMap<string, FontAdvances>;

/** A shown glyph as the operator list gives it (pdf.js' font Glyph, copied across its worker port). */
interface ShownGlyph {
  unicode?: unknown;
  width?: unknown;
}

/** pdf.js' glyph widths are in thousandths of the font size (its font matrix) for all but Type3 fonts. */
const GLYPH_UNITS_PER_EM = 1000;

interface FontTally {
  widths: Map<string, number>;
  charSpacings: Set<number>;
}

/**
 * Collects each font's glyph advances from one walk of a page's operator list: the font in force
 * (setFont, through save/restore and form XObjects) and its character spacing at each showText.
 */
export function pageFontAdvances(operators: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> }): PageFontAdvances {
  const tallies = new Map<string, FontTally>();
  interface TextState {
    font: string | undefined;
    size: number;
    charSpacing: number;
  }
  let state: TextState = { font: undefined, size: 1, charSpacing: 0 };
  const saved: TextState[] = [];
  const { fnArray, argsArray } = operators;
  for (let i = 0; i < fnArray.length; i++) {
    const args = argsArray[i] as unknown[] | null;
    switch (fnArray[i]) {
      case OPS.save:
      case OPS.paintFormXObjectBegin:
        saved.push(state);
        break;
      case OPS.restore:
      case OPS.paintFormXObjectEnd:
        state = saved.pop() ?? state;
        break;
      case OPS.setFont:
        state = { ...state, font: typeof args?.[0] === 'string' ? args[0] : undefined, size: Math.abs(Number(args?.[1])) || 1 };
        break;
      case OPS.setCharSpacing:
        state = { ...state, charSpacing: Number(args?.[0]) || 0 };
        break;
      case OPS.showText: {
        if (state.font === undefined || !Array.isArray(args?.[0])) break;
        let tally = tallies.get(state.font);
        if (!tally) tallies.set(state.font, (tally = { widths: new Map(), charSpacings: new Set() }));
        tally.charSpacings.add(state.charSpacing / state.size);
        for (const glyph of args[0] as unknown[]) {
          if (typeof glyph !== 'object' || glyph === null) continue; // a TJ position adjustment
          const { unicode, width } = glyph as ShownGlyph;
          if (typeof unicode !== 'string' || unicode.length === 0 || typeof width !== 'number' || !Number.isFinite(width)) continue;
          const em = width / GLYPH_UNITS_PER_EM;
          if (!tally.widths.has(unicode)) tally.widths.set(unicode, em);
          // pdf.js writes a ligature glyph ("ﬁ") as its letters in the text: each gets a share.
          const letters = unicode.normalize('NFKC');
          if (letters.length > 1) for (const letter of letters) if (!tally.widths.has(letter)) tally.widths.set(letter, em / letters.length);
        }
        break;
      }
    }
  }
  const fonts = new Map<string, FontAdvances>();
  for (const [name, { widths, charSpacings }] of tallies) {
    const known = [...widths.entries()].filter(([character]) => /\S/.test(character)).map(([, width]) => width);
    if (known.length === 0) continue;
    const [charSpacing] = charSpacings;
    fonts.set(name, {
      byCharacter: widths,
      average: known.reduce((sum, width) => sum + width, 0) / known.length,
      charSpacing: charSpacings.size === 1 ? (charSpacing ?? 0) : 0,
    });
  }
  return fonts;
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
  const advances: number[] = [];
  let letters = 0;
  let spaces = 0;
  let unknown = 0;
  // Letters that follow a letter: character spacing lies between them (a space's share holds its own).
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff && i > 0) {
      advances.push(Number.NaN); // the second half of a character counted at its first
      continue;
    }
    const character = code >= 0xd800 && code <= 0xdbff ? text.slice(i, i + 2) : text[i]!;
    if (/\s/.test(character)) {
      spaces++;
      advances.push(Number.POSITIVE_INFINITY); // a space: sized below
      continue;
    }
    if (advances.length > 0 && advances.at(-1) !== Number.POSITIVE_INFINITY) pairs++;
    letters++;
    const known = font.byCharacter.get(character);
    if (known === undefined) unknown++;
    advances.push(known ?? font.average);
  }
  // A run mostly of characters the font never showed is better split evenly.
  if (letters === 0 || unknown * 2 > letters) return undefined;
  const spacing = font.charSpacing;
  // The run's width ends with its last glyph: character spacing lies between glyphs only.
  const lettersWidth = advances.reduce((sum, advance) => (Number.isFinite(advance) ? sum + advance : sum), 0) + spacing * pairs;
  const spaceShare = spaces > 0 ? (widthEm - lettersWidth) / spaces : Number.NaN;
  const spaceWidth = spaceShare >= 0 && spaceShare <= MAX_SPACE_EM ? spaceShare : (font.byCharacter.get(' ') ?? DEFAULT_SPACE_EM);
  const total = lettersWidth + spaces * spaceWidth;
  const scale = spaceWidth === spaceShare || total <= 0 ? 1 : widthEm / total;
  const starts: number[] = [];
  const ends: number[] = [];
  let x = 0;
  for (let i = 0; i < advances.length; i++) {
    const advance = advances[i]!;
    if (Number.isNaN(advance)) {
      starts.push(starts.at(-1) ?? x);
      ends.push(ends.at(-1) ?? x);
      continue;
    }
    if (advance === Number.POSITIVE_INFINITY) {
      // A space takes the character spacing of the glyph before it into its own share.
      const before = ends.at(-1) ?? x;
      starts.push(before);
      x = before + spaceWidth * scale;
      ends.push(x);
      continue;
    }
    const previous = i > 0 && advances[i - 1] !== Number.POSITIVE_INFINITY;
    if (previous) x += spacing * scale;
    starts.push(x);
    x += advance * scale;
    ends.push(x);
  }
  return { starts, ends };
}
