import type { Db } from '../../db/prisma.js';

/** The organization's upload with this id; another organization's is not found. */
export function findUpload(db: Db, tenantId: number, uploadId: string) {
  return db.upload.findFirst({ where: { id: uploadId, tenantId } });
}

export function insertUpload(db: Db, data: { id: string; tenantId: number; workspaceId: number; fileType: string; size: bigint | null; expiresAt: Date }) {
  return db.upload.create({ data });
}

export function markUploadCompleted(db: Db, tenantId: number, uploadId: string, size: bigint, at: Date) {
  return db.upload.update({ where: { id: uploadId, tenantId }, data: { completedAt: at, size } });
}

/**
 * Not scoped to an organization: the TUS stores hand their removal the upload id alone, an id
 * uploads.routes.ts has already found in the caller's organization before the store acts on it.
 */
export function deleteUploadAcrossTenants(db: Db, uploadId: string) {
  return db.upload.deleteMany({ where: { id: uploadId } });
}
