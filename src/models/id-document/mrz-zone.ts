import { parse, type ParseResult } from 'mrz';
import type { TextLine } from '../page/text/text-lines.js';

/**
 * The machine-readable zone of passports and ID cards (ICAO 9303) in OCR lines: found by its
 * shape, repaired where OCR miscounts the '<' fillers, parsed and check-digit validated by `mrz`.
 */

export interface MrzZone {
  format: MrzFormat;
  /** The zone's lines as parsed (repaired to their exact length). */
  lines: string[];
  sourceLines: TextLine[];
  result: ParseResult;
}

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

const FORMATS: ReadonlyArray<{ format: MrzFormat; lineCount: number; length: number }> = [
  { format: 'TD3', lineCount: 2, length: 44 },
  { format: 'TD2', lineCount: 2, length: 36 },
  { format: 'TD1', lineCount: 3, length: 30 },
];

/** OCR may add or drop this many fillers in a line and still be repaired. */
const LENGTH_TOLERANCE = 3;
/** Share of a line's characters that must already be MRZ characters (A-Z, 0-9, <). */
const MIN_MRZ_CHARACTER_SHARE = 0.85;

/** The zone of the page with the most valid fields, or undefined when none parses. */
export function findMrz(lines: readonly TextLine[]): MrzZone | undefined {
  const characters = lines.map((line) => mrzCharacters(line.text));
  let best: MrzZone | undefined;
  for (let start = 0; start < lines.length; start++) {
    for (const { format, lineCount, length } of FORMATS) {
      const window = characters.slice(start, start + lineCount);
      if (window.length < lineCount || !window.every((text) => text !== undefined && Math.abs(text.length - length) <= LENGTH_TOLERANCE)) continue;
      const repaired = repairNames(format, window as string[]).map((text) => fitLength(text, length));
      const result = tryParse(repaired);
      if (result && (!best || validCount(result) > validCount(best.result))) {
        best = { format, lines: repaired, sourceLines: lines.slice(start, start + lineCount), result };
      }
    }
  }
  return best;
}

/** Whether every check digit of the zone matches its field. */
export function checkDigitsValid(result: ParseResult): boolean {
  return result.details.filter((detail) => detail.field?.endsWith('CheckDigit')).every((detail) => detail.valid);
}

/** The line as MRZ characters (OCR reads '<<' as '«' and inserts spaces), or undefined when it is not such a line. */
function mrzCharacters(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '').replaceAll('«', '<<').toUpperCase();
  const mrzLike = compact.replace(/[^A-Z0-9<]/g, '').length;
  if (!compact.includes('<') || mrzLike < MIN_MRZ_CHARACTER_SHARE * compact.length) return undefined;
  return compact.replace(/[^A-Z0-9<]/g, '<');
}

/**
 * Names end in a run of fillers, where OCR sees stray marks ("<<C<<"): after three fillers in a
 * row nothing but fillers may follow within the name field.
 */
function repairNames(format: MrzFormat, lines: string[]): string[] {
  const nameLine = format === 'TD1' ? 2 : 0;
  const nameStart = format === 'TD1' ? 0 : 5;
  return lines.map((line, i) => {
    if (i !== nameLine) return line;
    const names = line.slice(nameStart);
    const end = names.indexOf('<<<');
    return end < 0 ? line : line.slice(0, nameStart) + names.slice(0, end) + '<'.repeat(names.length - end);
  });
}

/** Fillers added to or taken from the longest filler run (where OCR miscounts them) until the line has its length. */
function fitLength(line: string, length: number): string {
  let fitted = line;
  while (fitted.length !== length) {
    const run = longestFillerRun(fitted);
    if (fitted.length > length) {
      if (!run) return fitted.slice(0, length);
      fitted = fitted.slice(0, run.index) + fitted.slice(run.index + 1);
    } else {
      const at = run ? run.index : fitted.length;
      fitted = `${fitted.slice(0, at)}<${fitted.slice(at)}`;
    }
  }
  return fitted;
}

function longestFillerRun(line: string): { index: number; length: number } | undefined {
  let best: { index: number; length: number } | undefined;
  for (const match of line.matchAll(/<{2,}/g)) {
    if (!best || match[0].length > best.length) best = { index: match.index, length: match[0].length };
  }
  return best;
}

function tryParse(lines: string[]): ParseResult | undefined {
  try {
    // autocorrect reads O as 0 in digit fields and 0 as O in letter fields, the usual OCR slips.
    return parse(lines, { autocorrect: true });
  } catch {
    return undefined;
  }
}

function validCount(result: ParseResult): number {
  return result.details.filter((detail) => detail.valid).length;
}
