/**
 * The load client, run as a child process of the benchmark (see protocol.ts for why). It also
 * hosts the source files that created tasks point at: to the app that server is "the internet",
 * so it belongs on the client's side of the wire, not in the app's process.
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Bounds, ChildMessage, LoadPlan, ParentMessage, RequestShape, Scenario, ScenarioResult, Target } from './protocol.js';
import { summarize } from './stats.js';

const API = '/api/v1.0/external';
/** The smallest thing that sniffs as a PDF; creation only checks that the URL answers. */
const SOURCE_BYTES = Buffer.from('%PDF-1.4\n%%EOF\n');

interface SourceServer {
  url: string;
  close: () => Promise<void>;
}

async function startSourceServer(): Promise<SourceServer> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': SOURCE_BYTES.length });
    res.end(req.method === 'HEAD' ? undefined : SOURCE_BYTES);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/source.pdf`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface OutgoingRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface Answer {
  status: number;
  body: string;
}

function responseText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

/**
 * node:http over keep-alive sockets, one per concurrent lane: cheaper per request than fetch, so
 * the client's own overhead stays small next to what it measures.
 */
function createSender(plan: LoadPlan, target: Target, sockets: number) {
  const base = new URL(plan.baseUrls[target]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const send = (req: OutgoingRequest): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${plan.token}` };
      if (req.body !== undefined) headers['content-type'] = 'application/json';
      const outgoing = http.request(
        { host: base.hostname, port: base.port, method: req.method, path: req.path, agent, headers },
        (response) => responseText(response).then((body) => resolve({ status: response.statusCode ?? 0, body }), reject),
      );
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
  return { send, close: () => agent.destroy() };
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** A generator of requests of one shape; every call makes the next request. */
function requestsOf(shape: RequestShape, plan: LoadPlan, sourceUrl: string): () => OutgoingRequest {
  switch (shape.kind) {
    case 'create': {
      // Unique per run and request: half the creates also exercise the externalId uniqueness check.
      const runTag = `${Date.now().toString(36)}-${process.pid}`;
      let n = 0;
      return () => {
        n += 1;
        const body = {
          displayName: `bench create ${n}`,
          context: { url: sourceUrl },
          ...(n % 2 === 0 ? { externalId: `bench-create-${runTag}-${n}` } : {}),
        };
        return { method: 'POST', path: `${API}/sdtask/process`, body: JSON.stringify(body) };
      };
    }
    case 'status':
      return () => ({ method: 'GET', path: `${API}/sdtask/status?taskId=${pick(plan.taskIds)}` });
    case 'health':
      return () => ({ method: 'GET', path: '/health' });
    case 'list':
      return () => {
        const pageNumber = 1 + Math.floor(Math.random() * shape.maxPage);
        const params = Object.entries({ ...shape.query, pageNumber: String(pageNumber) });
        const query = new URLSearchParams(params.flatMap(([name, value]) => [value].flat().map((one): [string, string] => [name, one])));
        return { method: 'GET', path: `${API}/sdtask/statuslistpaginated?${query}` };
      };
  }
}

interface Phase {
  latenciesMs: number[];
  errors: number;
  firstError?: string;
  seconds: number;
}

/** Closed loop: `concurrency` lanes, each sending its next request when the last one answered. */
async function drive(next: () => OutgoingRequest, send: (r: OutgoingRequest) => Promise<Answer>, concurrency: number, bounds: Bounds): Promise<Phase> {
  const phase: Phase = { latenciesMs: [], errors: 0, seconds: 0 };
  const started = performance.now();
  const deadline = started + bounds.seconds * 1000;
  let issued = 0;
  const fail = (detail: string) => {
    phase.errors += 1;
    phase.firstError ??= detail.slice(0, 300);
  };
  const lane = async () => {
    while (issued < bounds.requests && performance.now() < deadline) {
      issued += 1;
      const request = next();
      const t0 = performance.now();
      try {
        const answer = await send(request);
        phase.latenciesMs.push(performance.now() - t0);
        if (answer.status < 200 || answer.status >= 300) fail(`${request.method} ${request.path}: ${answer.status} ${answer.body}`);
      } catch (err) {
        fail(`${request.method} ${request.path}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  phase.seconds = (performance.now() - started) / 1000;
  return phase;
}

async function runScenario(scenario: Scenario, plan: LoadPlan, sourceUrl: string): Promise<ScenarioResult> {
  const sender = createSender(plan, scenario.target, scenario.concurrency);
  try {
    const next = requestsOf(scenario.shape, plan, sourceUrl);
    // Warm-up fills connection pools, JIT and caches; its numbers are thrown away.
    await drive(next, sender.send, scenario.concurrency, scenario.warmup);
    const phase = await drive(next, sender.send, scenario.concurrency, scenario.measure);
    return {
      name: scenario.name,
      requests: phase.latenciesMs.length,
      errors: phase.errors,
      ...(phase.firstError !== undefined ? { firstError: phase.firstError } : {}),
      seconds: phase.seconds,
      requestsPerSecond: phase.latenciesMs.length / phase.seconds,
      ...summarize(phase.latenciesMs),
    };
  } finally {
    sender.close();
  }
}

function report(message: ChildMessage): void {
  process.send?.(message);
}

async function run(plan: LoadPlan): Promise<void> {
  const source = await startSourceServer();
  try {
    for (const scenario of plan.scenarios) {
      report({ type: 'started', scenario: scenario.name });
      report({ type: 'result', result: await runScenario(scenario, plan, source.url) });
    }
    report({ type: 'done' });
  } finally {
    await source.close();
  }
}

process.once('message', (message: ParentMessage) => {
  run(message.plan)
    .catch((err: unknown) => report({ type: 'failed', error: (err as Error).stack ?? String(err) }))
    .finally(() => process.disconnect());
});
