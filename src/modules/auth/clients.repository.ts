import type { Db } from '../../db/prisma.js';

export function findClientByClientId(db: Db, clientId: string) {
  return db.apiClient.findUnique({ where: { clientId } });
}

/** The client of a tenant with what every authenticated request needs to know of its tenant. */
export function findClientOfTenant(db: Db, tenantId: number) {
  return db.apiClient.findUnique({
    where: { tenantId },
    select: { clientId: true, secretVersion: true, secretExpiresAt: true },
  });
}
