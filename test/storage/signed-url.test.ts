import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidBlobKeyError } from '../../src/storage/blob-store.js';
import { loadFileUrlSecret, signFileUrl, verifySignedFile, type SignFileUrlInput } from '../../src/storage/signed-url.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const KEY = 'tenants/t1/tasks/k1/result.pdf';
const EXPIRES_AT = new Date('2030-01-01T00:00:00Z');
const BEFORE_EXPIRY = new Date('2029-12-31T23:59:59Z');

/** What a router hands over for a signed link: the key from the path, the query as strings. */
function parse(signed: string) {
  const url = new URL(signed);
  return {
    url,
    key: url.pathname.replace(/^\/files\/download\//, ''),
    query: Object.fromEntries(url.searchParams) as Record<string, string>,
  };
}

function sign(input: Partial<SignFileUrlInput> = {}) {
  return parse(signFileUrl({ baseUrl: 'https://docs.example.com', key: KEY, expiresAt: EXPIRES_AT, secret: SECRET, ...input }));
}

describe('signFileUrl', () => {
  it('builds a download URL under the base URL with the expiry in unix seconds', () => {
    const { url, key, query } = sign({ baseUrl: 'https://docs.example.com/' });

    expect(url.origin + url.pathname).toBe(`https://docs.example.com/files/download/${KEY}`);
    expect(key).toBe(KEY);
    expect(query.expires).toBe(String(Date.UTC(2030, 0, 1) / 1000));
    expect(query.sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a key the blob store would refuse', () => {
    expect(() => sign({ key: '../secrets' })).toThrow(InvalidBlobKeyError);
  });
});

describe('verifySignedFile', () => {
  it('accepts an untampered link before its expiry', () => {
    const { key, query } = sign();

    expect(verifySignedFile(key, query, SECRET, BEFORE_EXPIRY)).toBe('ok');
  });

  it('reports an untampered link as expired from its expiry on', () => {
    const { key, query } = sign();

    expect(verifySignedFile(key, query, SECRET, EXPIRES_AT)).toBe('expired');
    expect(verifySignedFile(key, query, SECRET, new Date('2031-01-01T00:00:00Z'))).toBe('expired');
  });

  it('round-trips a filename with characters that need encoding', () => {
    const filename = 'Fatura nº 12/2024 & co.pdf';
    const { key, query } = sign({ filename });

    expect(query.filename).toBe(filename);
    expect(verifySignedFile(key, query, SECRET, BEFORE_EXPIRY)).toBe('ok');
  });

  it('refuses a link used for another key', () => {
    const { query } = sign();

    expect(verifySignedFile('tenants/t2/tasks/k1/result.pdf', query, SECRET, BEFORE_EXPIRY)).toBe('invalid');
  });

  it('refuses an extended expiry as invalid rather than expired', () => {
    const { key, query } = sign({ expiresAt: new Date('2020-01-01T00:00:00Z') });
    const extended = { ...query, expires: String(Number(query.expires) + 3600 * 24 * 365 * 20) };

    expect(verifySignedFile(key, query, SECRET, BEFORE_EXPIRY)).toBe('expired');
    expect(verifySignedFile(key, extended, SECRET, BEFORE_EXPIRY)).toBe('invalid');
  });

  it('refuses a changed, added or removed filename', () => {
    const named = sign({ filename: 'a.pdf' });
    const unnamed = sign();
    const { filename: _dropped, ...withoutFilename } = named.query;

    expect(verifySignedFile(KEY, { ...named.query, filename: 'b.pdf' }, SECRET, BEFORE_EXPIRY)).toBe('invalid');
    expect(verifySignedFile(KEY, withoutFilename, SECRET, BEFORE_EXPIRY)).toBe('invalid');
    expect(verifySignedFile(KEY, { ...unnamed.query, filename: 'a.pdf' }, SECRET, BEFORE_EXPIRY)).toBe('invalid');
  });

  it('refuses a link signed with another secret', () => {
    const { key, query } = sign({ secret: 'another-secret-that-is-long-enough-987654' });

    expect(verifySignedFile(key, query, SECRET, BEFORE_EXPIRY)).toBe('invalid');
  });

  it.each([
    ['no signature', (q: Record<string, unknown>) => ({ ...q, sig: undefined })],
    ['a shortened signature', (q: Record<string, unknown>) => ({ ...q, sig: String(q.sig).slice(1) })],
    ['a repeated signature', (q: Record<string, unknown>) => ({ ...q, sig: [q.sig, q.sig] })],
    ['no expiry', (q: Record<string, unknown>) => ({ ...q, expires: undefined })],
    ['a non-numeric expiry', (q: Record<string, unknown>) => ({ ...q, expires: '1e12' })],
  ])('refuses a query with %s', (_case, tamper) => {
    const { key, query } = sign();

    expect(verifySignedFile(key, tamper(query), SECRET, BEFORE_EXPIRY)).toBe('invalid');
  });
});

describe('loadFileUrlSecret', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'file-url-secret-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uses FILE_URL_SECRET when set and writes nothing', async () => {
    expect(await loadFileUrlSecret({ FILE_URL_SECRET: SECRET, DATA_DIR: dataDir })).toBe(SECRET);
    await expect(stat(path.join(dataDir, 'file-url-secret'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('generates a secret once into the data directory, readable only by its owner', async () => {
    const nested = path.join(dataDir, 'not-yet-created');
    const first = await loadFileUrlSecret({ DATA_DIR: nested });
    const second = await loadFileUrlSecret({ DATA_DIR: nested });
    const file = path.join(nested, 'file-url-secret');

    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(second).toBe(first);
    expect(await readFile(file, 'utf8')).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('gives processes starting together the same secret', async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadFileUrlSecret({ DATA_DIR: dataDir })));

    expect(new Set(secrets).size).toBe(1);
  });

  it('refuses a secret file too short to be a secret', async () => {
    await writeFile(path.join(dataDir, 'file-url-secret'), 'short\n');

    await expect(loadFileUrlSecret({ DATA_DIR: dataDir })).rejects.toThrow(/no usable secret/);
  });
});
