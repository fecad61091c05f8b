/**
 * Queue depth and the age of the oldest waiting job per queue and lane, read from Redis at each
 * scrape. Lanes: the two pre-processing queues are one lane each; detect is one queue whose
 * high-priority jobs are taken first (queues.ts enqueueDetect: BullMQ priority 1, else 10); other
 * queues have one lane.
 */
import type { Queue } from 'bullmq';
import { Gauge } from 'prom-client';
import { QueueName, type Queues } from '../queues/queues.js';
import { metricsRegistry } from './metrics.js';

interface Lane {
  lane: string;
  /** BullMQ priority of the lane's jobs; 0: jobs added without one (the plain wait list). */
  priority: number;
}

const LANES: Partial<Record<string, Lane[]>> = {
  [QueueName.PreprocessHigh]: [{ lane: 'high', priority: 0 }],
  [QueueName.PreprocessLow]: [{ lane: 'low', priority: 0 }],
  [QueueName.Detect]: [
    { lane: 'high', priority: 1 },
    { lane: 'low', priority: 10 },
  ],
};
const SINGLE_LANE: Lane[] = [{ lane: 'default', priority: 0 }];
const OTHER_STATES = ['active', 'delayed', 'failed'] as const;
/** A scrape must not hang on a Redis outage (the queue connection waits for a reconnect forever). */
const SCRAPE_TIMEOUT_MS = 2_000;

interface LaneSample {
  queue: string;
  lane: string;
  waiting: number;
  oldestAgeSeconds: number;
}
interface Snapshot {
  lanes: LaneSample[];
  states: Array<{ queue: string; state: string; count: number }>;
}

const sources = new Set<Queues>();

/** Reports these queues at each scrape until the returned function is called. */
export function observeQueues(queues: Queues): () => void {
  sources.add(queues);
  return () => sources.delete(queues);
}

async function oldestAge(queue: Queue, state: 'wait' | 'prioritized', index: number, now: number): Promise<number> {
  const [job] = await queue.getJobs([state], index, index, true);
  return job ? Math.max(0, (now - job.timestamp) / 1000) : 0;
}

async function sampleQueue(queue: Queue, now: number): Promise<Snapshot> {
  const lanes = [...(LANES[queue.name] ?? SINGLE_LANE)].sort((a, b) => a.priority - b.priority);
  const [perPriority, counts] = await Promise.all([
    queue.getCountsPerPriority(lanes.map((l) => l.priority)),
    queue.getJobCounts(...OTHER_STATES),
  ]);
  // Prioritized jobs sort by priority, then age: a lane's oldest job comes after the higher lanes' jobs.
  let before = 0;
  const samples: LaneSample[] = [];
  for (const { lane, priority } of lanes) {
    const waiting = perPriority[String(priority)] ?? 0;
    const oldestAgeSeconds = waiting === 0 ? 0 : priority === 0 ? await oldestAge(queue, 'wait', 0, now) : await oldestAge(queue, 'prioritized', before, now);
    if (priority !== 0) before += waiting;
    samples.push({ queue: queue.name, lane, waiting, oldestAgeSeconds });
  }
  return { lanes: samples, states: OTHER_STATES.map((state) => ({ queue: queue.name, state, count: counts[state] ?? 0 })) };
}

async function takeSnapshot(): Promise<Snapshot> {
  const now = Date.now();
  const queues = [...sources].flatMap((group) => Object.values(group));
  const parts = await Promise.all(queues.map((queue) => sampleQueue(queue, now)));
  return { lanes: parts.flatMap((p) => p.lanes), states: parts.flatMap((p) => p.states) };
}

let pending: Promise<Snapshot | undefined> | undefined;
/** One Redis read per scrape, shared by the gauges below (prom-client collects them together). */
function snapshot(): Promise<Snapshot | undefined> {
  pending ??= (async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        takeSnapshot(),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), SCRAPE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      pending = undefined;
    }
  })();
  return pending;
}

new Gauge({
  name: 'docproc_queue_scrape_success',
  help: '1 when the queue metrics of this scrape could be read from Redis, else 0 (and the queue gauges are absent)',
  registers: [metricsRegistry],
  async collect() {
    this.set(sources.size === 0 || (await snapshot()) ? 1 : 0);
  },
});

new Gauge({
  name: 'docproc_queue_waiting_jobs',
  help: 'Jobs waiting to run, per queue and lane',
  labelNames: ['queue', 'lane'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const s of (await snapshot())?.lanes ?? []) this.set({ queue: s.queue, lane: s.lane }, s.waiting);
  },
});

new Gauge({
  name: 'docproc_queue_oldest_waiting_job_age_seconds',
  help: 'Age of the oldest waiting job per queue and lane (0 when none waits)',
  labelNames: ['queue', 'lane'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const s of (await snapshot())?.lanes ?? []) this.set({ queue: s.queue, lane: s.lane }, s.oldestAgeSeconds);
  },
});

new Gauge({
  name: 'docproc_queue_jobs',
  help: 'Jobs per queue in the states active, delayed (waiting for a retry) and failed (kept for a week)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const s of (await snapshot())?.states ?? []) this.set({ queue: s.queue, state: s.state }, s.count);
  },
});
