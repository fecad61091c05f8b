import type { FileKind } from '../engines/file-type.js';
import type { TemplateType } from '../domain/enums.js';
import type { VendorProfileSnapshot } from './vendor-profiles/vendor-profile.js';

/**
 * The contract between the detect stage and the workspace models (a folder per document family
 * beside this file; registry/ gives each template its model). A model reads the task's source file and returns what it found; the detect stage
 * stores it (replacing any earlier result), so models never touch the database.
 */
export interface ModelInput {
  tenantId: number;
  taskId: number;
  templateType: TemplateType;
  /** Local path of the source file (the blob store's file). */
  sourcePath: string;
  kind: FileKind;
  mimeType: string | null;
  /** 1-based page numbers to process (pageRange applied; OCR models cap at 200). Empty for audio/video. */
  pages: number[];
  /** BCP 47 language of the content: transcriptLanguage for transcripts, else a hint (may be undefined). */
  language?: string;
  /** Document Anonymization: render the redacted PDF at higher resolution. */
  useHigherQuality: boolean;
  /** Template workspaces: the regions to extract (TemplateBuilderField definitions). */
  templateFields: unknown;
  /**
   * Invoice and receipt workspaces: the vendor profiles reviewers taught the workspace (an
   * extension beside the spec), loaded by the detect stage (bounded, most recently refined first). None: the general model alone.
   */
  vendorProfiles?: VendorProfileSnapshot[];
  /** A scratch directory of this run, removed after the model returns. */
  workDir: string;
  /** Where the model may keep output files (e.g. the redacted document): key -> local file path. */
  saveOutput: (name: string, localPath: string) => Promise<string>;
  /**
   * Where a document model may hand each page's chunk as soon as it is done, in page order,
   * instead of returning it: the result is stored while the next pages are read, and a long
   * document's chunks never sit in memory together. Chunks the model returns come after the ones
   * it emitted. Absent: every chunk is returned.
   */
  emitChunk?: (chunk: DocumentChunkResult) => Promise<void>;
  /**
   * Told how many pages of `pages` the model has read so far, 0 when it starts: the task's
   * progress. Returns at once (the caller records it when and how it sees fit).
   */
  reportPagesRead?: (pages: number) => void;
}

/** One page's detections as the export's Entity objects (spec: Export models). */
export interface DocumentChunkResult {
  pageNumber: number;
  entities: Record<string, unknown>[];
  averageConfidence: number | null;
}

export interface DocumentResult {
  kind: 'document';
  chunks: DocumentChunkResult[];
  /** Blob key of the redacted file (anonymization models). */
  redactedBlobKey?: string;
}

export interface TranscriptWord {
  text: string;
  offsetInSeconds: number;
  durationInSeconds: number;
  confidence: number;
}

export interface TranscriptItem {
  speakerId: string;
  start: number;
  end: number;
  duration: number;
  confidence: number;
  displayText: string;
  displayWords: TranscriptWord[];
  originalWords: TranscriptWord[];
}

export interface TranscriptResult {
  kind: 'transcript';
  totalTimeInSeconds: number;
  items: TranscriptItem[];
  /** Speakers the model found (source Detected); the default speaker when it cannot tell them apart. */
  speakers: Array<{ speakerId: string; speakerName: string; isDefault: boolean }>;
}

export type ModelResult = DocumentResult | TranscriptResult;

export type Model = (input: ModelInput) => Promise<ModelResult>;

/** A model that cannot process this input at all (wrong file kind, language without engine): no retry. */
export class ModelRejectedInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelRejectedInputError';
  }
}
