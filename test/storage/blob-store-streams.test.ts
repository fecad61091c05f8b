import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMissingFile, LocalBlobStore, openFileStream } from '../../src/storage/blob-store.js';

const KEY = 'tenants/1/tasks/2/source';

let dir: string;
let store: LocalBlobStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'blob-streams-'));
  store = new LocalBlobStore(path.join(dir, 'blobs'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Errors that reach the process instead of the caller: each would end a worker. */
async function uncaughtDuring(work: () => Promise<unknown>): Promise<unknown[]> {
  const escaped: unknown[] = [];
  const record = (err: unknown) => escaped.push(err);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  try {
    await work().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  }
  return escaped;
}

describe('streams handed to the blob store', () => {
  it('rejects the put of a file stream that fails to open, and nothing escapes to the process', async () => {
    const missing = path.join(dir, 'gone.pdf');
    let rejection: unknown;
    const escaped = await uncaughtDuring(() => store.put(KEY, createReadStream(missing)).catch((err: unknown) => (rejection = err)));
    expect(escaped).toEqual([]);
    expect(isMissingFile(rejection)).toBe(true);
    expect(await store.exists(KEY)).toBe(false);
    expect(await readdir(path.join(dir, 'blobs', '.incoming'))).toEqual([]);
  });

  it('opens a file before handing out its stream: a missing file or a directory is a rejection', async () => {
    const file = path.join(dir, 'here.txt');
    await writeFile(file, 'content');
    expect(await text(await openFileStream(file))).toBe('content');
    for (const target of [path.join(dir, 'gone.txt'), dir]) {
      const err = await openFileStream(target).catch((e: unknown) => e);
      expect(isMissingFile(err), target).toBe(true);
    }
  });
});
