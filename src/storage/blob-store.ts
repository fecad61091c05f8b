/**
 * Where task files live. Keys are relative, slash-separated names such as
 * `tenants/<tenantId>/tasks/<taskId>/source`; the local implementation maps them to files under
 * one root directory, and an S3-compatible one can map them to object keys unchanged.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFoundError } from '../http/problem.js';

export interface BlobStat {
  size: number;
  modifiedAt: Date;
}

export interface BlobStore {
  /** Stores the whole content under `key`, replacing any previous blob; readers never see a partial one. */
  put(key: string, content: Readable | Buffer): Promise<{ size: number }>;
  /** Throws BlobNotFoundError when there is no blob under `key`. */
  openRead(key: string): Promise<Readable>;
  /** A file path for engines that only accept paths; only stores backed by the local disk have it. */
  localPath?(key: string): string;
  exists(key: string): Promise<boolean>;
  /** Removes the blob; a missing blob is not an error, so deletion can be retried. */
  delete(key: string): Promise<void>;
  /** Throws BlobNotFoundError when there is no blob under `key`. */
  stat(key: string): Promise<BlobStat>;
}

export class BlobNotFoundError extends NotFoundError {
  constructor() {
    super('The file does not exist.');
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
function isMissingFile(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class LocalBlobStore implements BlobStore {
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
    const target = this.localPath(key);
    await Promise.all([mkdir(path.dirname(target), { recursive: true }), mkdir(this.incomingDir, { recursive: true })]);
    const temp = path.join(this.incomingDir, randomUUID());
    try {
      const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
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
  }

  async openRead(key: string): Promise<Readable> {
    // Opening first turns a missing file into a rejection here rather than a later stream error.
    const handle = await open(this.localPath(key), 'r').catch((err: unknown) => {
      throw isMissingFile(err) ? new BlobNotFoundError() : err;
    });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new BlobNotFoundError();
    }
    return handle.createReadStream();
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
