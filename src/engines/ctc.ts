/**
 * A CTC recogniser's output (for each step along the line, a probability for each class) read
 * beyond its greedy decoding: which other character a stretch of steps held.
 */

/** A character a recogniser read, and how sure it was. */
export interface ReadCharacter {
  text: string;
  confidence: number;
}

export interface CtcOutput {
  /** steps x classes probabilities, row by row. */
  scores: Float32Array;
  steps: number;
  classes: number;
}

/** Of `candidates`, the class with the highest probability at any step from `from` to `to`, and that probability. */
export function bestClassIn(output: CtcOutput, from: number, to: number, candidates: Iterable<number>): { index: number; probability: number } {
  let best = { index: -1, probability: 0 };
  for (const index of candidates) {
    for (let step = from; step <= to; step++) {
      const probability = output.scores[step * output.classes + index]!;
      if (probability > best.probability) best = { index, probability };
    }
  }
  return best;
}
