import type { Db } from '../../db/prisma.js';

/** The organization's upload with this id; another organization's is not found. */
export function findUpload(db: Db, tenantId: number, uploadId: string) {
  return db.upload.findFirst({ where: { id: uploadId, tenantId } });
}
