import { describe, expect, it } from 'vitest';
import type { DocumentChunkResult } from '../../../src/models/model.js';
import { layoutModel } from '../../../src/models/page/layout.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { entitiesOf, imagePdf, modelInput, renderPage, textPdf, writeFixture } from '../document-fixtures.js';

/** Pages are read several at a time (as many as OCR processes may run), and still come out in page order. */
describe('pages of a document', () => {
  const { file } = useScratchDir();
  const WORDS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];

  function firstLine(chunk: DocumentChunkResult): string | undefined {
    return (chunk.entities as Array<{ type: string; keyValues: Array<{ content: string }> }>).find((e) => e.type === 'Line')?.keyValues[0]?.content;
  }

  it('come out of OCR in page order, whatever page finishes first', async () => {
    // Pages of different sizes take different times to OCR: a later page often finishes first.
    const scans = await Promise.all(WORDS.map((word, i) => renderPage([{ text: `${word} page ${i + 1}`, x: 120, y: 160, size: 60 }], { width: 1400 + 300 * ((i + 1) % 3), height: 400 })));
    const pdf = await writeFixture(file('scans.pdf'), await imagePdf(scans));
    const result = await layoutModel(await modelInput(pdf, 'pdf', [5, 1, 2, 3, 4]));
    expect(result.kind === 'document' && result.chunks.map((c) => c.pageNumber)).toEqual([5, 1, 2, 3, 4]);
    expect([0, 1, 2, 3, 4].map((i) => entitiesOf(result, 'Line', i)[0]?.keyValues[0]?.content)).toEqual([
      'Echo page 5',
      'Alpha page 1',
      'Bravo page 2',
      'Charlie page 3',
      'Delta page 4',
    ]);
  });

  it('are handed over one by one, in order, when the caller takes them as they come (emitChunk)', async () => {
    const pdf = await writeFixture(file('text.pdf'), await textPdf(WORDS.map((word, i) => [{ text: `${word} page ${i + 1}`, x: 50, y: 80 }])));
    const emitted: DocumentChunkResult[] = [];
    const result = await layoutModel(await modelInput(pdf, 'pdf', [1, 2, 3, 4, 5], { emitChunk: async (chunk) => void emitted.push(chunk) }));
    expect(result.kind === 'document' && result.chunks).toEqual([]);
    expect(emitted.map((chunk) => [chunk.pageNumber, firstLine(chunk)])).toEqual(WORDS.map((word, i) => [i + 1, `${word} page ${i + 1}`]));
  });
});
