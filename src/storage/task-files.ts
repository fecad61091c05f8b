import path from 'node:path';
import type { Config } from '../config.js';
import { deleteBlobsUnder, type BlobStore } from './blob-store.js';

/** Where TUS uploads are stored (shared by the api, which receives them, and the workers). */
export function uploadsDir(config: Config): string {
  return path.resolve(config.DATA_DIR, 'uploads');
}

/** The key of a task's stored file: everything of a task lives under its own prefix. */
export function taskBlobKey(tenantId: number, taskId: number, name: string): string {
  return `tenants/${tenantId}/tasks/${taskId}/${name}`;
}

/**
 * Deletes every stored file of a task that is gone for good (a part superseded by a reprocess of
 * its original: status Deleted): its outputs, under its own prefix. Its source, a slice of the
 * original, lives under the original's prefix and goes with the original's earlier runs.
 */
export async function deleteTaskFiles(blobs: BlobStore, tenantId: number, taskId: number): Promise<number> {
  return deleteBlobsUnder(blobs, taskBlobKey(tenantId, taskId, ''));
}

/**
 * Deletes the files of a task's runs before `currentRun` (split parts, redacted outputs): a
 * reprocess starts a new run that makes its own, and nothing points at the old ones any more.
 * The task's source stays: it is fetched again, and the same key is rewritten.
 */
export async function deleteEarlierRunFiles(blobs: BlobStore, tenantId: number, taskId: number, currentRun: number): Promise<number> {
  const prefix = taskBlobKey(tenantId, taskId, 'run-');
  let deleted = 0;
  for (const key of await blobs.list(prefix)) {
    const run = Number(/^run-(\d+)\//.exec(key.slice(prefix.length - 'run-'.length))?.[1]);
    if (Number.isInteger(run) && run < currentRun) {
      await blobs.delete(key);
      deleted++;
    }
  }
  return deleted;
}
