/**
 * Counters incremented by code that may run in an engine thread (OCR runs in the worker's engine
 * threads): a thread has a metrics registry of its own that nobody scrapes, so its counts travel
 * to the main thread over a BroadcastChannel. Loads no metrics library, so engine threads stay light.
 */
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

/** ocrPages: images OCRed; ocrRereads: second readings of an image read poorly the first time; pageRenders: PDF pages (or regions of them) drawn as pixels. */
export type ThreadCounter = 'ocrPages' | 'ocrRereads' | 'pageRenders';
type Sinks = Partial<Record<ThreadCounter, (n: number) => void>>;

const CHANNEL = 'docproc:thread-counts';
let sinks: Sinks = {};
let toMainThread: BroadcastChannel | undefined;
let fromThreads: BroadcastChannel | undefined;

/** Adds `n` to a counter, from the main thread or any thread of the process. */
export function countEvent(name: ThreadCounter, n = 1): void {
  if (isMainThread) {
    sinks[name]?.(n);
    return;
  }
  if (!toMainThread) {
    toMainThread = new BroadcastChannel(CHANNEL);
    toMainThread.unref();
  }
  toMainThread.postMessage({ name, n });
}

/** The main thread's counters (metrics.ts). */
export function receiveThreadCounts(counters: Sinks): void {
  sinks = { ...sinks, ...counters };
}

/** Starts taking counts from other threads (a worker process, before its engine threads run anything). */
export function listenToThreadCounts(): void {
  if (fromThreads || !isMainThread) return;
  fromThreads = new BroadcastChannel(CHANNEL);
  fromThreads.unref();
  fromThreads.onmessage = (event) => {
    const { name, n } = (event as { data: { name: ThreadCounter; n: unknown } }).data;
    if (typeof n === 'number' && Number.isFinite(n)) sinks[name]?.(n);
  };
}
