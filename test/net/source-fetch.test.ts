import { asAppError } from '../../src/http/problem.js';
import { mkdtemp, rm } from 'node:fs/promises';
import type { LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SourceDownloadError,
  SourceTooLargeError,
  checkSourceReachable,
  downloadSource,
} from '../../src/net/source-fetch.js';
import { SourceUnreachableError } from '../../src/net/url-guard.js';
import { LocalBlobStore } from '../../src/storage/blob-store.js';

// Host names the guard resolves from this table instead of the system resolver; everything else
// resolves normally. Only the guard's lookup is replaced, not the one http itself would use.
const fakeDns = vi.hoisted(() => new Map<string, LookupAddress[]>());
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (hostname: string, options: { all: true; verbatim: boolean }) =>
    fakeDns.has(hostname) ? Promise.resolve(fakeDns.get(hostname)) : actual.lookup(hostname, options);
  return { ...actual, lookup, default: { ...actual, lookup } };
});

const FILE_BODY = 'hello world';
const BIG_BODY = Buffer.alloc(1000, 'x');

interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

const seen: SeenRequest[] = [];

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://local');
  seen.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });
  const sendFile = () => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': FILE_BODY.length });
    res.end(req.method === 'HEAD' ? undefined : FILE_BODY);
  };
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const remaining = Number(chain[1]);
    if (remaining === 0) return sendFile();
    res.writeHead(302, { location: `/chain/${remaining - 1}` });
    return res.end();
  }
  switch (url.pathname) {
    case '/file':
      return sendFile();
    case '/missing':
      res.writeHead(404);
      return res.end('not here');
    case '/no-head':
      if (req.method === 'HEAD') {
        res.writeHead(405, { allow: 'GET' });
        return res.end();
      }
      if (req.headers.range === 'bytes=0-0') {
        res.writeHead(206, { 'content-type': 'image/png', 'content-range': `bytes 0-0/${FILE_BODY.length}` });
        return res.end(FILE_BODY.slice(0, 1));
      }
      return sendFile();
    case '/head-resets':
      // Some servers drop the connection on HEAD instead of answering it.
      if (req.method === 'HEAD') return req.socket.destroy();
      return sendFile();
    case '/loop':
      res.writeHead(301, { location: '/loop' });
      return res.end();
    case '/to-file-scheme':
      res.writeHead(302, { location: 'file:///etc/passwd' });
      return res.end();
    case '/absolute-redirect':
      res.writeHead(307, { location: `http://127.0.0.1:${port}/file` });
      return res.end();
    case '/hang':
      return; // never answers; closed when the server stops
    case '/stall-body':
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 100 });
      return res.write('first bytes only');
    case '/big':
      res.writeHead(200, { 'content-length': BIG_BODY.length });
      return res.end(BIG_BODY);
    case '/big-unannounced':
      // Chunked, so the size is only known by counting.
      res.writeHead(200);
      return res.end(BIG_BODY);
    case '/truncated':
      res.writeHead(200, { 'content-length': 100 });
      res.write('ten bytes!');
      return setImmediate(() => req.socket.destroy());
    default:
      res.writeHead(500);
      return res.end();
  }
});

let port = 0;
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
  fakeDns.clear();
});

const local = { allowPrivate: true, timeoutMs: 5000 };
const limits = { ...local, maxBytes: 500 };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );
}

describe('checkSourceReachable', () => {
  it('reports a reachable file with its size and type from a HEAD request', async () => {
    const check = await checkSourceReachable(`${base}/file`, local);

    expect(check).toEqual({ ok: true, finalUrl: `${base}/file`, contentLength: FILE_BODY.length, contentType: 'application/pdf' });
    expect(seen.map((r) => r.method)).toEqual(['HEAD']);
  });

  it('refuses a missing file with its status as the reason', async () => {
    const error = await failure(checkSourceReachable(`${base}/missing`, local));

    expect(error).toBeInstanceOf(SourceUnreachableError);
    expect(error).toMatchObject({ reason: 'http-404' });
    expect(asAppError(error)).toMatchObject({ status: 422, extensions: { reason: 'http-404' } });
  });

  it('falls back to a one-byte ranged GET when HEAD is not allowed', async () => {
    const check = await checkSourceReachable(`${base}/no-head`, local);

    expect(check).toEqual({ ok: true, finalUrl: `${base}/no-head`, contentLength: FILE_BODY.length, contentType: 'image/png' });
    expect(seen.map((r) => `${r.method} ${r.headers.range ?? ''}`)).toEqual(['HEAD ', 'GET bytes=0-0']);
  });

  it('falls back to a ranged GET when the HEAD request fails', async () => {
    const check = await checkSourceReachable(`${base}/head-resets`, local);

    expect(check.contentLength).toBe(FILE_BODY.length);
    expect(seen.map((r) => r.method)).toEqual(['HEAD', 'GET']);
  });

  it('follows up to five redirects and reports where they end', async () => {
    const check = await checkSourceReachable(`${base}/chain/5`, local);

    expect(check.finalUrl).toBe(`${base}/chain/0`);
    expect(seen).toHaveLength(6);
  });

  it('follows an absolute redirect', async () => {
    const check = await checkSourceReachable(`${base}/absolute-redirect`, local);

    expect(check.finalUrl).toBe(`${base}/file`);
  });

  it('refuses a sixth redirect', async () => {
    await expect(checkSourceReachable(`${base}/chain/6`, local)).rejects.toMatchObject({ reason: 'too-many-redirects' });
  });

  it('stops a redirect loop', async () => {
    await expect(checkSourceReachable(`${base}/loop`, local)).rejects.toMatchObject({ reason: 'too-many-redirects' });
    expect(seen).toHaveLength(6);
  });

  it('vets every redirect hop: a redirect to a file: URL is refused', async () => {
    await expect(checkSourceReachable(`${base}/to-file-scheme`, local)).rejects.toMatchObject({ reason: 'invalid-url' });
  });

  it('refuses a loopback server without connecting to it when private addresses are not allowed', async () => {
    await expect(checkSourceReachable(`${base}/file`, { ...local, allowPrivate: false })).rejects.toMatchObject({
      reason: 'refused-address',
    });
    expect(seen).toEqual([]);
  });

  it.each(['not a url', 'ftp://127.0.0.1/file'])('refuses %j as an invalid URL', async (url) => {
    const error = await failure(checkSourceReachable(url, local));
    expect(error).toMatchObject({ reason: 'invalid-url' });
    expect(asAppError(error)).toMatchObject({ status: 422 });
  });

  it('gives up on a server that does not answer', async () => {
    await expect(checkSourceReachable(`${base}/hang`, { ...local, timeoutMs: 200 })).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port: closedPort } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    await expect(checkSourceReachable(`http://127.0.0.1:${closedPort}/file`, local)).rejects.toMatchObject({ reason: 'network' });
  });
});

describe('DNS answers', () => {
  it('connects to the vetted address, not to whatever a second resolution would return', async () => {
    // Only the guard knows this name; had the request resolved it again, it would have failed.
    fakeDns.set('files.rebind.test', [{ address: '127.0.0.1', family: 4 }]);

    const check = await checkSourceReachable(`http://files.rebind.test:${port}/file`, local);

    expect(check.finalUrl).toBe(`http://files.rebind.test:${port}/file`);
    expect(seen.map((r) => r.headers.host)).toEqual([`files.rebind.test:${port}`]);
  });

  it('refuses a host that resolves to a public and a private address', async () => {
    fakeDns.set('mixed.test', [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);

    await expect(checkSourceReachable('http://mixed.test/file', { ...local, allowPrivate: false })).rejects.toMatchObject({
      reason: 'refused-address',
    });
  });
});

describe('downloadSource', () => {
  let blobDir: string;
  let store: LocalBlobStore;
  const key = 'tenants/t1/tasks/k1/source';

  beforeAll(async () => {
    blobDir = await mkdtemp(path.join(tmpdir(), 'source-fetch-'));
    store = new LocalBlobStore(blobDir);
  });

  afterAll(async () => {
    await rm(blobDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await store.delete(key);
  });

  it('downloads into the blob store after following redirects', async () => {
    const result = await downloadSource(`${base}/chain/2`, { store, key }, limits);

    expect(result).toEqual({ bytesWritten: FILE_BODY.length, finalUrl: `${base}/chain/0`, contentType: 'application/pdf' });
    expect(await text(await store.openRead(key))).toBe(FILE_BODY);
  });

  it('downloads into a stream', async () => {
    const sink = new PassThrough();
    const received = buffer(sink);

    const result = await downloadSource(`${base}/file`, sink, limits);

    expect(result.bytesWritten).toBe(FILE_BODY.length);
    expect((await received).toString()).toBe(FILE_BODY);
  });

  it('reports a non-2xx answer with its status and stores nothing', async () => {
    const error = await failure(downloadSource(`${base}/missing`, { store, key }, limits));

    expect(error).toBeInstanceOf(SourceDownloadError);
    expect(error).toMatchObject({ sourceStatus: 404, reason: 'http-404' });
    expect(await store.exists(key)).toBe(false);
  });

  it('refuses a file whose announced size is over the limit', async () => {
    const error = await failure(downloadSource(`${base}/big`, { store, key }, limits));

    expect(error).toBeInstanceOf(SourceTooLargeError);
    expect(error).toMatchObject({ maxBytes: 500 });
    expect(asAppError(error)).toMatchObject({ status: 413 });
    expect(await store.exists(key)).toBe(false);
  });

  it('stops a file without announced size once it passes the limit', async () => {
    const error = await failure(downloadSource(`${base}/big-unannounced`, { store, key }, limits));

    expect(error).toBeInstanceOf(SourceTooLargeError);
    expect(await store.exists(key)).toBe(false);
  });

  it('accepts a file of exactly the limit', async () => {
    const result = await downloadSource(`${base}/big-unannounced`, { store, key }, { ...limits, maxBytes: BIG_BODY.length });

    expect(result.bytesWritten).toBe(BIG_BODY.length);
    expect((await store.stat(key)).size).toBe(BIG_BODY.length);
  });

  it('times out on a body that stops arriving and stores nothing', async () => {
    const error = await failure(downloadSource(`${base}/stall-body`, { store, key }, { ...limits, timeoutMs: 300 }));

    expect(error).toMatchObject({ reason: 'timeout' });
    expect(await store.exists(key)).toBe(false);
  });

  it('times out on a server that does not answer', async () => {
    await expect(downloadSource(`${base}/hang`, new PassThrough(), { ...limits, timeoutMs: 200 })).rejects.toMatchObject({
      reason: 'timeout',
    });
  });

  it('reports a connection closed before the announced length as a network failure', async () => {
    const error = await failure(downloadSource(`${base}/truncated`, { store, key }, limits));

    expect(error).toMatchObject({ reason: 'network' });
    expect(await store.exists(key)).toBe(false);
  });

  it('refuses a loopback source when private addresses are not allowed', async () => {
    await expect(downloadSource(`${base}/file`, { store, key }, { ...limits, allowPrivate: false })).rejects.toMatchObject({
      reason: 'refused-address',
    });
    expect(seen).toEqual([]);
  });
});
