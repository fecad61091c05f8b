/**
 * A counting semaphore in shared memory: every thread that holds the same `shared` buffer (the
 * engine threads of a worker get it from engine-pool.ts) draws from one limit, so "as many OCR
 * processes as cores" holds for the whole process, however many threads and documents ask.
 */
import { waitAsync } from './wait-async.js';

const IN_USE = 0;
const LIMIT = 1;

export class ProcessSlots {
  private readonly cells: Int32Array;

  /** Slots over a buffer made by `ProcessSlots.create` (in this thread or another). */
  constructor(readonly shared: SharedArrayBuffer) {
    this.cells = new Int32Array(shared);
  }

  static create(limit: number): ProcessSlots {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a slot limit must be a positive integer, not ${limit}`);
    const slots = new ProcessSlots(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    Atomics.store(slots.cells, LIMIT, limit);
    return slots;
  }

  get limit(): number {
    return Atomics.load(this.cells, LIMIT);
  }

  /** Runs `work` once a slot is free, and frees it after, whatever `work` does. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const used = Atomics.load(this.cells, IN_USE);
      if (used < this.limit) {
        if (Atomics.compareExchange(this.cells, IN_USE, used, used + 1) === used) return;
        continue;
      }
      // Sleeps until the count changes from `used` (a release notifies); returns at once if it already has.
      const waiting = waitAsync(this.cells, IN_USE, used);
      if (waiting.async) await waiting.value;
    }
  }

  private release(): void {
    Atomics.sub(this.cells, IN_USE, 1);
    Atomics.notify(this.cells, IN_USE, 1);
  }
}
