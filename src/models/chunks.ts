import type { Entity } from '../modules/exports/document-export.schemas.js';
import { averageConfidence, type PageRef } from './entities.js';
import type { DocumentChunkResult, ModelInput } from './model.js';
import { readPages, type ReadOptions, type SourcePage } from './page-reader.js';

/** A chunk whose entities keep their type, for models that add to them after the pages are read. */
export type EntityChunk = Omit<DocumentChunkResult, 'entities'> & { entities: Entity[] };

/** Runs `detect` on each page of the input in turn: one chunk per page, in page order. */
export async function detectPerPage(
  input: ModelInput,
  options: ReadOptions,
  detect: (page: SourcePage, ref: PageRef) => Promise<Entity[]>,
): Promise<EntityChunk[]> {
  const chunks: EntityChunk[] = [];
  for await (const page of readPages(input, options)) {
    const entities = await detect(page, { pageNumber: page.pageNumber, chunkNumber: chunks.length + 1 });
    chunks.push({ pageNumber: page.pageNumber, entities, averageConfidence: averageConfidence(entities) });
  }
  return chunks;
}
