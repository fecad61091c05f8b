/**
 * What pre-processing learns of a source file (inspect-source.ts finds it out, in an engine
 * thread). Apart from the inspection itself, so the worker's main thread can use these types and
 * errors without loading the PDF and image engines.
 */

export interface DocumentSource {
  /** xml: an invoice's data (invoice workspaces only), one page. */
  kind: 'pdf' | 'image' | 'tiff' | 'xml';
  mimeType: string;
  pageCount: number;
  /** Set when the file breaks the spec's size limits (-> ValidationErrorInvalidDimensions). */
  dimensionProblem?: string;
}

export interface MediaSource {
  kind: 'audio' | 'video';
  mimeType: string;
  durationSeconds: number;
  /** Minutes, rounded up: what totalPages counts for audio and video. */
  minutes: number;
}

export type SourceInspection = DocumentSource | MediaSource;

export function isMediaSource(source: SourceInspection): source is MediaSource {
  return source.kind === 'audio' || source.kind === 'video';
}

export class UnsupportedFileError extends Error {}
