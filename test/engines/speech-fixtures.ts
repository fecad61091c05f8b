import { fileURLToPath } from 'node:url';
import { tool } from './fixtures.js';

/** Sentences with known words, for measuring recognition. */
export const SENTENCES = [
  'the meeting will start at nine in the morning',
  'the weather is nice today',
  'please send the invoice to the office before friday',
];

export const PAUSE_SECONDS = 1.5;

/**
 * Writes SENTENCES as speech (WAV) with a pause before, between and after them.
 *
 * The recording is a committed fixture rather than synthesized per run: espeak-ng's Klatt voices
 * add random aspiration noise, so each synthesis differs and the measured word error rate moved
 * between 17% and 39% from run to run. It was made once with espeak-ng (voice en-us+klatt2,
 * -s 160; pocketsphinx recognizes the default voice far worse), PAUSE_SECONDS of silence around
 * each sentence joined with sox, and stored as FLAC.
 */
export async function speak(output: string): Promise<void> {
  await tool('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', fileURLToPath(new URL('../fixtures/spoken-sentences.flac', import.meta.url)), output]);
}

/** Word error rate: word-level edit distance (substitutions, insertions, deletions) over the reference length. */
export function wordErrorRate(reference: readonly string[], hypothesis: readonly string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (const [i, word] of reference.entries()) {
    const current = [i + 1];
    for (const [j, candidate] of hypothesis.entries()) {
      current.push(Math.min(previous[j + 1]! + 1, current[j]! + 1, previous[j]! + (word === candidate ? 0 : 1)));
    }
    previous = current;
  }
  return previous[hypothesis.length]! / reference.length;
}
