import { describe, expect, it } from 'vitest';
import { throttledProgress } from '../../src/pipeline/progress-throttle.js';

/** A send that stays on its way until the test lets it arrive. */
function heldSends() {
  const sent: number[] = [];
  const arrivals: Array<() => void> = [];
  const send = (count: number) => {
    sent.push(count);
    return new Promise<void>((resolve) => arrivals.push(resolve));
  };
  const arriveAll = async () => {
    for (const arrive of arrivals.splice(0)) arrive();
    await new Promise((r) => setImmediate(r));
  };
  return { sent, send, arriveAll };
}

describe('throttledProgress', () => {
  it('sends the first count at once, then at most one per interval, never two on their way at once', async () => {
    let clock = 0;
    const { sent, send, arriveAll } = heldSends();
    const report = throttledProgress(send, 1000, () => clock);
    report(0);
    report(1); // same instant: dropped
    expect(sent).toEqual([0]);
    clock = 1500;
    report(2); // past the interval, but 0 has not arrived yet: dropped
    expect(sent).toEqual([0]);
    await arriveAll();
    report(3);
    expect(sent).toEqual([0, 3]);
    await arriveAll();
    clock = 2000;
    report(4); // 500 ms after the last one sent
    expect(sent).toEqual([0, 3]);
    clock = 2500;
    report(5);
    expect(sent).toEqual([0, 3, 5]);
  });

  it('goes on after a count that could not be sent', async () => {
    let clock = 0;
    const sent: number[] = [];
    const report = throttledProgress(
      async (count) => {
        sent.push(count);
        throw new Error('the database is away');
      },
      1000,
      () => clock,
    );
    report(1);
    await new Promise((r) => setImmediate(r));
    clock = 1000;
    report(2);
    expect(sent).toEqual([1, 2]);
  });
});
