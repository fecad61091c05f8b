import { describe, expect, it } from 'vitest';
import { EnginesClosingError, NativeCallGate } from '../../src/engines/native-call-gate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the native call gate', () => {
  it('closes only once the calls under way have ended, and refuses calls after', async () => {
    const gate = NativeCallGate.create();
    const call = deferred();
    const running = gate.run(() => call.promise.then(() => 'read'));
    expect(gate.inFlight).toBe(1);

    let closed = false;
    const closing = gate.close(10_000).then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);

    call.resolve();
    expect(await running).toBe('read');
    await closing;
    expect(gate.inFlight).toBe(0);
    await expect(gate.run(async () => 'late')).rejects.toBeInstanceOf(EnginesClosingError);
    expect(gate.inFlight).toBe(0);
  });

  it('is one gate for every holder of its shared memory', async () => {
    const gate = NativeCallGate.create();
    const other = new NativeCallGate(gate.shared);
    const call = deferred();
    const running = other.run(() => call.promise);
    expect(gate.inFlight).toBe(1);
    const closing = gate.close(10_000);
    call.resolve();
    await running;
    await closing;
    await expect(other.run(async () => undefined)).rejects.toBeInstanceOf(EnginesClosingError);
  });

  it('stops waiting after its timeout for a call that never ends', async () => {
    const gate = NativeCallGate.create();
    void gate.run(() => new Promise(() => undefined));
    await gate.close(100);
    expect(gate.inFlight).toBe(1);
  });
});
