/**
 * Native calls a thread's termination must not cut. onnxruntime-node runs an inference
 * synchronously and then builds its result through N-API; a worker thread terminated in between
 * (a pool closing, a thread ended from outside) makes that N-API call fail with a C++ exception
 * nothing catches, and the whole process aborts ("terminate called after throwing an instance of
 * 'Napi::Error'"). So the pool closes the gate, waits for the calls under way, and only then
 * ends its threads; a call started after the gate closed fails with an EngineError instead.
 *
 * The counters live in shared memory (like ProcessSlots): every engine thread of a worker and
 * the main thread that closes the pool see the same gate.
 */
import { EngineError } from './errors.js';
import { waitAsync } from './wait-async.js';

const IN_FLIGHT = 0;
const CLOSED = 1;

/** A call refused because the engine threads are being ended. */
export class EnginesClosingError extends EngineError {}

export class NativeCallGate {
  private readonly cells: Int32Array;

  /** A gate over a buffer made by `NativeCallGate.create` (in this thread or another). */
  constructor(readonly shared: SharedArrayBuffer) {
    this.cells = new Int32Array(shared);
  }

  static create(): NativeCallGate {
    return new NativeCallGate(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  }

  get inFlight(): number {
    return Atomics.load(this.cells, IN_FLIGHT);
  }

  /** Runs `call` counted as under way, unless the gate is closed. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    // Counted before the check: a close that sets the flag after this sees the call and waits for it.
    Atomics.add(this.cells, IN_FLIGHT, 1);
    try {
      if (Atomics.load(this.cells, CLOSED)) throw new EnginesClosingError('the engine threads are stopping');
      return await call();
    } finally {
      Atomics.sub(this.cells, IN_FLIGHT, 1);
      Atomics.notify(this.cells, IN_FLIGHT);
    }
  }

  /**
   * Refuses new calls and resolves once none is under way, or after `timeoutMs` (a thread that
   * died inside a call never counts it down; ending the threads then is what was left anyway).
   */
  async close(timeoutMs: number): Promise<void> {
    Atomics.store(this.cells, CLOSED, 1);
    const deadline = Date.now() + timeoutMs;
    for (let count = this.inFlight; count > 0; count = this.inFlight) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      const waiting = waitAsync(this.cells, IN_FLIGHT, count, left);
      if (waiting.async) await waiting.value;
    }
  }
}

let gate: NativeCallGate | undefined;

/** The gate of this thread's pool (engine-thread.ts sets it); elsewhere one of the process's own. */
export function useNativeCallGate(shared: NativeCallGate): void {
  gate = shared;
}

export function nativeCallGate(): NativeCallGate {
  gate ??= NativeCallGate.create();
  return gate;
}
