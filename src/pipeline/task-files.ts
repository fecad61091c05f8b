import type { BlobStore } from '../storage/blob-store.js';
import { deleteBlobsUnder } from '../storage/blob-store.js';
import { taskBlobKey } from './pipeline-deps.js';

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
