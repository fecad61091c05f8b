/**
 * The engine threads' side of engine-pool.ts: every CPU-bound step of the pipeline (PDF parsing
 * and rendering, image work, barcode decoding, OCR orchestration, redaction, the models' page
 * work) runs here, never on the worker's main thread. Models stay pure functions of their input:
 * the two things only the main thread does (storing a file, storing chunks) are calls to it over
 * the task's MessagePort.
 */
import type { MessagePort } from 'node:worker_threads';
import { workerData } from 'piscina';
import { storableJson } from '../db/storable.js';
import { compactEntities } from '../domain/stored-entities.js';
import { engineLoads, useIdleRelease } from '../engines/engine-loads.js';
import { useBundledMediaTools } from '../engines/media-tools.js';
import { useOcrSlots } from '../engines/ocr.js';
import { NativeCallGate, useNativeCallGate } from '../engines/native-call-gate.js';
import { useDetectorBands } from '../engines/paddle-ocr.js';
import { extractPdfPages } from '../engines/pdf.js';
import { ProcessSlots } from '../engines/process-slots.js';
import type { DocumentChunkResult } from '../models/model.js';
import { createModelRegistry, type ModelRegistry } from '../models/registry/registry.js';
import type { EngineReply, EngineTask, HostCall, HostCalls, HostReply, ModelSummary, StoredChunk, ThreadModelInput } from './engine-protocol.js';
import { inspectSource } from './inspect-source.js';
import { throttledProgress } from './progress-throttle.js';
import { decodeError, encodeError } from './thread-errors.js';
import type { TemplateType } from '../domain/enums.js';

/** What engine-pool.ts gives every thread (piscina's workerData). */
export interface EngineThreadData {
  asr: { ASR_URL?: string; ASR_API_KEY?: string; ASR_MODEL?: string };
  /** Whether ffmpeg and ffprobe may come from their npm packages (media-tools.ts). */
  bundledMediaTools: boolean;
  /** The worker's OCR process slots (ProcessSlots.shared), one limit for all its threads. */
  ocrSlots: SharedArrayBuffer;
  /** The pool's NativeCallGate.shared: the pool ends the threads only between native calls. */
  nativeCalls: SharedArrayBuffer;
  /** ENGINE_IDLE_RELEASE_SECONDS in ms: how long PP-OCR's sessions and the word list stay unused before they are let go. */
  idleReleaseMs: number;
  /** PPOCR_DETECTOR_BAND_PIXELS: PP-OCR's detector reads a larger input in bands of at most this many pixels; 0, whole. */
  detectorBandPixels: number;
}

useOcrSlots(new ProcessSlots((workerData as EngineThreadData).ocrSlots));
useNativeCallGate(new NativeCallGate((workerData as EngineThreadData).nativeCalls));
useBundledMediaTools((workerData as EngineThreadData).bundledMediaTools);
useIdleRelease((workerData as EngineThreadData).idleReleaseMs);
useDetectorBands((workerData as EngineThreadData).detectorBandPixels);

/**
 * Chunks go to the main thread in batches of about this much JSON (a few text pages: a page's
 * detections are about 250 KB): each is one INSERT there, short enough not to hold Postgres
 * from other queries for long, and neither side holds more than a batch of serialized result.
 */
const CHUNK_BATCH_BYTES = 1024 * 1024;

/**
 * A document's pages read so far go to the main thread (and the task row) at most this often: a
 * document of text pages reads many a second, and its progress is not worth a write per page.
 */
const PAGES_READ_INTERVAL_MS = 1000;

let registry: ModelRegistry | undefined;
function models(): ModelRegistry {
  registry ??= createModelRegistry((workerData as EngineThreadData).asr);
  return registry;
}

type Host = { call: <M extends keyof HostCalls>(method: M, args: HostCalls[M]['args']) => Promise<HostCalls[M]['result']>; close: () => void };

/** Calls to the main thread over `port`, each answered in turn (HostReply). */
function hostOn(port: MessagePort): Host {
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  port.on('message', (reply: HostReply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) waiting?.resolve(reply.value);
    else waiting?.reject(decodeError(reply.error));
  });
  return {
    call: (method, args) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        port.postMessage({ id, method, args } as HostCall);
      }),
    close: () => port.close(),
  };
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/**
 * Hands a document's chunks to the main thread batch by batch, in order, numbering them: while
 * one batch is stored there (a statement in Postgres, on another core), the next one fills here.
 * At most one batch is in flight and one filling, so neither side holds more than two batches.
 */
function chunkWriter(host: Host) {
  const confidences: number[] = [];
  let count = 0;
  let batch: string[] = [];
  let bytes = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  const send = async () => {
    await inFlight; // the batch before is stored (or its error is thrown here)
    if (batch.length === 0) return;
    const json = `[${batch.join(',')}]`;
    const sent = host.call('storeChunks', { json, count: batch.length });
    sent.catch(() => {}); // awaited by the next send or by finish
    inFlight = sent;
    batch = [];
    bytes = 0;
  };
  return {
    add: async (chunk: DocumentChunkResult) => {
      count += 1;
      if (chunk.averageConfidence !== null) confidences.push(chunk.averageConfidence);
      const row: StoredChunk = { chunkNumber: count, pageNumber: chunk.pageNumber, averageConfidence: chunk.averageConfidence, entities: compactEntities(chunk.entities) };
      // The chunk's text as Postgres can store it: the main thread passes this JSON on unparsed.
      const json = storableJson(row);
      batch.push(json);
      bytes += json.length;
      if (bytes >= CHUNK_BATCH_BYTES) await send();
    },
    /** Stores what is left and waits for every batch. */
    finish: async () => {
      await send();
      await inFlight;
      return { chunkCount: count, averageConfidence: mean(confidences) };
    },
  };
}

async function runModel(templateType: TemplateType, input: ThreadModelInput, port: MessagePort): Promise<ModelSummary> {
  const host = hostOn(port);
  const chunks = chunkWriter(host);
  try {
    const result = await models()(templateType)({
      ...input,
      saveOutput: (name, localPath) => host.call('saveOutput', { name, localPath }),
      emitChunk: chunks.add,
      reportPagesRead: throttledProgress((pages) => host.call('recordPagesRead', { pages }), PAGES_READ_INTERVAL_MS),
    });
    if (result.kind !== 'document') return result;
    // Returned chunks (models that revisit theirs) follow the emitted ones; each is let go once written.
    const returned: Array<DocumentChunkResult | undefined> = result.chunks;
    for (let index = 0; index < returned.length; index += 1) {
      const chunk = returned[index]!;
      returned[index] = undefined;
      await chunks.add(chunk);
    }
    return {
      kind: 'document',
      ...(await chunks.finish()),
      ...(result.redactedBlobKey !== undefined ? { redactedBlobKey: result.redactedBlobKey } : {}),
    };
  } finally {
    host.close();
  }
}

function perform(task: EngineTask): Promise<unknown> {
  switch (task.kind) {
    case 'inspect':
      return inspectSource(task.path);
    case 'extractPdfPages':
      return extractPdfPages(task.sourcePath, task.pages, task.outPath);
    case 'model':
      return runModel(task.templateType, task.input, task.host);
    case 'engineLoads':
      return Promise.resolve(engineLoads());
  }
}

/** piscina's entry point: one task, its answer or its error as data. */
export default async function engineThread(task: EngineTask): Promise<EngineReply<unknown>> {
  try {
    return { ok: true, value: await perform(task) };
  } catch (err) {
    return { ok: false, error: encodeError(err) };
  }
}
