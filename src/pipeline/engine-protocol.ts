/**
 * What the worker's main thread (engine-pool.ts) and the engine threads (engine-thread.ts) say to
 * each other. Types only: both sides import it without loading the other's modules.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TemplateType } from '../domain/enums.js';
import type { ModelInput, TranscriptResult } from '../models/model.js';
import type { EncodedError } from './thread-errors.js';

/** A model's input as it crosses to a thread: everything but its callbacks, which become calls to the host. */
export type ThreadModelInput = Omit<ModelInput, 'saveOutput' | 'emitChunk' | 'reportPagesRead'>;

export type EngineTask =
  | { kind: 'inspect'; path: string }
  | { kind: 'extractPdfPages'; sourcePath: string; pages: number[]; outPath: string }
  /** What the thread has loaded and released of its heavy engine parts (engine-loads.ts). */
  | { kind: 'engineLoads' }
  /** `host`: the port the thread calls the main thread on (HostCalls) while the model runs. */
  | { kind: 'model'; templateType: TemplateType; input: ThreadModelInput; host: MessagePort };

/** A task's answer: thrown errors travel as data, so that their class survives (thread-errors.ts). */
export type EngineReply<T> = { ok: true; value: T } | { ok: false; error: EncodedError };

/**
 * What a model in a thread asks of the main thread, which alone touches the blob store and the
 * database: `saveOutput` stores a file the model wrote in its workDir (ModelInput.saveOutput) and
 * returns its blob key; `storeChunks` stores a batch of the result's chunks, as the JSON text of
 * an array of StoredChunk, before the thread sends the next one. The thread makes that text
 * storable (db/storable.ts): the main thread passes it to Postgres unparsed. `recordPagesRead`
 * records how many pages of the document the model has read (ModelInput.reportPagesRead).
 */
export interface HostCalls {
  saveOutput: { args: { name: string; localPath: string }; result: string };
  storeChunks: { args: { json: string; count: number }; result: void };
  recordPagesRead: { args: { pages: number }; result: void };
}

export type HostCall = { [M in keyof HostCalls]: { id: number; method: M; args: HostCalls[M]['args'] } }[keyof HostCalls];
export type HostReply = { id: number } & EngineReply<unknown>;

/** One chunk row as a thread hands it over (chunkNumber: 1-based position in the result). */
export interface StoredChunk {
  chunkNumber: number;
  pageNumber: number;
  averageConfidence: number | null;
  entities: Record<string, unknown>[];
}

/** A document model's result once its chunks are stored: what the final transaction records. */
export interface DocumentSummary {
  kind: 'document';
  chunkCount: number;
  /** Mean of the chunks' confidences (those that have one). */
  averageConfidence: number | null;
  redactedBlobKey?: string;
}

/** Transcripts are one row: they come back whole. */
export type ModelSummary = DocumentSummary | TranscriptResult;
