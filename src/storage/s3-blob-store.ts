/**
 * The blob store on an S3-compatible bucket (AWS S3, MinIO, Ceph RGW...): keys are object keys
 * unchanged. Content streams in (multipart for large blobs, through @aws-sdk/lib-storage) and out;
 * no blob is ever held in memory whole.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidBlobKey, BlobNotFoundError, type BlobStat, type BlobStore, type ByteRange, type LocalFile } from './blob-store.js';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** The server of an S3-compatible store (MinIO, Ceph RGW); unset: AWS. */
  endpoint?: string;
  /** Bucket in the path (`http://host/bucket/key`) rather than the host name: what MinIO and most self-hosted stores need. */
  forcePathStyle?: boolean;
  /** Unset: the AWS SDK's usual chain (AWS_* variables, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Disk the unused local copies may keep (default 512 MiB); copies in use are never deleted. */
  localCopyBytes?: number;
}

/** Part size of multipart uploads: 5 MiB is S3's minimum; a few parts in flight bound the memory used. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

/** The S3 client settings shared by the blob store and the TUS upload store. */
export function s3ClientConfig(options: S3BlobStoreOptions): S3ClientConfig {
  return {
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Checksums only where an operation requires one: the SDK's default (a trailing CRC32 in
    // aws-chunked bodies) is not understood by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function errorName(err: unknown): string | undefined {
  return (err as { name?: string } | undefined)?.name;
}

function isNotFound(err: unknown): boolean {
  const name = errorName(err);
  const status = (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
}

/** A downloaded object on the local disk (S3BlobStore.localFile). */
interface LocalCopy {
  path: string;
  etag: string;
  size: number;
  /** Callers holding it (not released yet): never deleted while above 0. */
  users: number;
  lastUsed: number;
  /** Deleted, or about to be: a caller that finds it so downloads again. */
  removed: boolean;
}

/** Unused local copies are kept while all copies of a store take at most this much disk. */
const LOCAL_COPY_BYTES = 512 * 1024 * 1024;

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  /** The current local copy of each key; `detached`: copies of an older version still in use. */
  private readonly copies = new Map<string, LocalCopy>();
  private readonly detached = new Set<LocalCopy>();
  private readonly downloads = new Map<string, Promise<LocalCopy>>();
  private copyDir: Promise<string> | undefined;

  constructor(readonly options: S3BlobStoreOptions) {
    this.client = new S3Client(s3ClientConfig(options));
    this.bucket = options.bucket;
  }

  async put(key: string, content: Readable | Buffer): Promise<{ size: number }> {
    assertValidBlobKey(key);
    if (Buffer.isBuffer(content)) {
      await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: content } }).done();
      return { size: content.length };
    }
    // Counted on the way through; the upload reads the stream part by part (a multipart upload
    // when it is larger than one part, aborted on failure: no object appears).
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline(content, counted), upload.done()]);
    } catch (err) {
      content.destroy();
      counted.destroy();
      await upload.abort().catch(() => undefined);
      throw err;
    }
    return { size };
  }

  async openRead(key: string, range?: ByteRange): Promise<Readable> {
    assertValidBlobKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError();
      // A range starting past the end: no bytes, as a file stream reading there gives.
      if (range && errorName(err) === 'InvalidRange') return Readable.from([]);
      throw err;
    }
  }

  /**
   * A local copy of the object, shared by the callers that want the same version at once and kept
   * after release while the copies stay under LOCAL_COPY_BYTES in all (the review pages of one
   * document, or detection right after pre-processing, read one download). A replaced object
   * (another ETag) is downloaded anew.
   */
  async localFile(key: string): Promise<LocalFile> {
    for (;;) {
      const head = await this.head(key);
      const etag = head.ETag ?? '';
      let copy = this.copies.get(key);
      if (!copy || copy.etag !== etag) {
        const id = `${key}\n${etag}`;
        let pending = this.downloads.get(id);
        if (!pending) {
          pending = this.download(key, etag, head.ContentLength ?? 0).finally(() => this.downloads.delete(id));
          this.downloads.set(id, pending);
        }
        copy = await pending;
      }
      // Evicted between its download and now: fetch again. Checked and taken in one step.
      if (copy.removed) continue;
      const taken = copy;
      taken.users++;
      taken.lastUsed = Date.now();
      let released = false;
      return {
        path: taken.path,
        release: async () => {
          if (released) return;
          released = true;
          taken.users--;
          await this.evict();
        },
      };
    }
  }

  private async download(key: string, etag: string, size: number): Promise<LocalCopy> {
    this.copyDir ??= mkdtemp(path.join(os.tmpdir(), 'blob-copies-'));
    const filePath = path.join(await this.copyDir, `${randomUUID()}-${path.posix.basename(key)}`);
    try {
      await pipeline(await this.openRead(key), createWriteStream(filePath, { flags: 'wx' }));
    } catch (err) {
      await rm(filePath, { force: true });
      throw err;
    }
    const copy: LocalCopy = { path: filePath, etag, size, users: 0, lastUsed: Date.now(), removed: false };
    // The copy of an older version goes when its last user is done. No eviction here: this copy
    // has no user until its callers take it (eviction runs when a copy is released).
    const previous = this.copies.get(key);
    this.copies.set(key, copy);
    if (previous && previous.users === 0) {
      previous.removed = true;
      await rm(previous.path, { force: true });
    } else if (previous) {
      this.detached.add(previous);
    }
    return copy;
  }

  /** Deletes unused copies: replaced ones at once, the least recently used past the budget. */
  private async evict(): Promise<void> {
    const doomed: LocalCopy[] = [];
    for (const copy of this.detached) {
      if (copy.users === 0) {
        this.detached.delete(copy);
        doomed.push(copy);
      }
    }
    let total = 0;
    for (const copy of this.copies.values()) total += copy.size;
    const idle = [...this.copies.entries()].filter(([, copy]) => copy.users === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [key, copy] of idle) {
      if (total <= (this.options.localCopyBytes ?? LOCAL_COPY_BYTES)) break;
      this.copies.delete(key);
      total -= copy.size;
      doomed.push(copy);
    }
    for (const copy of doomed) copy.removed = true;
    await Promise.all(doomed.map((copy) => rm(copy.path, { force: true })));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.stat(key);
      return true;
    } catch (err) {
      if (err instanceof BlobNotFoundError) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async stat(key: string): Promise<BlobStat> {
    const head = await this.head(key);
    return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
  }

  private async head(key: string) {
    assertValidBlobKey(key);
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError();
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }
}
