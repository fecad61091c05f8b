/**
 * What the benchmark process and its load-client child exchange over IPC. The client runs in a
 * process of its own so that building requests and timing them never competes with the app for
 * the app's event loop: only the HTTP round trip is measured.
 */

export interface Bounds {
  /** Stop after this many requests... */
  requests: number;
  /** ...or after this many seconds, whichever comes first. */
  seconds: number;
}

export type RequestShape =
  /** POST sdtask/process with context.url on the client's loopback file server. */
  | { kind: 'create' }
  /** GET sdtask/status?taskId= one of the sampled existing ids, at random. */
  | { kind: 'status' }
  /** GET /health: liveness, no database work (what an event loop held by other work delays first). */
  | { kind: 'health' }
  /** GET sdtask/statuslistpaginated with `query` (a list repeats its parameter) and a pageNumber drawn from 1..maxPage. */
  | { kind: 'list'; query: ListQuery; maxPage: number };

export type ListQuery = Record<string, string | string[]>;

/**
 * Who answers: the app as shipped, or its peer, a bare Fastify + Prisma server doing the same
 * database work (bench/lib/peer.ts), loaded the same way for a reference.
 */
export type Target = 'app' | 'peer';

export interface Scenario {
  name: string;
  target: Target;
  shape: RequestShape;
  concurrency: number;
  warmup: Bounds;
  measure: Bounds;
}

export interface LoadPlan {
  baseUrls: Record<Target, string>;
  token: string;
  taskIds: number[];
  scenarios: Scenario[];
}

export interface ScenarioResult {
  name: string;
  requests: number;
  /** Answers other than 2xx, and transport failures. */
  errors: number;
  firstError?: string;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export type ParentMessage = { type: 'run'; plan: LoadPlan };

export type ChildMessage =
  | { type: 'started'; scenario: string }
  | { type: 'result'; result: ScenarioResult }
  | { type: 'done' }
  | { type: 'failed'; error: string };
