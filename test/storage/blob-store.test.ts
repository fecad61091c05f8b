import { asAppError } from '../../src/http/problem.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, InvalidBlobKeyError, LocalBlobStore } from '../../src/storage/blob-store.js';

const KEY = 'tenants/t-1/tasks/task_2/source';

let rootDir: string;
let store: LocalBlobStore;

beforeEach(async () => {
  rootDir = await mkdtemp(path.join(tmpdir(), 'blob-store-'));
  store = new LocalBlobStore(rootDir);
});

afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

function failingAfter(chunk: string): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(chunk);
      throw new Error('source broke');
    })(),
  );
}

describe('LocalBlobStore', () => {
  it('stores a buffer and reads it back', async () => {
    const { size } = await store.put(KEY, Buffer.from('hello blob'));

    expect(size).toBe(10);
    expect(await text(await store.openRead(KEY))).toBe('hello blob');
    expect(await store.exists(KEY)).toBe(true);
    expect((await store.stat(KEY)).size).toBe(10);
  });

  it('stores a stream of several chunks and reports the total size', async () => {
    const { size } = await store.put(KEY, Readable.from([Buffer.from('abc'), Buffer.from('defg'), Buffer.from('h')]));

    expect(size).toBe(8);
    expect(await text(await store.openRead(KEY))).toBe('abcdefgh');
  });

  it('replaces an existing blob', async () => {
    await store.put(KEY, Buffer.from('first version'));
    await store.put(KEY, Buffer.from('second'));

    expect(await text(await store.openRead(KEY))).toBe('second');
    expect((await store.stat(KEY)).size).toBe(6);
  });

  it('keeps the previous blob and leaves no temporary file when the source fails', async () => {
    await store.put(KEY, Buffer.from('complete'));

    await expect(store.put(KEY, failingAfter('partial'))).rejects.toThrow('source broke');

    expect(await text(await store.openRead(KEY))).toBe('complete');
    expect(await readdir(path.join(rootDir, '.incoming'))).toEqual([]);
  });

  it('creates no blob when the first write of a key fails', async () => {
    await expect(store.put(KEY, failingAfter('partial'))).rejects.toThrow('source broke');

    expect(await store.exists(KEY)).toBe(false);
  });

  it('maps keys to files under the root directory', () => {
    expect(store.localPath(KEY)).toBe(path.join(rootDir, 'tenants', 't-1', 'tasks', 'task_2', 'source'));
  });

  it('reports missing blobs as not found', async () => {
    expect(await store.exists(KEY)).toBe(false);
    await expect(store.openRead(KEY)).rejects.toBeInstanceOf(BlobNotFoundError);
    const missing = await store.stat(KEY).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(BlobNotFoundError);
    expect(asAppError(missing)).toMatchObject({ status: 404 });
  });

  it('does not treat a directory or a path through a file as a blob', async () => {
    await store.put(KEY, Buffer.from('x'));

    expect(await store.exists('tenants/t-1')).toBe(false);
    await expect(store.openRead('tenants/t-1')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.exists(`${KEY}/below`)).toBe(false);
  });

  it('deletes blobs and accepts deleting a missing one', async () => {
    await store.put(KEY, Buffer.from('x'));

    await store.delete(KEY);
    await store.delete(KEY);

    expect(await store.exists(KEY)).toBe(false);
  });

  it.each([
    '../outside',
    'tenants/../../outside',
    'a/./b',
    '/etc/passwd',
    'a//b',
    'a/',
    '',
    '.incoming/x',
    'a/.hidden',
    'a b',
    'a\\b',
    'tenants/é',
    'a/b?c',
  ])('refuses the key %j', async (key) => {
    expect(() => store.localPath(key)).toThrow(InvalidBlobKeyError);
    await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.exists(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });

  it('accepts keys with dots, dashes and underscores inside segments', async () => {
    await store.put('exports/a-b_c/v1.2/result.json', Buffer.from('{}'));

    expect(await store.exists('exports/a-b_c/v1.2/result.json')).toBe(true);
  });
});
