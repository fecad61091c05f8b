import { S3Store } from '@tus/s3-store';
import type { KvStore } from '@tus/utils';
import type { Db } from '../../db/prisma.js';

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

  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await this.client.deleteObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
    await this.db.upload.deleteMany({ where: { id } });
  }
}
