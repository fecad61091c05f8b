import type { Entity } from '../../domain/entities.js';
import { averageConfidence, type PageRef } from './text/entities.js';
import type { DocumentChunkResult, ModelInput } from '../model.js';
import { readPages, type ReadOptions, type SourcePage } from './page-reader.js';

/** A chunk whose entities keep their type, for models that add to them after the pages are read. */
export type EntityChunk = Omit<DocumentChunkResult, 'entities'> & { entities: Entity[] };

/**
 * Runs `detect` on each page of the input in turn: one chunk per page, in page order. With `emit`
 * (ModelInput.emitChunk, for models that do not revisit their chunks) each chunk goes there as
 * soon as its page is done and none is returned.
 */
export async function detectPerPage(
  input: ModelInput,
  options: ReadOptions,
  detect: (page: SourcePage, ref: PageRef) => Promise<Entity[]>,
  emit?: (chunk: EntityChunk) => Promise<void>,
): Promise<EntityChunk[]> {
  const chunks: EntityChunk[] = [];
  let done = 0;
  input.reportPagesRead?.(0);
  for await (const page of readPages(input, options)) {
    const entities = await detect(page, { pageNumber: page.pageNumber, chunkNumber: done + 1 });
    const chunk = { pageNumber: page.pageNumber, entities, averageConfidence: averageConfidence(entities) };
    done += 1;
    input.reportPagesRead?.(done);
    if (emit) await emit(chunk);
    else chunks.push(chunk);
  }
  return chunks;
}
