import { unionBox } from './text/geometry.js';
import type { PageWord } from './text/text-lines.js';

/**
 * Words OCR ended too early put back together: each word that `together` says goes on the word
 * before it (split-initials.ts, split-decimals.ts) is joined to it, one box, the lower confidence.
 */
export function joinAdjacentWords(words: readonly PageWord[], together: (before: PageWord, word: PageWord) => boolean): PageWord[] {
  const joined: PageWord[] = [];
  for (const word of words) {
    const previous = joined.at(-1);
    if (previous && together(previous, word)) {
      joined[joined.length - 1] = {
        ...previous,
        text: previous.text + word.text,
        box: unionBox([previous.box, word.box]),
        confidence: Math.min(previous.confidence, word.confidence),
      };
    } else joined.push(word);
  }
  return joined;
}
