import { randomBytes, randomUUID } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, deleteBlobsUnder, LocalBlobStore, type BlobStore } from '../../src/storage/blob-store.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { s3TestSettings } from '../support/context.js';

/** The contract every blob store keeps, run against the local directory and an S3 bucket (s3rver). */
function testS3Store(options: { localCopyBytes?: number } = {}): S3BlobStore {
  const s3 = s3TestSettings();
  return new S3BlobStore({
    bucket: s3.S3_BUCKET!,
    region: 'us-east-1',
    endpoint: s3.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.AWS_ACCESS_KEY_ID!, secretAccessKey: s3.AWS_SECRET_ACCESS_KEY! },
    ...options,
  });
}

const implementations: [string, () => Promise<{ store: BlobStore; close: () => Promise<void> }>][] = [
  [
    'local',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'blob-contract-'));
      return { store: new LocalBlobStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    's3',
    async () => {
      const store = testS3Store();
      return { store, close: async () => store.client.destroy() };
    },
  ],
];

describe.each(implementations)('blob store contract: %s', (_name, open) => {
  let store: BlobStore;
  let close: () => Promise<void>;
  // Keys of their own per run: the S3 bucket is shared by every test file.
  const base = `tenants/contract-${randomUUID()}`;

  beforeAll(async () => {
    ({ store, close } = await open());
  });
  afterAll(async () => {
    await deleteBlobsUnder(store, `${base}/`);
    await close();
  });

  it('stores a buffer and reads it back, with its size', async () => {
    const key = `${base}/tasks/1/source`;
    expect(await store.put(key, Buffer.from('hello blob'))).toEqual({ size: 10 });
    expect(await text(await store.openRead(key))).toBe('hello blob');
    expect(await store.exists(key)).toBe(true);
    expect((await store.stat(key)).size).toBe(10);
  });

  it('streams a blob larger than one multipart part in and out', async () => {
    const key = `${base}/tasks/2/big.bin`;
    // 12 MiB in 64 KiB chunks: more than one part of the S3 store's multipart upload.
    const chunk = randomBytes(64 * 1024);
    const chunks = 192;
    const { size } = await store.put(key, Readable.from((function* () { for (let i = 0; i < chunks; i++) yield chunk; })()));
    expect(size).toBe(chunk.length * chunks);
    expect((await store.stat(key)).size).toBe(size);
    let read = 0;
    let same = true;
    for await (const piece of await store.openRead(key)) {
      const bytes = piece as Buffer;
      for (let i = 0; i < bytes.length; i += 4096) same &&= bytes[i] === chunk[(read + i) % chunk.length];
      read += bytes.length;
    }
    expect(read).toBe(size);
    expect(same).toBe(true);
  });

  it('replaces a blob and keeps the old one when the new content fails', async () => {
    const key = `${base}/tasks/3/source`;
    await store.put(key, Buffer.from('first version'));
    await store.put(key, Buffer.from('second'));
    expect(await text(await store.openRead(key))).toBe('second');
    const failing = Readable.from((async function* () { yield Buffer.from('partial'); throw new Error('source broke'); })());
    await expect(store.put(key, failing)).rejects.toThrow('source broke');
    expect(await text(await store.openRead(key))).toBe('second');
  });

  it('reads byte ranges', async () => {
    const key = `${base}/tasks/4/range.txt`;
    await store.put(key, Buffer.from('0123456789'));
    expect(await text(await store.openRead(key, { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.openRead(key, { start: 7 }))).toBe('789');
    expect(await text(await store.openRead(key, { start: 3, end: 3 }))).toBe('3');
    expect((await buffer(await store.openRead(key, { start: 10 }))).length).toBe(0);
  });

  it('deletes blobs, and deleting a missing one is no error', async () => {
    const key = `${base}/tasks/5/source`;
    await store.put(key, Buffer.from('x'));
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await store.delete(key);
  });

  it('lists keys by prefix, and deletes everything under one', async () => {
    const keys = [`${base}/tasks/6/source`, `${base}/tasks/6/run-0/part-1.pdf`, `${base}/tasks/6/run-0/part-2.pdf`, `${base}/tasks/60/source`];
    for (const key of keys) await store.put(key, Buffer.from(key));
    expect((await store.list(`${base}/tasks/6/`)).sort()).toEqual(keys.slice(0, 3).sort());
    expect((await store.list(`${base}/tasks/6`)).sort()).toEqual(keys.slice().sort());
    expect((await store.list(`${base}/tasks/6/run-0/part-`)).sort()).toEqual(keys.slice(1, 3).sort());
    expect(await store.list(`${base}/tasks/7/`)).toEqual([]);
    expect(await deleteBlobsUnder(store, `${base}/tasks/6/`)).toBe(3);
    expect(await store.list(`${base}/tasks/6`)).toEqual([`${base}/tasks/60/source`]);
  });

  it('hands engines a local file with the content', async () => {
    const key = `${base}/tasks/8/doc.pdf`;
    await store.put(key, Buffer.from('%PDF-local'));
    const file = await store.localFile(key);
    expect(await readFile(file.path, 'utf8')).toBe('%PDF-local');
    await file.release();
    // The local store's is the blob's own file; a remote store's copy is kept or dropped by its cache.
    expect(await store.exists(key)).toBe(true);
  });

  it('hands out local files of the current content, also while an older one is in use', async () => {
    const key = `${base}/tasks/10/doc.pdf`;
    await store.put(key, Buffer.from('version one'));
    const [first, again] = await Promise.all([store.localFile(key), store.localFile(key)]);
    expect(await readFile(again.path, 'utf8')).toBe('version one');
    await store.put(key, Buffer.from('version two'));
    const second = await store.localFile(key);
    expect(await readFile(second.path, 'utf8')).toBe('version two');
    // The first holders still read what they were given.
    expect(await readFile(first.path, 'utf8')).toBe(store.kind === 's3' ? 'version one' : 'version two');
    await Promise.all([first.release(), again.release(), second.release()]);
    const third = await store.localFile(key);
    expect(await readFile(third.path, 'utf8')).toBe('version two');
    await third.release();
  });

  it('reports a missing blob with the same error everywhere', async () => {
    const key = `${base}/tasks/9/nothing`;
    await expect(store.openRead(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.openRead(key, { start: 1 })).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.stat(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.localFile(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.exists(key)).toBe(false);
  });
});

describe('S3 blob store local copies', () => {
  it('keeps unused copies within their budget, least recently used out first, and never one in use', async () => {
    const store = testS3Store({ localCopyBytes: 2500 });
    const base = `tenants/copies-${randomUUID()}`;
    try {
      const keys = [`${base}/a`, `${base}/b`, `${base}/c`];
      for (const key of keys) await store.put(key, Buffer.alloc(1000, key.at(-1)));
      const a = await store.localFile(keys[0]!);
      await a.release();
      const held = await store.localFile(keys[1]!);
      // Over budget now: a (unused) goes; b stays while it is held.
      const c = await store.localFile(keys[2]!);
      await c.release();
      await expect(access(a.path)).rejects.toThrow();
      expect(await readFile(held.path, 'utf8')).toBe('b'.repeat(1000));
      // The same version again: the kept copy, no second download.
      const c2 = await store.localFile(keys[2]!);
      expect(c2.path).toBe(c.path);
      await Promise.all([c2.release(), held.release()]);
    } finally {
      await deleteBlobsUnder(store, `${base}/`);
      store.client.destroy();
    }
  });
});
