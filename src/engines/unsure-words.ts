/**
 * A word the recogniser was unsure of that is no word, while its second reading of one unsure
 * letter makes one ("SFEED" -> SPEED, "COUNIER" -> COUNTER, "Gubtotal" -> Subtotal): that word is
 * what is printed. Only one letter is changed, and only when exactly one such change makes a word;
 * a name the lexicon does not hold ("Saniung", "Derbang") stays as read.
 */
import type { ReadCharacter } from './ctc.js';

/** A letter read below this certainty may be another. */
const UNSURE = 0.7;
/** The second reading must reach this probability to be taken. */
const SECOND_READING = 0.2;
/** Shorter words are too often words whichever letter they have. */
const MIN_LETTERS = 4;

/**
 * `characters` with such words respelled. `isWord` tells a word of the lexicon; `secondReading(i)`
 * is the recogniser's best other letter where it read character `i`. Words are what spaces part;
 * a word is one run of letters, with signs before or after it ("COUNIER.", "(Gubtotal").
 */
export function respellUnsureWords<C extends ReadCharacter>(characters: readonly C[], isWord: (word: string) => boolean, secondReading: (index: number) => ReadCharacter | undefined): C[] {
  const out = [...characters];
  let start = 0;
  for (let end = 0; end <= characters.length; end++) {
    if (end < characters.length && characters[end]!.text.trim()) continue;
    respellWord(out, start, end, isWord, secondReading);
    start = end + 1;
  }
  return out;
}

const isLetter = (text: string) => /^\p{L}$/u.test(text);

function respellWord<C extends ReadCharacter>(characters: C[], start: number, end: number, isWord: (word: string) => boolean, secondReading: (index: number) => ReadCharacter | undefined): void {
  const letters: number[] = [];
  for (let i = start; i < end; i++) if (isLetter(characters[i]!.text)) letters.push(i);
  // One run of letters, long enough.
  if (letters.length < MIN_LETTERS || letters.at(-1)! - letters[0]! !== letters.length - 1) return;
  const spelled = (at?: number, letter?: string) => letters.map((i) => (i === at ? letter : characters[i]!.text)).join('');
  if (isWord(spelled())) return;
  const changes: Array<{ at: number; reading: ReadCharacter }> = [];
  for (const at of letters) {
    const read = characters[at]!;
    if (read.confidence >= UNSURE) continue;
    const second = secondReading(at);
    if (!second || second.confidence < SECOND_READING || !isLetter(second.text) || second.text.toLowerCase() === read.text.toLowerCase()) continue;
    if (isWord(spelled(at, second.text))) changes.push({ at, reading: second });
  }
  if (changes.length !== 1) return;
  const [{ at, reading }] = changes as [(typeof changes)[number]];
  characters[at] = { ...characters[at]!, text: reading.text, confidence: reading.confidence };
}
