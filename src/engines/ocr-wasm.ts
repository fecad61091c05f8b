import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker as Thread } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import { THRESHOLDING_METHOD, type OcrThreshold } from './ocr-threshold.js';
import { EngineError, EngineTimeoutError, errorMessage, UnsupportedLanguageError } from './errors.js';

const ENGINE = 'tesseract.js';
// A worker keeps its models and the WASM heap in memory; one left unused this long is ended and made again when needed.
const IDLE_MS = 60_000;

const resolveModule = createRequire(import.meta.url).resolve;

/** What both engines are told besides the image and the models. */
export interface TsvOptions {
  dpi?: number;
  /** How tesseract segments the image, see OcrOptions.layout. */
  layout?: 'page' | 'column';
  /** How ink is told from paper, see OcrOptions.threshold. */
  threshold?: OcrThreshold;
  timeoutMs: number;
}

interface LoadedWorker {
  api: Tesseract.Worker;
  /** tesseract.js keeps its worker_threads Worker as `worker` on the object it returns (not in its types). */
  thread: Thread | undefined;
}

/**
 * The integer LSTM models: tesseract.js loads its LSTM-only core by default, and the package's other
 * folder (4.0.0) only adds the legacy engine's data. Throws UnsupportedLanguageError when not installed.
 */
function traineddataFile(code: string): string {
  try {
    return resolveModule(`@tesseract.js-data/${code}/4.0.0_best_int/${code}.traineddata.gz`);
  } catch {
    throw new UnsupportedLanguageError(code);
  }
}

/** Whether tesseract.js, its WASM core and the default (English) model resolve from node_modules. */
export function wasmOcrAvailable(): boolean {
  try {
    // The core is tesseract.js's own dependency: resolve it the way its worker will, from its package.
    createRequire(resolveModule('tesseract.js')).resolve('tesseract.js-core/package.json');
    traineddataFile('eng');
    return true;
  } catch {
    return false;
  }
}

/**
 * tesseract.js reads all the models of a worker from one langPath folder, while each
 * @tesseract.js-data package keeps its language in a folder of its own, and its other way in
 * ({ code, data } objects) is broken in v7: initialize passes the data as the language name. So the
 * worker reads them from a temporary folder of links, removed once the models are in the worker.
 */
async function startWorker(languages: readonly string[]): Promise<LoadedWorker> {
  const files = languages.map(traineddataFile);
  const langPath = await mkdtemp(path.join(tmpdir(), 'tesseract-js-lang-'));
  try {
    await Promise.all(files.map((file, i) => symlink(file, path.join(langPath, `${languages[i]}.traineddata.gz`))));
    const api = await new Promise<Tesseract.Worker>((resolve, reject) => {
      Tesseract.createWorker(languages.join('+'), Tesseract.OEM.LSTM_ONLY, {
        // A local langPath is read with fs; left unset, tesseract.js downloads the models from a CDN.
        langPath,
        gzip: true,
        // Otherwise tesseract.js writes the unpacked models to the working directory as a cache.
        cacheMethod: 'none',
        // tesseract.js throws failures it is not given a handler for from a message listener, which
        // crashes the process, and never settles createWorker when loading the models fails.
        // Failures of later jobs also reject their own promises, so this only matters here.
        errorHandler: (error: unknown) => reject(new EngineError(`${ENGINE} could not start: ${errorMessage(error)}`)),
      }).then(resolve, reject);
    });
    // Tesseract's library default is a single block of text; the CLI that the native engine runs
    // segments the page automatically, which gives the same block/paragraph/line numbering.
    await api.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO });
    return { api, thread: (api as Tesseract.Worker & { worker?: Thread }).worker };
  } finally {
    await rm(langPath, { recursive: true, force: true });
  }
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new EngineTimeoutError(ENGINE, timeoutMs));
    }, timeoutMs);
  });
  // Work abandoned at the timeout may still fail afterwards (its worker is gone): not an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The worker of one language set. Its jobs run one at a time, so the dpi set for one cannot leak into
 * another and a job that times out is stopped by ending the worker without losing anyone else's.
 */
class LanguageWorker {
  private worker: Promise<LoadedWorker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private jobs = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly languages: readonly string[]) {}

  recognize(image: Buffer, options: TsvOptions): Promise<string> {
    this.jobs += 1;
    clearTimeout(this.idleTimer);
    const result = this.queue.then(() => this.run(image, options));
    const done = () => this.jobDone();
    this.queue = result.then(done, done);
    return result;
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.then(
      ({ api }) => api.terminate(),
      () => undefined,
    );
  }

  private async run(image: Buffer, { dpi, layout, threshold = 'global', timeoutMs }: TsvOptions): Promise<string> {
    const work = async () => {
      const { api, thread } = await this.loaded();
      // An idle worker thread is unref'd so it never keeps the process alive; a running job must.
      thread?.ref();
      try {
        await api.setParameters({
          user_defined_dpi: dpi ? String(Math.round(dpi)) : '0',
          tessedit_pageseg_mode: layout === 'column' ? Tesseract.PSM.SINGLE_COLUMN : Tesseract.PSM.AUTO,
          thresholding_method: THRESHOLDING_METHOD[threshold],
        });
        const { data } = await api.recognize(image, {}, { text: false, tsv: true });
        return data.tsv ?? '';
      } catch (error) {
        if (error instanceof EngineError) throw error;
        throw new EngineError(`${ENGINE} failed: ${errorMessage(error)}`, { cause: error });
      } finally {
        if (this.jobs === 1) thread?.unref();
      }
    };
    const job = work();
    return withTimeout(job, timeoutMs, () => this.detachAfter(job));
  }

  /**
   * A job cannot be cancelled inside a worker. Ending the worker at once would let the abandoned
   * job call into a terminated worker, which tesseract.js answers with a rejection nobody can
   * handle; so the worker is detached (new jobs get a new one) and ended once the job settles.
   */
  private detachAfter(job: Promise<unknown>): void {
    const detached = this.worker;
    this.worker = undefined;
    void job
      .catch(() => undefined)
      .then(() => detached?.then(({ api }) => api.terminate(), () => undefined))
      .catch(() => undefined); // nobody waits for this ending: a failure of it must not be an unhandled rejection
  }

  private loaded(): Promise<LoadedWorker> {
    if (!this.worker) {
      const starting = startWorker(this.languages);
      this.worker = starting;
      // A worker that failed to start, or whose thread died, is replaced by the next job (unless
      // one was started since).
      const forget = () => {
        if (this.worker === starting) this.worker = undefined;
      };
      starting.then(({ thread }) => {
        // tesseract.js listens to its thread's messages only: a thread that dies (its WASM
        // aborts, it runs out of memory) would emit an 'error' nobody handles, which ends the
        // process. Its job, if any, fails at its timeout.
        thread?.on('error', forget);
        thread?.on('exit', forget);
      }, forget);
    }
    return this.worker;
  }

  private jobDone(): void {
    this.jobs -= 1;
    if (this.jobs === 0) this.idleTimer = setTimeout(() => void this.close().catch(() => undefined), IDLE_MS).unref();
  }
}

const workers = new Map<string, LanguageWorker>();

/**
 * Tesseract's TSV for an image (PNG buffer or file path), recognized offline by tesseract.js with the
 * models of the given tesseract language codes, the first the main one.
 */
export async function wasmOcrTsv(image: Buffer | string, languages: readonly string[], options: TsvOptions): Promise<string> {
  // Read here: tesseract.js fetches a string that looks like a URL instead of opening it.
  const data = typeof image === 'string' ? await readFile(image) : image;
  const key = languages.join('+');
  let worker = workers.get(key);
  if (!worker) workers.set(key, (worker = new LanguageWorker(languages)));
  return worker.recognize(data, options);
}

/** Ends every tesseract.js worker now rather than when idle (tests, shutdown). */
export async function closeWasmOcr(): Promise<void> {
  const closing = [...workers.values()].map((worker) => worker.close());
  workers.clear();
  await Promise.all(closing);
}
