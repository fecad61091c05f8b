import { S3Store } from '@tus/s3-store';
import { ERRORS, type KvStore } from '@tus/server';
import type { Db } from '../../db/prisma.js';
import { deleteUploadAcrossTenants } from './uploads.repository.js';

/** S3's answers for an object or multipart upload that does not exist (some stores say NoSuchKey for both). */
function isMissing(err: unknown): boolean {
  const name = (err as { name?: string } | undefined)?.name;
  return name === 'NoSuchKey' || name === 'NoSuchUpload' || name === 'NotFound' || (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;
}

type S3StoreOptions = ConstructorParameters<typeof S3Store>[0];
type Metadata = S3StoreOptions extends { cache?: KvStore<infer T> } ? T : never;

/**
 * No cache of upload metadata: every request reads the upload's `.info` object. The TUS S3
 * store's default keeps it in process memory, where another api instance resuming the upload
 * would leave it stale (a declared length, a completion) and where abandoned uploads pile up.
 */
class NoCache implements KvStore<Metadata> {
  async get(): Promise<Metadata | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
  async list(): Promise<string[]> {
    return [];
  }
}

/**
 * The TUS S3 store (uploads as multipart uploads of the bucket, object key = upload id), keeping
 * our Upload rows in step with it as UploadFileStore does: when an upload is removed (DELETE
 * /files/<id>) its row goes too, and so does the trailing part smaller than S3's minimum part
 * size that the store keeps as `<id>.part` while an upload is incomplete.
 */
export class UploadS3Store extends S3Store {
  constructor(
    options: Omit<S3StoreOptions, 'cache'>,
    private readonly db: Db,
  ) {
    super({ ...options, cache: new NoCache() });
  }

  /**
   * Removes a complete upload too (termination of a finished upload is allowed: uploads.routes.ts):
   * the TUS S3 store's own removal answers 404 once the multipart upload is completed.
   */
  override async remove(id: string): Promise<void> {
    let multipartId: string | undefined;
    try {
      multipartId = (await this.getMetadata(id))['upload-id'];
    } catch (err) {
      if (isMissing(err)) throw ERRORS.FILE_NOT_FOUND;
      throw err;
    }
    if (multipartId) {
      await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: multipartId }).catch((err: unknown) => {
        if (!isMissing(err)) throw err; // completed (or aborted) already
      });
    }
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.partKey(id, true) }, { Key: this.infoKey(id) }] },
    });
    await deleteUploadAcrossTenants(this.db, id);
  }
}
