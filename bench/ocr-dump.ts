/**
 * The OCR text of image documents as the InvoicesUniversal model reads it (layout lines with each
 * line's least sure word), to tell an OCR miss from a layout or field miss:
 * `npx tsx bench/ocr-dump.ts <image> [language ...]`.
 */
import { readPages } from '../src/models/page/page-reader.js';
import { analyzeLayout } from '../src/models/page/text/page-layout.js';
import type { ModelInput } from '../src/models/model.js';

async function main() {
  const [file, ...languages] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/ocr-dump.ts <image> [language ...]');
  const input = { kind: 'image', sourcePath: file, pages: [1] } as unknown as ModelInput;
  const started = process.hrtime.bigint();
  for await (const page of readPages(input, { languages: languages.length ? languages : ['en'] })) {
    const words = await page.allWords();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const mean = words.reduce((s, w) => s + w.confidence, 0) / Math.max(1, words.length);
    console.log(`page ${page.pageNumber}: ${page.width}x${page.height}, ${words.length} words, mean confidence ${mean.toFixed(2)}, ${seconds.toFixed(1)} s`);
    for (const line of analyzeLayout(words).text.lines) console.log(`  ${line.confidence.toFixed(2)} | ${line.text}`);
  }
}

await main();
