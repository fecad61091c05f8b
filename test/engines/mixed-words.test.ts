import { describe, expect, it } from 'vitest';
import { unmixWords, type Kind } from '../../src/engines/mixed-words.js';
import { bestClassIn, type ReadCharacter } from '../../src/engines/ctc.js';

/**
 * A line as read ("0T9RA"), each character's certainty, and what the recogniser saw of the other
 * kind where it read each: `seen` maps a position to the other kind's character and probability.
 */
function line(text: string, certainty: number[], seen: Record<number, [string, number]> = {}) {
  const characters: ReadCharacter[] = [...text].map((c, i) => ({ text: c, confidence: certainty[i] ?? 0.99 }));
  const alternative = (at: number, kind: Kind): ReadCharacter | undefined => {
    const entry = seen[at];
    if (!entry) return undefined;
    const [other, probability] = entry;
    return (kind === 'letter') === /\p{L}/u.test(other) ? { text: other, confidence: probability } : undefined;
  };
  return unmixWords(characters, alternative).map((c) => c.text).join('');
}

describe('words read as a mix of letters and digits', () => {
  it('are letters where the recogniser doubted its digits and saw letters there', () => {
    expect(line('JINJANG 0T9RA', [...Array(8).fill(0.99), 0.69, 0.56, 0.51, 0.94, 0.57], { 8: ['U', 0.17], 10: ['A', 0.44] })).toBe('JINJANG UTARA');
    expect(line('Re8liti', [0.99, 0.99, 0.68], { 2: ['a', 0.19] })).toBe('Realiti');
  });

  it('are digits where it doubted a letter inside or before a number', () => {
    expect(line('LOT 2B11', [0.99, 0.99, 0.99, 1, 0.99, 0.63], { 5: ['8', 0.31] })).toBe('LOT 2811');
    expect(line('I00100000015-', [0.56], { 0: ['1', 0.38] })).toBe('100100000015-');
  });

  it('keep characters read surely, or whose other reading is faint', () => {
    expect(line('PJU6A', [0.99, 0.99, 0.99, 0.97], { 3: ['G', 0.02] })).toBe('PJU6A');
    expect(line('Re8liti', [0.99, 0.99, 0.68], { 2: ['a', 0.05] })).toBe('Re8liti');
  });

  it('stay as read when one odd character has no reading of the other kind', () => {
    expect(line('N9R7', [0.45, 0.83, 0.92, 0.49], { 1: ['A', 0.06], 3: ['T', 0.48] })).toBe('N9R7');
    expect(line('SEKSYEN 0T9RA', [...Array(8).fill(0.99), 0.69, 0.56, 0.51], { 8: ['U', 0.17] })).toBe('SEKSYEN 0T9RA');
  });

  it('keep codes that mix them on purpose: a letter ending a number, one apart after a dash, short words', () => {
    expect(line('7/118B,', [0.99, 0.99, 0.99, 0.99, 0.99, 0.81], { 5: ['8', 0.12] })).toBe('7/118B,');
    expect(line('(519537-X)', [...Array(8).fill(0.99), 0.5], { 8: ['8', 0.4] })).toBe('(519537-X)');
    expect(line('1KG', [0.78], { 0: ['I', 0.11] })).toBe('1KG');
  });
});

describe('the other characters a CTC output holds', () => {
  it('gives the class with the highest probability over the steps of a character, among those asked for', () => {
    // Three steps, four classes (0 blank): step 1 reads class 1 (a digit), class 3 (a letter) close behind at step 2.
    const scores = Float32Array.from([0.9, 0.05, 0.03, 0.02, 0.1, 0.6, 0.1, 0.2, 0.2, 0.3, 0.1, 0.4]);
    const output = { scores, steps: 3, classes: 4 };
    expect(bestClassIn(output, 1, 2, [2, 3])).toEqual({ index: 3, probability: expect.closeTo(0.4, 5) });
    expect(bestClassIn(output, 1, 1, [2, 3])).toEqual({ index: 3, probability: expect.closeTo(0.2, 5) });
    expect(bestClassIn(output, 0, 0, [])).toEqual({ index: -1, probability: 0 });
  });
});
