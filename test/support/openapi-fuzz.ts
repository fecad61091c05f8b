/**
 * Property-based fuzzing driven by the app's own OpenAPI document (openapi-operations.ts): every
 * operation gets fuzz requests (fuzz-requests.ts); every answer must be below 500, every 4xx a
 * complete problem body, and none may take longer than the timeout. Used by test/fuzz.test.ts
 * (bounded, seeded, part of `npm test`) and by `npm run fuzz` (as many cases as asked).
 */
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { bodyText, describeRequest, fuzzRequests, urlOf, type FuzzEnvironment, type FuzzRequest } from './fuzz-requests.js';
import type { FuzzOperation, OpenApiDocument } from './openapi-operations.js';

export class RequestTimeoutError extends Error {}

/**
 * The client address of every fuzz request (a documentation address, RFC 5737). Failed logins and
 * token requests are counted per address in a Redis every test file shares: the fuzz's many
 * failures must not use up the budget of the address the other tests send from.
 */
const FUZZ_CLIENT_ADDRESS = '192.0.2.250';

/** Sends the request through app.inject; no answer within `timeoutMs` is a failure of its own (a hang). */
export async function sendFuzzRequest(app: FastifyInstance, op: FuzzOperation, req: FuzzRequest, timeoutMs: number): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([
      app.inject({
        method: req.method as 'GET',
        url: urlOf(op, req),
        remoteAddress: FUZZ_CLIENT_ADDRESS,
        headers: req.headers,
        ...(req.body ? { payload: bodyText(req.body) } : {}),
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Everything wrong with a response to hostile input: a 5xx, or a 4xx that is not a complete problem body. */
export function responseFaults(res: LightMyRequestResponse, method: string): string[] {
  const faults: string[] = [];
  if (res.statusCode >= 500) faults.push(`status ${res.statusCode}`);
  if (res.statusCode < 400) return faults;
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) {
    faults.push(`${res.statusCode} with content-type "${type}", not application/problem+json`);
    return faults;
  }
  if (method === 'HEAD') return faults;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    return [...faults, 'problem body is not JSON'];
  }
  for (const field of ['type', 'title', 'detail', 'traceId']) {
    if (typeof body[field] !== 'string') faults.push(`problem body lacks ${field}`);
  }
  if (body.status !== res.statusCode) faults.push(`problem status ${String(body.status)} differs from ${res.statusCode}`);
  if (typeof body.traceId === 'string' && body.traceId !== res.headers['x-request-id']) faults.push('traceId differs from X-Request-Id');
  return faults;
}

export function describeResponse(res: LightMyRequestResponse): string {
  const body = res.body.length > 600 ? `${res.body.slice(0, 600)}… (${res.body.length} chars)` : res.body;
  return `${res.statusCode} ${String(res.headers['content-type'] ?? '(no content-type)')} ${body}`;
}

/** Responses per operation and status, for the fuzz report. */
export class FuzzStats {
  private readonly counts = new Map<string, Map<number | string, number>>();

  record(operation: string, status: number | string): void {
    const byStatus = this.counts.get(operation) ?? new Map<number | string, number>();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    this.counts.set(operation, byStatus);
  }

  get total(): number {
    let sum = 0;
    for (const byStatus of this.counts.values()) for (const n of byStatus.values()) sum += n;
    return sum;
  }

  format(): string {
    const rows = [...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b));
    const width = Math.max(...rows.map(([op]) => op.length), 9);
    const lines = rows.map(([op, byStatus]) => {
      const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
      const statuses = [...byStatus.entries()].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([s, n]) => `${s}:${n}`).join(' ');
      return `${op.padEnd(width)} ${String(total).padStart(6)}  ${statuses}`;
    });
    return [`${'operation'.padEnd(width)} ${'cases'.padStart(6)}  status:count`, ...lines, `${'total'.padEnd(width)} ${String(this.total).padStart(6)}`].join('\n');
  }
}

export interface FuzzRunOptions {
  runs: number;
  seed: number;
  timeoutMs: number;
  stats: FuzzStats;
  /** Faults a route answers on purpose (documented exceptions); the rest fail the run. */
  acceptable?: (op: FuzzOperation, req: FuzzRequest, res: LightMyRequestResponse) => boolean;
  /** Run only this case (its index in a run of this seed), to replay a failure. */
  replayCase?: number;
}

/** One failing case: its index in the run (to replay it), what was wrong, the request and the answer. */
export interface FuzzFailure {
  caseIndex: number;
  faults: string[];
  request: string;
  response: string;
}

/** A seed of its own per operation, so operations of the same shape (a GET and its HEAD) get different cases. */
export function operationSeed(seed: number, op: FuzzOperation): number {
  let hash = seed | 0;
  for (const ch of op.key) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

/** Failures alike when the same faults follow the same kinds of change (a label up to its value). */
function signature(faults: string[], req: FuzzRequest): string {
  const kinds = req.mutations.map((m) => m.split(/ = |: | gets key /)[0]);
  return `${faults.map((f) => f.replace(/\d+/g, '#')).join('; ')} after ${kinds.join(' | ')}`;
}

/**
 * Runs `runs` cases against `op` and returns its failures, one per kind (signature), in the
 * order found. A run goes on past a failure, so one run shows every kind of fault it meets.
 */
export async function fuzzOperation(app: FastifyInstance, doc: OpenApiDocument, op: FuzzOperation, env: FuzzEnvironment, options: FuzzRunOptions): Promise<FuzzFailure[]> {
  const failures = new Map<string, FuzzFailure>();
  let caseIndex = options.replayCase ?? -1;
  const property = fc.asyncProperty(fuzzRequests(doc, op, env), async (req) => {
    caseIndex += options.replayCase === undefined ? 1 : 0;
    let res: LightMyRequestResponse | undefined;
    let faults: string[];
    try {
      res = await sendFuzzRequest(app, op, req, options.timeoutMs);
      options.stats.record(op.key, res.statusCode);
      faults = options.acceptable?.(op, req, res) ? [] : responseFaults(res, req.method);
    } catch (err) {
      options.stats.record(op.key, err instanceof RequestTimeoutError ? 'timeout' : 'error');
      faults = [(err as Error).message];
    }
    const key = signature(faults, req);
    if (faults.length && !failures.has(key)) {
      failures.set(key, { caseIndex, faults, request: describeRequest(op, req), response: res ? describeResponse(res) : '(none)' });
    }
  });
  const seed = operationSeed(options.seed, op);
  await fc.assert(property, options.replayCase === undefined ? { seed, numRuns: options.runs } : { seed, numRuns: 1, path: String(options.replayCase) });
  return [...failures.values()];
}

/** A failure report: each failure with its request, its answer and the command that replays it. */
export function formatFailures(op: FuzzOperation, failures: FuzzFailure[], replay: (caseIndex: number) => string, shown = 8): string {
  const lines = failures.slice(0, shown).map((f) =>
    [`${f.faults.join('; ')} (case ${f.caseIndex})`, f.request, `  answer: ${f.response}`, `  replay: ${replay(f.caseIndex)}`].join('\n'),
  );
  const more = failures.length > shown ? [`… and ${failures.length - shown} more kinds of failure`] : [];
  return [`${op.key}: ${failures.length} kind(s) of failure`, ...lines, ...more].join('\n\n');
}
