import type { Db } from '../../db/prisma.js';

/**
 * By client id, across organizations: the client id is the credential that names the
 * organization (token requests, the demo seed), so there is no tenant to filter by yet.
 */
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

/** The tenant's client, every column (each organization has one). */
export function findClientRowOfTenant(db: Db, tenantId: number) {
  return db.apiClient.findUnique({ where: { tenantId } });
}

export function insertClient(db: Db, data: { tenantId: number; clientId: string; secretHash: string; secretExpiresAt: Date }) {
  return db.apiClient.create({ data });
}

/** Gives the tenant's client another client id (the demo seed keeps the one it is configured with). */
export function setClientId(db: Db, tenantId: number, clientId: string) {
  return db.apiClient.update({ where: { tenantId }, data: { clientId } });
}

/** Replaces the tenant's client secret and bumps its version; Prisma's P2025 when the tenant has no client. */
export function replaceClientSecret(db: Db, tenantId: number, secret: { secretHash: string; secretExpiresAt: Date }, at: Date) {
  return db.apiClient.update({
    where: { tenantId },
    data: { ...secret, secretVersion: { increment: 1 }, rotatedAt: at },
  });
}
