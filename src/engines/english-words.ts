/**
 * English words (npm word-list: about 274,000, in lower case) as a set, loaded once per thread when
 * first asked for: the lexicon PP-OCR's unsure words are checked against (unsure-words.ts), let go
 * with PP-OCR's sessions when they have gone unused (paddle-ocr.ts).
 */
import { readFile } from 'node:fs/promises';
import wordListPath from 'word-list';
import { countLoad, countRelease } from './engine-loads.js';

let loading: Promise<ReadonlySet<string>> | undefined;

export function englishWords(): Promise<ReadonlySet<string>> {
  loading ??= readFile(wordListPath, 'utf8')
    .then((text) => {
      countLoad('englishWords');
      return new Set(text.split('\n').filter(Boolean));
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** Lets the set go (a later call loads it again). */
export function releaseEnglishWords(): void {
  if (!loading) return;
  loading = undefined;
  countRelease('englishWords');
}
