/**
 * Where the pipeline's engine work runs: a pool of worker threads (piscina), so the worker's main
 * thread, and in `npm start` the api sharing it, only does database, Redis and file bookkeeping
 * and stays responsive (DESIGN.md section 7). engine-thread.ts is the threads' side.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { EngineLoads } from '../engines/engine-loads.js';
import { NativeCallGate } from '../engines/native-call-gate.js';
import { ProcessSlots } from '../engines/process-slots.js';
import type { TemplateType } from '../domain/enums.js';
import type { EngineReply, EngineTask, HostCall, HostCalls, HostReply, ModelSummary, ThreadModelInput } from './engine-protocol.js';
import type { EngineThreadData } from './engine-thread.js';
import type { SourceInspection } from './source-inspection.js';
import { decodeError, encodeError } from './thread-errors.js';

/** The engine work the pipeline steps hand off. */
export interface Engines {
  /** The source's kind, pages or minutes and size problems (inspect-source.ts). */
  inspectSource: (path: string) => Promise<SourceInspection>;
  /** Writes a PDF of the given pages of `sourcePath` to `outPath` (a split part). */
  extractPdfPages: (sourcePath: string, pages: number[], outPath: string) => Promise<void>;
  /**
   * Runs the workspace's model; while it runs, the model's calls for storing a file or a batch of
   * chunks are answered by `host` on this thread.
   */
  runModel: (templateType: TemplateType, input: ThreadModelInput, host: ModelHost) => Promise<ModelSummary>;
  /** What the thread that takes the call has loaded and released of its heavy parts (with one thread: that thread's). */
  engineLoads: () => Promise<EngineLoads>;
}

export type ModelHost = { [M in keyof HostCalls]: (args: HostCalls[M]['args']) => Promise<HostCalls[M]['result']> };

export interface EnginePool extends Engines {
  /** Ends the threads; call after the jobs using them finished. */
  close: () => Promise<void>;
}

export interface EnginePoolOptions {
  threads: number;
  /** Heap limit of each thread: one that runs out fails its task (and is replaced), not the process. */
  threadMaxMemoryMb: number;
  /** OCR processes at once over all the threads (OCR_PROCESSES); default: the machine's cores. */
  ocrProcesses?: number;
  asr: EngineThreadData['asr'];
  /** BUNDLED_MEDIA_TOOLS (media-tools.ts); default true. */
  bundledMediaTools?: boolean;
  /** ENGINE_IDLE_RELEASE_SECONDS (engine-loads.ts); default 300. */
  idleReleaseSeconds?: number;
  /** PPOCR_DETECTOR_BAND_PIXELS (paddle-ocr.ts); default 0, the detector's input in one run. */
  detectorBandPixels?: number;
  log: Pick<Logger, 'error'>;
}

/** A thread ended while running a task (out of memory, process.exit, an uncaught error): the attempt fails and is retried. */
export class EngineThreadError extends Error {
  constructor(cause: unknown) {
    super(`the engine thread stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'EngineThreadError';
  }
}

/**
 * Engine threads run at a lower scheduling priority than the main thread (Linux: nice +10 per
 * thread; tesseract children inherit it): on a machine whose cores the engines keep busy, the
 * event loop still gets the CPU when a request or a lock renewal needs it.
 */
const THREAD_NICE = 10;

const DEFAULT_IDLE_RELEASE_SECONDS = 300;

/**
 * Each engine thread's young generation (V8's nursery: new objects stay there until they survive
 * two scavenges). Reading a text page makes several MB of short-lived objects (pdf.js' text content
 * and operator list and their copies between its two sides, the words, the entities, their JSON)
 * while the next pages are read ahead; in V8's default 48 MB much of it outlived a scavenge, was
 * promoted and left to full collections. 64 MB: about a quarter less CPU a text page for some 40 MB
 * more held (docs/benchmarks.md); 96 and 128 MB gained nothing more.
 */
const THREAD_YOUNG_GENERATION_MB = 64;

/** How long closing waits for native calls under way: far longer than one inference takes. */
const CLOSE_WAIT_MS = 30_000;

/**
 * The thread's entry module. From the TypeScript sources (tsx, vitest) it is a bootstrap that
 * registers tsx in the thread first: Node 20 applies no loader given in a Worker's execArgv
 * (nodejs/node#47747), and the tsx loader this process runs under is dropped from the threads'
 * arguments for the bootstrap's own to be the only one. Compiled, it is engine-thread.js.
 */
function threadEntry(): { filename: string; execArgv: string[] } {
  const fromSources = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSources ? './engine-thread-tsx.mjs' : './engine-thread.js', import.meta.url).href;
  return { filename, execArgv: fromSources ? withoutTsxLoader(process.execArgv) : process.execArgv };
}

function withoutTsxLoader(execArgv: readonly string[]): string[] {
  const isTsx = (value: string | undefined) => value !== undefined && (value === 'tsx' || /[\\/]tsx[\\/]/.test(value));
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i]!;
    if ((arg === '--import' || arg === '--require' || arg === '--loader') && isTsx(execArgv[i + 1])) i += 1;
    else if (!/^--(import|require|loader)=/.test(arg) || !isTsx(arg.split('=')[1])) kept.push(arg);
  }
  return kept;
}

export function createEnginePool(options: EnginePoolOptions): EnginePool {
  const entry = threadEntry();
  const gate = NativeCallGate.create();
  const data: EngineThreadData = {
    asr: options.asr,
    bundledMediaTools: options.bundledMediaTools ?? true,
    ocrSlots: ProcessSlots.create(options.ocrProcesses ?? availableParallelism()).shared,
    nativeCalls: gate.shared,
    idleReleaseMs: (options.idleReleaseSeconds ?? DEFAULT_IDLE_RELEASE_SECONDS) * 1000,
    detectorBandPixels: options.detectorBandPixels ?? 0,
  };
  const pool = new Piscina<EngineTask, EngineReply<unknown>>({
    ...entry,
    // Every thread from the start (each loads the engines with its first task): a task goes to an
    // idle thread before it doubles up on a busy one.
    minThreads: options.threads,
    maxThreads: options.threads,
    // Two tasks per thread, interleaving at their awaits (a model yields between pages): a short
    // inspection or split never waits behind a long document, nor a small document behind a
    // 200-page one. DETECT_CONCURRENCY and PREPROCESS_CONCURRENCY bound the tasks in flight.
    concurrentTasksPerWorker: 2,
    // Idle threads wait on messages, so timers an engine leaves behind still run between tasks.
    atomics: 'disabled',
    niceIncrement: THREAD_NICE,
    resourceLimits: { maxOldGenerationSizeMb: options.threadMaxMemoryMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    // A thread that tracked the descriptors it opens would close them all as it exits, including
    // the FIFO (fifo-feed.ts) a socket has closed already: by then that number is another
    // socket's, often the main thread's. What a thread opens, it closes.
    trackUnmanagedFds: false,
    workerData: data,
  });
  // A thread that fails holding no task (while starting, or idle): logged, never thrown at the
  // process. One that fails in a task fails that task (run below).
  pool.on('error', (err: unknown) => options.log.error({ err }, 'engine thread failed outside a task'));

  async function run<T>(task: EngineTask, transferList: MessagePort[] = []): Promise<T> {
    let reply: EngineReply<unknown>;
    try {
      reply = await pool.run(task, { transferList });
    } catch (err) {
      throw new EngineThreadError(err);
    }
    if (!reply.ok) throw decodeError(reply.error);
    return reply.value as T;
  }

  return {
    inspectSource: (path) => run({ kind: 'inspect', path }),
    extractPdfPages: (sourcePath, pages, outPath) => run({ kind: 'extractPdfPages', sourcePath, pages, outPath }),
    engineLoads: () => run({ kind: 'engineLoads' }),
    runModel: async (templateType, input, host) => {
      const { port1, port2 } = new MessageChannel();
      port1.on('message', (call: HostCall) => {
        void answer(host, call).then((reply) => port1.postMessage(reply));
      });
      try {
        return await run<ModelSummary>({ kind: 'model', templateType, input, host: port2 }, [port2]);
      } finally {
        port1.close();
      }
    },
    // Tasks still running here are ones nobody waits for any more (the jobs have ended); they fail
    // at their next native call, and the threads end once none is under way (native-call-gate.ts).
    close: async () => {
      await gate.close(CLOSE_WAIT_MS);
      await pool.destroy();
    },
  };
}

/** The main thread's answer to a model's call: its result, or its error as data. */
async function answer(host: ModelHost, call: HostCall): Promise<HostReply> {
  try {
    let value: unknown;
    switch (call.method) {
      case 'saveOutput':
        value = await host.saveOutput(call.args);
        break;
      case 'storeChunks':
        value = await host.storeChunks(call.args);
        break;
      case 'recordPagesRead':
        value = await host.recordPagesRead(call.args);
        break;
    }
    return { id: call.id, ok: true, value };
  } catch (err) {
    return { id: call.id, ok: false, error: encodeError(err) };
  }
}
