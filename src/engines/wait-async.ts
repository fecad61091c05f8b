/**
 * Atomics.waitAsync: sleeps until a cell of shared memory changes from `value` (another thread's
 * Atomics.notify), or for `timeoutMs`. Node has it (V8 8.7+); the ES2023 library types do not
 * declare it yet.
 */
type WaitAsync = (cells: Int32Array, index: number, value: number, timeoutMs?: number) => { async: false; value: string } | { async: true; value: Promise<string> };

export const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
