/**
 * The text and geometry vendor profiles work on: the lines of a page (a model's TextLine while it
 * reads, or the Line entities stored with a reviewed document), the values of each kind a text
 * holds, where a known value is printed, and keys compared with the tolerance OCR needs. Positions
 * are shares of the page's text frame, or multiples of a label's height: the same on a shifted or
 * rescaled scan of the same layout.
 */
import type { Span } from '../../domain/entities.js';
import { plausibleYear } from '../fields/field-values.js';
import { unionBox, type Box } from '../page/text/geometry.js';
import { cents, findAmounts, findCurrencies, findDates, plainWithOffsets } from '../fields/normalize.js';

export interface ProfileWord {
  text: string;
  box: Box;
  span: Span;
  confidence: number;
}

/** A line of a page: TextLine satisfies it, and so do the Line entities of a stored result. */
export interface ProfileLine {
  text: string;
  box: Box;
  spans: Span[];
  words: readonly ProfileWord[];
}

/** What kind of value a field holds: how it is read, compared and located. */
export type ValueKind = 'identifier' | 'taxId' | 'iban' | 'date' | 'amount' | 'name' | 'currency';

/** A place in a line: character offsets in its text. */
export interface LineRange {
  line: number;
  start: number;
  end: number;
}

/** A value of a kind read from a line: where, and its normalised form. */
export interface FoundValue {
  start: number;
  end: number;
  value: string;
  /** The characters it stands for, where OCR misread some (shapedThroughOcr). */
  text?: string;
}

/** Letters and digits of a text, lower case and without diacritics: what two spellings of a name share. */
export function keyOf(text: string): string {
  return keyWithOffsets(text).key;
}

/** keyOf(text), with the index in `text` of each of its characters. */
export function keyWithOffsets(text: string): { key: string; offsets: number[] } {
  const { plain, offsets } = plainWithOffsets(text);
  let key = '';
  const kept: number[] = [];
  for (let i = 0; i < plain.length; i++) {
    if (!/[\p{L}\p{N}]/u.test(plain[i]!)) continue;
    key += plain[i];
    kept.push(offsets[i]!);
  }
  return { key, offsets: kept };
}

/** Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** How many characters OCR may have got wrong in a key of this length and still be read as it. */
export function ocrTolerance(length: number): number {
  return length < 4 ? 0 : length < 9 ? 1 : Math.floor(length / 6);
}

/** The page's text frame: the box of all its lines. Regions are shares of it. */
export function frameOf(lines: readonly ProfileLine[]): Box {
  return lines.length ? unionBox(lines.map((l) => l.box)) : { left: 0, top: 0, width: 1, height: 1 };
}

/** A box as shares of the frame (0..1 inside it). */
export function toRegion(box: Box, frame: Box): Box {
  const w = frame.width || 1;
  const h = frame.height || 1;
  return { left: (box.left - frame.left) / w, top: (box.top - frame.top) / h, width: box.width / w, height: box.height / h };
}

export function fromRegion(region: Box, frame: Box): Box {
  return { left: frame.left + region.left * frame.width, top: frame.top + region.top * frame.height, width: region.width * frame.width, height: region.height * frame.height };
}

/** The box of some characters of a line: whole words, and a share of a word cut by the range. */
export function rangeBox(line: ProfileLine, start: number, end: number): Box | undefined {
  const base = line.spans[0]?.offset ?? 0;
  const boxes: Box[] = [];
  for (const word of line.words) {
    const from = Math.max(start, word.span.offset - base);
    const to = Math.min(end, word.span.offset - base + word.span.length);
    if (to <= from || word.span.length === 0) continue;
    const share = word.box.width / word.span.length;
    boxes.push({ ...word.box, left: word.box.left + (from - (word.span.offset - base)) * share, width: (to - from) * share });
  }
  return boxes.length ? unionBox(boxes) : undefined;
}

/**
 * A label's box and its unit of length: the width of one of its characters (from its first letter
 * or digit to its last, marks around it left out). Offsets from a label are kept in this unit: a
 * text layer's boxes and OCR's are as wide for the same characters (heights are not: a font's box
 * against the ink), and a rescaled scan scales it with the page.
 */
export function labelMeasure(line: ProfileLine, start: number, end: number): { box: Box; unit: number } | undefined {
  let from = start;
  let to = end;
  while (from < to && !/[\p{L}\p{N}]/u.test(line.text[from]!)) from++;
  while (to > from && !/[\p{L}\p{N}]/u.test(line.text[to - 1]!)) to--;
  if (to <= from) return undefined;
  const box = rangeBox(line, from, to);
  if (!box || box.width <= 0 || box.height <= 0) return undefined;
  return { box, unit: box.width / (to - from) };
}

/** The words a range of a line touches. */
export function rangeWords(line: ProfileLine, start: number, end: number): ProfileWord[] {
  const base = line.spans[0]?.offset ?? 0;
  return line.words.filter((w) => w.span.offset - base < end && w.span.offset - base + w.span.length > start);
}

/**
 * The shape of an identifier: runs of letters as A, runs of digits as 9, the rest as printed
 * ("INV-2024-0117" -> "A-9-9", "FT 2024/17" -> "A 9/9"): a vendor numbers its documents alike.
 */
export function shapeOf(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\p{L}+/gu, 'A')
    .replace(/\d+/g, '9');
}

/** Escapes what a unicode-mode pattern treats as syntax (there "\\-" and "\\/" are errors, so those stay as they are). */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pattern of a shape, between word boundaries (a date's or a code's part is no match). */
function shapePattern(shape: string): RegExp {
  const body = [...shape].map((c) => (c === 'A' ? '\\p{L}+' : c === '9' ? '\\d+' : c === ' ' ? '\\s?' : escapeRegex(c))).join('');
  return new RegExp(`(?<![\\p{L}\\p{N}]|\\d[/.-])${body}(?![\\p{L}\\p{N}]|[/.-]\\d)`, 'gu');
}

/** Characters OCR reads for a digit that is printed (O for 0), and for a letter (0 for O). */
export const DIGIT_FOR: Readonly<Record<string, string>> = { O: '0', o: '0', D: '0', Q: '0', I: '1', l: '1', i: '1', '|': '1', Z: '2', z: '2', S: '5', s: '5', B: '8', G: '6', g: '9', T: '7' };
export const LETTER_FOR: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G', '7': 'T', $: 'S', '|': 'I' };
const classOf = (chars: string) => `[${chars.replace(/[\]\\^-]/g, '\\$&')}]`;

/**
 * Identifiers of a shape in OCR'd text, read through OCR's usual confusions: a run of letters
 * may hold a 0 or a 1 read for an O or an I, a run of digits an O or an l read for a 0 or a 1
 * ("FT 1/7381" for "FT T/7381"). Each value comes with the characters it stands for.
 */
export function shapedThroughOcr(kind: ValueKind, text: string, shape: string, learned?: string): FoundValue[] {
  // The learned value's runs, in the shape's order: a vendor's letters rarely change ("FT T/"), so a
  // misread one is the learned one at its place.
  const learnedRuns = learned?.match(/\p{L}+|\d+/gu) ?? [];
  const runs: Array<'A' | '9'> = [];
  const body = [...shape]
    .map((c) => {
      if (c === 'A') {
        runs.push('A');
        return `(\\p{L}+?|(?:\\p{L}|${classOf(Object.keys(LETTER_FOR).join(''))})+?)`;
      }
      if (c === '9') {
        runs.push('9');
        return `((?:\\d|${classOf(Object.keys(DIGIT_FOR).join(''))})+)`;
      }
      return c === ' ' ? '\\s?' : escapeRegex(c);
    })
    .join('');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'gu');
  const found: FoundValue[] = [];
  for (const m of text.matchAll(pattern)) {
    let fixed = m[0];
    let at = 0;
    runs.forEach((run, i) => {
      const group = m[i + 1]!;
      const index = fixed.indexOf(group, at);
      const same = learnedRuns[i]?.length === group.length ? learnedRuns[i] : undefined;
      const letter = (ch: string, j: number) => (same && /\p{L}/u.test(same[j]!) ? same[j]! : (LETTER_FOR[ch] ?? ch));
      const mapped = [...group].map((ch, j) => (run === '9' ? (/\d/.test(ch) ? ch : (DIGIT_FOR[ch] ?? ch)) : /\p{L}/u.test(ch) ? ch : letter(ch, j))).join('');
      fixed = fixed.slice(0, index) + mapped + fixed.slice(index + group.length);
      at = index + mapped.length;
    });
    // A run of digits shows at least one digit as such: "Beleg" is no "Bele9".
    if (shapeOf(fixed) !== shape || runs.some((run, i) => run === '9' && !/\d/.test(m[i + 1]!))) continue;
    found.push({ start: m.index, end: m.index + m[0].length, value: identifierValue(kind, fixed), text: fixed });
  }
  return found;
}

/** The normalised form of an identifier as the invoice model gives it. */
export function identifierValue(kind: ValueKind, text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (kind === 'iban') return trimmed.replace(/[\s-]/g, '').toUpperCase();
  if (kind === 'taxId') return trimmed.replace(/[\s.-]/g, '').toUpperCase();
  return trimmed;
}

export interface ValueOptions {
  /** Dates: the month first (an American document). */
  monthFirst?: boolean;
  /** Identifiers: their shape (shapeOf); without it, any token with a digit. */
  shape?: string;
}

/** The values of a kind a text holds, left to right. */
export function valuesIn(kind: ValueKind, text: string, options: ValueOptions = {}): FoundValue[] {
  switch (kind) {
    case 'amount':
      return findAmounts(text)
        .filter((a) => a.decimals || a.currency)
        .map((a) => {
          const start = a.currency ? Math.min(a.currency.index, a.index) : a.index;
          const end = a.currency ? Math.max(a.currency.index + a.currency.length, a.index + a.length) : a.index + a.length;
          return { start, end, value: a.value };
        });
    case 'date':
      return findDates(text, { monthFirst: options.monthFirst ?? false })
        .filter((d) => plausibleYear(d.iso))
        .map((d) => ({ start: d.index, end: d.index + d.length, value: d.iso }));
    case 'currency':
      return findCurrencies(text).map((c) => ({ start: c.index, end: c.index + c.length, value: c.code }));
    case 'name': {
      const trimmed = text.trim();
      const start = text.indexOf(trimmed);
      const readable = /\p{L}{2}/u.test(trimmed) && trimmed.length <= 80 && findDates(trimmed).length === 0 && !/@|https?:|www\./i.test(trimmed);
      return readable ? [{ start, end: start + trimmed.length, value: trimmed.replace(/\s+/g, ' ') }] : [];
    }
    default: {
      const pattern = options.shape ? shapePattern(options.shape) : /[^\s]*\d[^\s]*/gu;
      return [...text.matchAll(pattern)].map((m) => {
        const token = m[0].replace(/^[#:№]+/, '').replace(/[.,;:)]+$/, '');
        const start = m.index + m[0].indexOf(token);
        return { start, end: start + token.length, value: identifierValue(kind, token) };
      });
    }
  }
}

/** Whether two normalised values of a kind are the same value. */
export function sameValue(kind: ValueKind, a: string, b: string): boolean {
  switch (kind) {
    case 'amount':
      return Number.isFinite(Number(a)) && cents(a) === cents(b);
    case 'date':
    case 'currency':
      return a === b;
    default:
      return keyOf(a) === keyOf(b);
  }
}

/**
 * Where a known value is printed on the page: every exact occurrence (amounts and dates by value,
 * the rest by key; a name also over two lines), else the places OCR may have misread it (a key within OCR's tolerance; the
 * digits of an amount off by one).
 */
export function findValue(lines: readonly ProfileLine[], kind: ValueKind, value: string, content: string): Array<LineRange & { exact: boolean }> {
  const exact: Array<LineRange & { exact: boolean }> = [];
  const near: Array<LineRange & { exact: boolean; distance: number }> = [];
  lines.forEach((line, index) => {
    if (kind === 'amount' || kind === 'date' || kind === 'currency') {
      const found = kind === 'date' ? [...valuesIn('date', line.text, { monthFirst: false }), ...valuesIn('date', line.text, { monthFirst: true })] : valuesIn(kind, line.text);
      for (const v of found) {
        if (sameValue(kind, v.value, value)) exact.push({ line: index, start: v.start, end: v.end, exact: true });
        else if (kind === 'amount' && digitsNear(v.value, value)) near.push({ line: index, start: v.start, end: v.end, exact: false, distance: 1 });
      }
      return;
    }
    // A name is whole words: "Lieferant GmbH" is not printed in "MUSTERLIEFERANT GMBH", another seller's name.
    const bounded = (start: number, end: number) => kind !== 'name' || standsAlone(line.text, start, end);
    for (const target of new Set([keyOf(content), keyOf(value)])) {
      if (target.length < 2) continue;
      const { key, offsets } = keyWithOffsets(line.text);
      for (let at = key.indexOf(target); at >= 0; at = key.indexOf(target, at + 1)) {
        const [start, end] = [offsets[at]!, offsets[at + target.length - 1]! + 1];
        if (bounded(start, end)) exact.push({ line: index, start, end, exact: true });
      }
      const tolerance = ocrTolerance(target.length);
      if (tolerance === 0) continue;
      for (let length = target.length - tolerance; length <= target.length + tolerance; length++) {
        for (let at = 0; at + length <= key.length; at++) {
          const [start, end] = [offsets[at]!, offsets[at + length - 1]! + 1];
          if (!bounded(start, end)) continue;
          const distance = editDistance(key.slice(at, at + length), target, tolerance);
          if (distance > 0 && distance <= tolerance) near.push({ line: index, start, end, exact: false, distance });
        }
      }
    }
  });
  if (kind === 'name' && exact.length === 0) exact.push(...overTwoLines(lines, keyOf(value)));
  if (exact.length) return dedupe(exact);
  return dedupe(near.sort((a, b) => a.distance - b.distance));
}

/** The characters start..end of a text are whole words: no letter or digit glued to either end. */
export function standsAlone(text: string, start: number, end: number): boolean {
  const glued = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  return !glued(text[start - 1]) && !glued(text[end]);
}

/** A text with its key and the offsets of the key's characters (keyWithOffsets), worked out once for many comparisons. */
export interface KeyedText {
  text: string;
  key: string;
  offsets: number[];
}

export function keyedText(text: string): KeyedText {
  return { text, ...keyWithOffsets(text) };
}

/** The text prints the name (its key, keyOf) as whole words. */
export function printsName({ text, key, offsets }: KeyedText, nameKey: string): boolean {
  for (let at = key.indexOf(nameKey); at >= 0; at = key.indexOf(nameKey, at + 1)) {
    if (standsAlone(text, offsets[at]!, offsets[at + nameKey.length - 1]! + 1)) return true;
  }
  return false;
}

/**
 * A name printed over two lines of a letterhead ("MVM Musterhafter" over "Versicherungsverein
 * Musterstadt a.G."): the first line, where it begins the name and the line right under it, in
 * the same column, carries on with the rest.
 */
function overTwoLines(lines: readonly ProfileLine[], target: string): Array<LineRange & { exact: boolean }> {
  const found: Array<LineRange & { exact: boolean }> = [];
  lines.forEach((line, index) => {
    const head = keyOf(line.text);
    if (head.length < 2 || head.length >= target.length || !target.startsWith(head)) return;
    const h = line.box.height;
    const under = lines.find((l) => {
      const gap = l.box.top - (line.box.top + h);
      return l !== line && gap >= -0.3 * h && gap <= h && Math.abs(l.box.left - line.box.left) <= 2 * h;
    });
    if (under && keyOf(under.text).startsWith(target.slice(head.length))) found.push({ line: index, start: 0, end: line.text.length, exact: true });
  });
  return found;
}

/** Amounts whose digits differ in one place (OCR read a 3 for an 8). */
function digitsNear(a: string, b: string): boolean {
  const da = a.replace(/\D/g, '');
  const db = b.replace(/\D/g, '');
  return da.length >= 3 && da.length === db.length && editDistance(da, db, 1) === 1;
}

function dedupe<T extends LineRange>(ranges: T[]): T[] {
  const seen = new Set<string>();
  return ranges.filter((r) => {
    const key = `${r.line}:${r.start}:${r.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True at a word's start (or end): no letter or digit on the outer side. */
export function atWordBoundary(text: string, start: number, end: number): boolean {
  return !/[\p{L}\p{N}]/u.test(text[start - 1] ?? ' ') && !/[\p{L}\p{N}]/u.test(text[end] ?? ' ');
}

/** Where a label's key is printed: exact occurrences at word boundaries first, then ones within OCR's tolerance. */
export function findLabel(lines: readonly ProfileLine[], labelKey: string): Array<LineRange & { exact: boolean }> {
  const found: Array<LineRange & { exact: boolean }> = [];
  const tolerance = ocrTolerance(labelKey.length);
  lines.forEach((line, index) => {
    const { key, offsets } = keyWithOffsets(line.text);
    for (let length = labelKey.length - tolerance; length <= labelKey.length + tolerance; length++) {
      for (let at = 0; at + length <= key.length; at++) {
        const piece = key.slice(at, at + length);
        const distance = piece === labelKey ? 0 : tolerance ? editDistance(piece, labelKey, tolerance) : 1;
        if (distance > tolerance) continue;
        const start = offsets[at]!;
        const end = offsets[at + length - 1]! + 1;
        if (atWordBoundary(line.text, start, end)) found.push({ line: index, start, end, exact: distance === 0 });
      }
    }
  });
  return dedupe(found.sort((a, b) => Number(b.exact) - Number(a.exact)));
}
