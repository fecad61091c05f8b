/**
 * Where TUS uploads live, on the blob store the process was configured with: the local store's
 * uploads go to DATA_DIR/uploads (the TUS file store), an S3 store's to the same bucket (the
 * TUS S3 store: object key = upload id, beside `<id>.info` and, while incomplete, `<id>.part`;
 * task blobs all live under `tenants/`). Every api instance on the bucket can resume any upload.
 */
import { AbortMultipartUploadCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { DataStore } from '@tus/server';
import type { Config } from '../../config.js';
import type { Db } from '../../db/prisma.js';
import { uploadsDir } from '../../storage/task-files.js';
import { LocalBlobStore, type BlobStore } from '../../storage/blob-store.js';
import { S3BlobStore, s3ClientConfig } from '../../storage/s3-blob-store.js';
import { UploadFileStore } from './upload-file-store.js';
import { UploadS3Store } from './upload-s3-store.js';

/** Incomplete uploads are deleted after this (the sweeper does it). */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** The uploads as blobs (key = upload id): what task creation checks and pre-processing reads. */
export function uploadFiles(blobs: BlobStore, config: Config): BlobStore {
  return blobs instanceof S3BlobStore ? blobs : new LocalBlobStore(uploadsDir(config));
}

/** The TUS datastore of the uploads; removing an upload through it deletes its row too. */
export function createUploadDatastore(blobs: BlobStore, config: Config, db: Db): DataStore {
  if (blobs instanceof S3BlobStore) {
    return new UploadS3Store(
      {
        s3ClientConfig: { ...s3ClientConfig(blobs.options), bucket: blobs.bucket },
        expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
        // Expiry is our sweeper's (by the Upload rows), not a bucket lifecycle rule on tags.
        useTags: false,
      },
      db,
    );
  }
  return new UploadFileStore({ directory: uploadsDir(config), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS }, db);
}

/** Removes whatever an upload left in the store, complete or not; a missing piece is no error. */
export async function purgeUploadFiles(blobs: BlobStore, config: Config, id: string): Promise<void> {
  if (blobs instanceof S3BlobStore) {
    // An incomplete upload is an open multipart upload: aborting it frees its parts.
    const info = await blobs.client.send(new HeadObjectCommand({ Bucket: blobs.bucket, Key: `${id}.info` })).catch(() => undefined);
    const multipartId = info?.Metadata?.['upload-id'];
    if (multipartId) {
      await blobs.client.send(new AbortMultipartUploadCommand({ Bucket: blobs.bucket, Key: id, UploadId: multipartId })).catch(() => undefined);
    }
    for (const key of [id, `${id}.part`, `${id}.info`]) await blobs.delete(key);
    return;
  }
  const files = uploadFiles(blobs, config);
  await files.delete(id);
  await files.delete(`${id}.json`);
}
