import type { Bounds, ListQuery, RequestShape, Scenario } from './protocol.js';

/** The targets the service is held to, at 1M tasks on 2 cores. */
export const TARGET_P99_MS = { create: 50, status: 10, list: 100 } as const;
export const TARGET_CREATES_PER_SECOND = 500;

export interface BenchScenario extends Scenario {
  /** p99 latency the scenario must stay under. */
  targetP99Ms?: number;
  /** Requests per second the scenario must reach. */
  targetRequestsPerSecond?: number;
}

export interface ScenarioOptions {
  concurrency: number;
  /** Measured seconds per scenario (warm-up is shorter). */
  seconds: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE_SIZE = '50';
/** Pages 1..10 at random: a client paging through the first results, not one cached page. */
const MAX_PAGE = 10;

/** The first day of the seeded year, so the window covers every seeded task. */
export function yearAgo(now = new Date()): string {
  return new Date(now.getTime() - 365 * DAY_MS).toISOString().slice(0, 10);
}

function scenario(name: string, shape: RequestShape, concurrency: number, measure: Bounds, warmup: Bounds, targetP99Ms?: number): BenchScenario {
  return { name, target: 'app', shape, concurrency, warmup, measure, ...(targetP99Ms !== undefined ? { targetP99Ms } : {}) };
}

/** The same load on the peer (bench/lib/peer.ts), which has no targets of its own. */
export function peerTwin(sc: BenchScenario): Scenario {
  return { name: `${sc.name} [peer]`, target: 'peer', shape: sc.shape, concurrency: sc.concurrency, warmup: sc.warmup, measure: sc.measure };
}

/**
 * Every scenario at the load concurrency, plus a few at concurrency 1: those show a request's own
 * cost without queueing behind others, which tells a slow query from a saturated machine.
 */
export function benchScenarios(options: ScenarioOptions, startDate = yearAgo()): BenchScenario[] {
  const c = options.concurrency;
  const s = options.seconds;
  // Measured for the full duration unless a scenario is very fast: a few seconds of a fast
  // scenario would be dominated by the odd GC pause or scheduling hiccup of this shared machine.
  const reads: Bounds = { requests: 50_000, seconds: s };
  const lists: Bounds = { requests: 5_000, seconds: s };
  // V8 optimises the hot paths (fastify, pg, Prisma, zod) only after thousands of requests; a
  // warm-up of a few hundred measured the JIT instead of the service (status p99 13-15 ms after
  // 200 requests, 7 ms after 5,000, same code).
  const warm: Bounds = { requests: 5_000, seconds: Math.max(2, s / 2) };
  const filtered = { startDate, taskStatus: '3', pageSize: PAGE_SIZE };
  const list = (query: ListQuery): RequestShape => ({ kind: 'list', query, maxPage: MAX_PAGE });
  const status = TARGET_P99_MS.status;
  const paged = TARGET_P99_MS.list;
  return [
    {
      ...scenario('create task', { kind: 'create' }, c, { requests: 5_000, seconds: s }, { requests: 1_000, seconds: warm.seconds }, TARGET_P99_MS.create),
      targetRequestsPerSecond: TARGET_CREATES_PER_SECOND,
    },
    scenario('status by taskid', { kind: 'status' }, c, reads, warm, status),
    scenario('status by taskid (c=1)', { kind: 'status' }, 1, { requests: 1000, seconds: s / 2 }, warm, status),
    scenario('list status=3, sort default', list(filtered), c, lists, warm, paged),
    scenario('list status=3, sort=-createdOn', list({ ...filtered, sort: '-createdOn' }), c, lists, warm, paged),
    scenario('list status=3, sort=-taskId', list({ ...filtered, sort: '-taskId' }), c, lists, warm, paged),
    scenario('list status=3, sort=displayName', list({ ...filtered, sort: 'displayName' }), c, lists, warm, paged),
    // The backlog itself (the newest tasks), and two statuses merged past it.
    scenario('list status=30 (backlog), sort=-taskId', list({ ...filtered, taskStatus: '30', sort: '-taskId' }), c, lists, warm, paged),
    scenario('list status=3+4, sort=-taskId', list({ ...filtered, taskStatus: ['3', '4'], sort: '-taskId' }), c, lists, warm, paged),
    scenario('list status=3, sort default (c=1)', list(filtered), 1, lists, warm, paged),
    scenario('list startDate only', list({ startDate, pageSize: PAGE_SIZE }), c, lists, warm, paged),
    // The other documented sorts, over the whole year: each must walk an index, not sort the year.
    ...['-taskStatus', 'integrationStatus', '-preProcessingStartedOn', 'totalPages'].map((sort) =>
      scenario(`list startDate only, sort=${sort}`, list({ startDate, pageSize: PAGE_SIZE, sort }), c, lists, warm, paged),
    ),
    scenario('list startDate only (c=1)', list({ startDate, pageSize: PAGE_SIZE }), 1, lists, warm, paged),
  ];
}

/** Longest the whole load may take, with room for the last requests to come back. */
export function loadDeadlineSeconds(scenarios: readonly Scenario[]): number {
  return scenarios.reduce((sum, sc) => sum + sc.warmup.seconds + sc.measure.seconds, 0) + 120;
}
