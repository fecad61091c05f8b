import type { Db } from '../../db/prisma.js';
import { NotFoundError } from '../../http/problem.js';
import { findUpload, insertUpload, markUploadCompleted } from './uploads.repository.js';
import { UPLOAD_EXPIRY_MS } from './upload-storage.js';

/** The upload, when it is the organization's: another organization's is reported as missing (404). */
export async function requireOwnUpload(db: Db, tenantId: number, uploadId: string): Promise<void> {
  if (!(await findUpload(db, tenantId, uploadId))) throw new NotFoundError(`Upload ${uploadId} was not found`);
}

/** Records an upload the TUS server has just created, expiring UPLOAD_EXPIRY_MS from now. */
export async function recordUploadCreated(
  db: Db,
  creator: { tenantId: number; workspaceId: number },
  upload: { id: string; fileType: string; size: number | undefined },
): Promise<void> {
  await insertUpload(db, {
    id: upload.id,
    tenantId: creator.tenantId,
    workspaceId: creator.workspaceId,
    fileType: upload.fileType,
    size: upload.size === undefined ? null : BigInt(upload.size),
    expiresAt: new Date(Date.now() + UPLOAD_EXPIRY_MS),
  });
}

/** Marks the organization's upload complete at its final size: from now on a task may name it. */
export async function recordUploadFinished(db: Db, tenantId: number, uploadId: string, size: number): Promise<void> {
  await markUploadCompleted(db, tenantId, uploadId, BigInt(size), new Date());
}
