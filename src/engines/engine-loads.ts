/**
 * The heavy parts an engine thread loads only on first use, counted per thread: PP-OCR's ONNX
 * sessions and the English word list (receipts and other OCR that PP-OCR reads), and released
 * again after ENGINE_IDLE_RELEASE_SECONDS without use. What a thread has loaded says what it
 * holds; the engine pool asks a thread for its counts (engine-pool.ts).
 */
export type EnginePart = 'ppocrSessions' | 'englishWords';

export type EngineLoads = Record<EnginePart, { loads: number; releases: number }>;

const counts: EngineLoads = {
  ppocrSessions: { loads: 0, releases: 0 },
  englishWords: { loads: 0, releases: 0 },
};

export function countLoad(part: EnginePart): void {
  counts[part].loads += 1;
}

export function countRelease(part: EnginePart): void {
  counts[part].releases += 1;
}

/** This thread's counts so far. */
export function engineLoads(): EngineLoads {
  return structuredClone(counts);
}

let idleReleaseMs = 5 * 60_000;

/** How long a loaded part stays unused before it is let go (ENGINE_IDLE_RELEASE_SECONDS); each thread is told at its start. */
export function useIdleRelease(ms: number): void {
  idleReleaseMs = ms;
}

/**
 * Runs `use` while the part is held, and `release` once it has gone unused for the idle time: a
 * thread that read a receipt does not keep the sessions for the rest of its life. Uses under way
 * keep it; a use after the release loads it again.
 */
export function idleReleaser(release: () => Promise<void>) {
  let inUse = 0;
  let timer: NodeJS.Timeout | undefined;
  return async function held<T>(use: () => Promise<T>): Promise<T> {
    clearTimeout(timer);
    inUse += 1;
    try {
      return await use();
    } finally {
      inUse -= 1;
      if (inUse === 0) {
        // unref: an idle thread's pending release keeps nothing alive.
        timer = setTimeout(() => void release(), idleReleaseMs);
        timer.unref();
      }
    }
  };
}
