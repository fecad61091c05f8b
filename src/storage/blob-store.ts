/**
 * Where task files live. Keys are relative, slash-separated names such as
 * `tenants/<tenantId>/tasks/<taskId>/source`; the local implementation maps them to files under
 * one root directory, and an S3-compatible one can map them to object keys unchanged.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BlobStat {
  size: number;
  modifiedAt: Date;
}

/** Bytes `start` to `end` (both included, as in an HTTP Range); no `end`: to the end of the blob. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** A file on the local disk with a blob's content, for engines that only read paths. */
export interface LocalFile {
  path: string;
  /** Removes the copy, if the store made one (the local store hands out the blob's own file). */
  release(): Promise<void>;
}

export interface BlobStore {
  /** Which implementation: `local` (a directory) or `s3` (a bucket). */
  readonly kind: 'local' | 's3';
  /** Stores the whole content under `key`, replacing any previous blob; readers never see a partial one. */
  put(key: string, content: Readable | Buffer): Promise<{ size: number }>;
  /** The blob, or the bytes of `range`; throws BlobNotFoundError when there is no blob under `key`. */
  openRead(key: string, range?: ByteRange): Promise<Readable>;
  /** A file path for engines that only accept paths; only stores backed by the local disk have it. */
  localPath?(key: string): string;
  /** The blob as a local file (a temporary copy for remote stores); throws BlobNotFoundError. */
  localFile(key: string): Promise<LocalFile>;
  exists(key: string): Promise<boolean>;
  /** Removes the blob; a missing blob is not an error, so deletion can be retried. */
  delete(key: string): Promise<void>;
  /** Throws BlobNotFoundError when there is no blob under `key`. */
  stat(key: string): Promise<BlobStat>;
  /** The keys that start with `prefix` (a plain string prefix, as in S3), in no particular order. */
  list(prefix: string): Promise<string[]>;
}

/** Deletes every blob whose key starts with `prefix` (e.g. `tenants/1/tasks/2/`); returns how many. */
export async function deleteBlobsUnder(store: BlobStore, prefix: string): Promise<number> {
  const keys = await store.list(prefix);
  for (const key of keys) await store.delete(key);
  return keys.length;
}

/** No blob under the key; the HTTP layer answers it with 404 (http/problem.ts `asAppError`). */
export class BlobNotFoundError extends Error {
  constructor() {
    super('The file does not exist.');
    this.name = 'BlobNotFoundError';
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`Invalid blob key ${JSON.stringify(key)}: expected slash-separated segments of [A-Za-z0-9_.-] not starting with a dot.`);
    this.name = 'InvalidBlobKeyError';
  }
}

// Segments may not start with a dot: that excludes `.` and `..`, and leaves dot-names to the
// store itself (the local store keeps its temporary files in `.incoming`).
const blobKeyPattern = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

export function assertValidBlobKey(key: string): void {
  if (!blobKeyPattern.test(key)) throw new InvalidBlobKeyError(key);
}

/** The error of a file system call on a path that does not exist (or runs through a file). */
export function isMissingFile(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * A read stream of a local file, opened before it is returned: a missing file rejects here, with
 * the file system's error (`isMissingFile`), rather than later as an 'error' event of a stream
 * that nobody may be listening to yet, which would end the process. A directory is refused with
 * ENOENT too: it is no file to read.
 */
export async function openFileStream(filePath: string, range?: ByteRange): Promise<Readable> {
  const handle = await open(filePath, 'r');
  try {
    if (!(await handle.stat()).isFile()) throw Object.assign(new Error(`${filePath} is not a file`), { code: 'ENOENT' });
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
}

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  private readonly rootDir: string;
  /** Temporary files are written here, on the same file system as the blobs, so rename is atomic. */
  private readonly incomingDir: string;

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir);
    this.incomingDir = path.join(this.rootDir, '.incoming');
  }

  localPath(key: string): string {
    assertValidBlobKey(key);
    return path.join(this.rootDir, ...key.split('/'));
  }

  async put(key: string, content: Readable | Buffer): Promise<{ size: number }> {
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    // An error the stream meets before the pipeline below listens to it (a file that fails to
    // open while the directories are made) stays on the stream, and the pipeline rejects with it,
    // instead of being an unhandled 'error' event that ends the process.
    const held = () => undefined;
    source.on('error', held);
    try {
      const target = this.localPath(key);
      await Promise.all([mkdir(path.dirname(target), { recursive: true }), mkdir(this.incomingDir, { recursive: true })]);
      const temp = path.join(this.incomingDir, randomUUID());
      try {
        // flush: the data is on disk before the rename makes it visible, so a crash cannot leave
        // an empty or truncated file under the final name.
        await pipeline(source, createWriteStream(temp, { flags: 'wx', flush: true }));
        const { size } = await stat(temp);
        await rename(temp, target);
        return { size };
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    } catch (err) {
      source.destroy(); // never read: its file or connection is released now
      throw err;
    } finally {
      source.off('error', held);
    }
  }

  async openRead(key: string, range?: ByteRange): Promise<Readable> {
    return openFileStream(this.localPath(key), range).catch((err: unknown) => {
      throw isMissingFile(err) ? new BlobNotFoundError() : err;
    });
  }

  async localFile(key: string): Promise<LocalFile> {
    const filePath = this.localPath(key);
    if (!(await this.fileStats(key))) throw new BlobNotFoundError();
    return { path: filePath, release: async () => undefined };
  }

  async list(prefix: string): Promise<string[]> {
    // The deepest directory the prefix names entirely; its files are filtered by the whole prefix.
    const slash = prefix.lastIndexOf('/');
    const dir = slash < 0 ? '' : prefix.slice(0, slash);
    if (dir !== '') assertValidBlobKey(dir);
    const base = path.join(this.rootDir, ...(dir ? dir.split('/') : []));
    let entries;
    try {
      entries = await readdir(base, { recursive: true, withFileTypes: true });
    } catch (err) {
      if (isMissingFile(err)) return [];
      throw err;
    }
    const keys: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.rootDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (key.startsWith(prefix) && blobKeyPattern.test(key)) keys.push(key);
    }
    return keys;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.fileStats(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    await unlink(this.localPath(key)).catch((err: unknown) => {
      if (!isMissingFile(err)) throw err;
    });
  }

  async stat(key: string): Promise<BlobStat> {
    const stats = await this.fileStats(key);
    if (!stats) throw new BlobNotFoundError();
    return { size: stats.size, modifiedAt: stats.mtime };
  }

  /** The file's stats, or undefined when there is none (a directory is not a blob). */
  private async fileStats(key: string) {
    try {
      const stats = await stat(this.localPath(key));
      return stats.isFile() ? stats : undefined;
    } catch (err) {
      if (isMissingFile(err)) return undefined;
      throw err;
    }
  }
}
