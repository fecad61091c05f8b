/**
 * Words a recogniser read as a mix of letters and digits where it was unsure of the odd ones out
 * ("0T9RA" for UTARA, "Re8liti" for Realiti, "I00100000015" for 100100000015): when every
 * character of the minority kind was read with little certainty and the recogniser saw a
 * character of the majority kind there too, the word is of one kind. Codes that mix them on
 * purpose ("U13", "PJU6A", "519537-X", "118B", "1KG") keep their characters: the recogniser reads
 * those surely, or the odd one out ends a number, stands apart, or the word is too short to tell.
 */

import type { ReadCharacter } from './ctc.js';

/** A character read below this certainty may be the other kind's. */
const UNSURE = 0.9;
/** The other kind's best reading must reach this probability to be taken. */
const ALTERNATIVE = 0.1;

/** The majority kind must have this many characters at least. */
const MIN_MAJORITY = 3;

export type Kind = 'letter' | 'digit';

const kindOf = (text: string): Kind | undefined => (/^\p{L}$/u.test(text) ? 'letter' : /^\p{Nd}$/u.test(text) ? 'digit' : undefined);

/**
 * `characters` with such words made of one kind. `alternative(i, kind)` is the recogniser's best
 * reading of kind `kind` where it read character `i`, if any. Words are what spaces part.
 */
export function unmixWords<C extends ReadCharacter>(characters: readonly C[], alternative: (index: number, kind: Kind) => ReadCharacter | undefined): C[] {
  const out = [...characters];
  let start = 0;
  for (let end = 0; end <= characters.length; end++) {
    if (end < characters.length && characters[end]!.text.trim()) continue;
    unmixWord(out, start, end, alternative);
    start = end + 1;
  }
  return out;
}

function unmixWord<C extends ReadCharacter>(characters: C[], start: number, end: number, alternative: (index: number, kind: Kind) => ReadCharacter | undefined): void {
  const kinds = characters.slice(start, end).map((c) => kindOf(c.text));
  const letters = kinds.filter((k) => k === 'letter').length;
  const digits = kinds.filter((k) => k === 'digit').length;
  // Too few of the majority to tell a word ("1KG" is a quantity and its unit).
  if (letters === 0 || digits === 0 || Math.max(letters, digits) < MIN_MAJORITY || letters === digits) return;
  const majority: Kind = letters > digits ? 'letter' : 'digit';
  const odd = kinds.flatMap((kind, i) => (kind !== undefined && kind !== majority ? [start + i] : []));
  // A letter closing a number is its suffix: a unit or a block ("118B", "15/4B", "31G").
  const lastKind = kinds.findLastIndex((k) => k !== undefined);
  if (majority === 'digit' && odd.includes(start + lastKind)) return;
  // Each odd character touches one of the majority kind: "X" in "519537-X" stands apart, after a dash.
  const touches = (i: number) => kindOf(characters[i - 1]?.text ?? '') === majority || kindOf(characters[i + 1]?.text ?? '') === majority;
  const replacements = odd.map((i) => {
    const read = characters[i]!;
    const other = read.confidence < UNSURE && touches(i) ? alternative(i, majority) : undefined;
    return other && other.confidence >= ALTERNATIVE && kindOf(other.text) === majority ? other : undefined;
  });
  if (replacements.some((r) => r === undefined)) return;
  odd.forEach((i, n) => {
    characters[i] = { ...characters[i]!, ...replacements[n]! };
  });
}
