import type { Config } from '../../config.js';
import { publicBaseUrl } from '../../config.js';
import type { Db } from '../../db/prisma.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { findUpload } from '../uploads/uploads.repository.js';
import { uploadFiles } from '../uploads/upload-storage.js';
import { checkSourceReachable } from '../../net/source-fetch.js';
import { SourceUnreachableError } from '../../net/url-guard.js';

export const UPLOAD_PATH = '/files/';

/** The upload id when `url` is an upload location of this service ({base}/files/<id>). */
export function uploadIdOf(url: string, config: Config): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const base = new URL(publicBaseUrl(config));
  if (parsed.host !== base.host || !parsed.pathname.startsWith(UPLOAD_PATH)) return undefined;
  const id = parsed.pathname.slice(UPLOAD_PATH.length);
  return /^[\w-]{1,128}$/.test(id) ? id : undefined;
}

/** Whether the upload's file is still in the upload store (a deleted upload's is not). */
async function uploadFileExists(blobs: BlobStore, config: Config, uploadId: string): Promise<boolean> {
  return uploadFiles(blobs, config).exists(uploadId);
}

/**
 * Checks at creation that the task's file can be had: a completed upload of the same
 * organization whose file is still there, or a URL that answers (SSRF-guarded, short timeout).
 * Unusable: 422.
 */
export async function assertSourceAvailable(db: Db, config: Config, blobs: BlobStore, tenantId: number, url: string): Promise<void> {
  const uploadId = uploadIdOf(url, config);
  if (uploadId !== undefined) {
    const upload = await findUpload(db, tenantId, uploadId);
    // Another organization's upload is reported exactly like a missing one.
    if (!upload) throw new SourceUnreachableError('http-404', 'No upload of this organization exists at context.url.');
    if (!upload.completedAt) throw new SourceUnreachableError('http-409', 'The upload at context.url is not complete yet.');
    // Deleting an upload removes its row too (DELETE /files/<id>); this catches a file gone any other way.
    if (!(await uploadFileExists(blobs, config, uploadId))) throw new SourceUnreachableError('http-410', 'The upload at context.url has been deleted.');
    return;
  }
  await checkSourceReachable(url, {
    allowPrivate: config.SOURCE_URL_ALLOW_PRIVATE,
    timeoutMs: config.SOURCE_URL_CHECK_TIMEOUT_MS,
  });
}
