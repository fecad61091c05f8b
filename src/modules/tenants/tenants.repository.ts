import type { Db } from '../../db/prisma.js';

export function insertTenant(
  db: Db,
  data: { name: string; licenceExpiresOn: Date | null; freeVolume: number | null; featureHighPriority: boolean; featureCustomFormValues: boolean },
) {
  return db.tenant.create({ data });
}

export function findTenant(db: Db, tenantId: number) {
  return db.tenant.findUnique({ where: { id: tenantId } });
}
