import { describe, expect, it } from 'vitest';
import { Semaphore } from '../src/modules/auth/semaphore.js';

describe('Semaphore (bounds concurrent scrypt derivations)', () => {
  it('runs at most `limit` jobs at once, the others in arrival order, and survives failing jobs', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const jobs = Array.from({ length: 6 }, (_, i) =>
      semaphore.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        started.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        if (i === 1) throw new Error('job 1 fails');
        return i;
      }),
    );
    const results = Promise.allSettled(jobs);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual([0, 1]);
    // Finish jobs one by one: each frees exactly one slot for the next waiting job.
    for (let finished = 0; finished < 6; finished += 1) {
      releases[finished]!();
      await settle();
      expect(started).toEqual([0, 1, 2, 3, 4, 5].slice(0, Math.min(6, finished + 3)));
    }
    expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(peak).toBe(2);
    // Every slot came back, the failed job's too: two new jobs run at once.
    let together = 0;
    const both = [0, 1].map(() => semaphore.run(async () => (together += 1)));
    expect(together).toBe(2);
    await Promise.all(both);
  });
});
