import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { createTestContext, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { waitFor } from './support/processes.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the responses of a raw HTTP/1.1 exchange (ASCII, bodies framed by Content-Length). */
function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response: ${JSON.stringify(rest)}`);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const bodyEnd = end + 4 + Number(headers['content-length'] ?? 0);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, bodyEnd) });
    rest = rest.slice(bodyEnd);
  }
  return responses;
}

/** Writes `first` to a fresh connection, then optionally `then.send` once `then.before` is done; reads until the server closes it. */
function exchange(port: number, first: string, then?: { before: () => Promise<void>; send: string }): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponses(Buffer.concat(received).toString()));
      } catch (err) {
        reject(err);
      }
    });
    socket.write(first, () => {
      if (then) then.before().then(() => socket.write(then.send), reject);
    });
  });
}

function expectRawProblem(res: RawResponse, status: number) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  expect(body.traceId).toMatch(/\S/);
  expect(body.traceId).toBe(res.headers['x-request-id']);
  return body;
}

describe('router errors', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it('answers a path that is not valid percent-encoding with a 400 problem', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/%FF` });
    expectProblem(res, 400);
  });

  it('answers a path segment past the router limit with a 414 problem', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}/sdtask/GetExportData/${'a'.repeat(600)}` });
    expectProblem(res, 414, 'URI Too Long');
  });
});

describe('HTTP the server cannot parse (raw sockets)', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => ctx.close());

  const cases: Array<[string, string, number]> = [
    ['an unknown method', 'FROB / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a malformed request line', 'GET\r\n\r\n', 400],
    ['a bad Content-Length', 'POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n', 400],
    ['two Content-Lengths', 'POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 400],
    ['headers over the size limit', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ];
  for (const [what, request, status] of cases) {
    it(`answers ${what} with a ${status} problem body and a traceId`, async () => {
      const [res, ...more] = await exchange(port, request);
      expect(more).toEqual([]);
      expectRawProblem(res!, status);
      expect(res!.headers.connection).toBe('close');
    });
  }
});

describe('requests arriving while the server drains', () => {
  it('are refused with a 503 problem and Retry-After', async () => {
    const ctx = await createTestContext();
    try {
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = ctx.app.server.address() as AddressInfo;
      const body = 'grant_type=client_credentials';
      const head = `POST /connect/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
      const arrived = new Promise((resolve) => ctx.app.server.once('request', resolve));
      let closed: Promise<void> | undefined;
      // A request in flight (its body not sent yet) keeps the connection open through the drain;
      // the request pipelined behind it arrives once the server is closing.
      const responses = await exchange(port, `${head}${body.slice(0, 5)}`, {
        before: async () => {
          await arrived;
          closed = ctx.app.close();
          await waitFor(async () => (ctx.app.server.listening ? undefined : true), 'the server to stop listening', 200, 10);
        },
        send: `${body.slice(5)}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`,
      });
      await closed;
      expect(responses).toHaveLength(2);
      // The request that arrived before the drain is answered as usual.
      expect(responses[0]!.status).toBe(400);
      const refused = expectRawProblem(responses[1]!, 503);
      expect(refused.instance).toBe('/health');
      expect(Number(responses[1]!.headers['retry-after'])).toBeGreaterThan(0);
      expect(responses[1]!.headers.connection).toBe('close');
    } finally {
      await ctx.close();
    }
  });
});
