import { z } from 'zod';
import { toIso } from '../../http/schemas.js';
import { transcriptAnnotation, transcriptItem, type TranscriptAnnotation, type TranscriptItem, type TranscriptSpeaker } from '../../domain/transcript-entities.js';
import type { ChunkRow, TranscriptRow } from './review.repository.js';
import type { ReviewChunk, ReviewTranscript } from './review.schemas.js';

const storedItems = z.array(transcriptItem);
const storedAnnotations = z.array(transcriptAnnotation);

export function reviewChunkOf(row: ChunkRow): ReviewChunk {
  return {
    chunkNumber: row.chunkNumber,
    pageNumber: row.pageNumber,
    version: row.version,
    lastModifiedBy: row.lastModifiedById,
    lastModifiedOn: toIso(row.lastModifiedOn),
    // In the export's Entity shape (findChunks); the response schema checks it on the way out.
    entities: row.entities,
  };
}

/** The stored segments and annotations, read through the export's schemas (annotations may lack who and when). */
export function storedTranscript(row: TranscriptRow): TranscriptContent {
  return { items: storedItems.parse(row.items), annotations: storedAnnotations.parse(row.annotations) };
}

export interface TranscriptContent {
  items: TranscriptItem[];
  annotations: TranscriptAnnotation[];
}

export function reviewTranscriptOf(
  row: Pick<TranscriptRow, 'totalTimeInSeconds' | 'version'>,
  content: TranscriptContent,
  speakers: TranscriptSpeaker[],
): ReviewTranscript {
  return { totalTimeInSeconds: row.totalTimeInSeconds, version: row.version, transcripts: content.items, speakers, annotations: content.annotations };
}
