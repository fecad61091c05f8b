import { describe, expect, it } from 'vitest';
import type { ReadCharacter } from '../../src/engines/ctc.js';
import { respellUnsureWords } from '../../src/engines/unsure-words.js';

const LEXICON = new Set(['speed', 'mart', 'counter', 'subtotal', 'care', 'cake', 'alan', 'cream', 'dream']);
const isWord = (word: string) => LEXICON.has(word.toLowerCase()) || word.toUpperCase() === 'ALAM';

/** A line as read, each character's certainty (sure unless given), and the recogniser's second reading at some positions. */
function read(text: string, certainty: Record<number, number>, second: Record<number, [string, number]>) {
  const characters: ReadCharacter[] = [...text].map((c, i) => ({ text: c, confidence: certainty[i] ?? 0.98 }));
  const secondReading = (at: number): ReadCharacter | undefined => (second[at] ? { text: second[at][0], confidence: second[at][1] } : undefined);
  return respellUnsureWords(characters, isWord, secondReading);
}
const text = (characters: ReadCharacter[]) => characters.map((c) => c.text).join('');

describe('unsure words that are no words', () => {
  it('take the second reading of an unsure letter when it makes a word, with its lower certainty', () => {
    const line = read('99 SFEED MART', { 4: 0.6 }, { 4: ['P', 0.34] });
    expect(text(line)).toBe('99 SPEED MART');
    expect(line[4]!.confidence).toBeCloseTo(0.34);
    expect(text(read('BEFORE THE COUNIER.', { 15: 0.46 }, { 15: ['T', 0.4] }))).toBe('BEFORE THE COUNTER.');
    expect(text(read('(Gubtotal', { 1: 0.63 }, { 1: ['S', 0.33] }))).toBe('(Subtotal');
  });

  it('leave words of the lexicon or the vocabulary as read, though a letter was unsure', () => {
    expect(text(read("BERRY'S CARE", { 10: 0.6 }, { 10: ['K', 0.35] }))).toBe("BERRY'S CARE");
    expect(text(read('SHAH ALAM', { 8: 0.56 }, { 8: ['N', 0.26] }))).toBe('SHAH ALAM');
  });

  it('leave a word as read when the letter was sure, the second reading faint, or no single change makes a word', () => {
    expect(text(read('SFEED', {}, { 1: ['P', 0.34] }))).toBe('SFEED');
    expect(text(read('SFEED', { 1: 0.85 }, { 1: ['P', 0.1] }))).toBe('SFEED');
    expect(text(read('Saniung', { 3: 0.68 }, { 3: ['j', 0.32] }))).toBe('Saniung');
    // Two changes each make a word ("CREAM", "DREAM" from "CREAN" read unsure twice): which one is printed is not told.
    expect(text(read('XREAN', { 0: 0.5, 4: 0.5 }, { 0: ['D', 0.3], 4: ['M', 0.45] }))).toBe('XREAN');
  });

  it('leave short words and words mixed with digits or signs inside', () => {
    expect(text(read('UAN', { 0: 0.45 }, { 0: ['M', 0.32] }))).toBe('UAN');
    expect(text(read('SF3ED', { 1: 0.6 }, { 1: ['P', 0.34] }))).toBe('SF3ED');
  });
});
