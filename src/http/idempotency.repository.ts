import type { Db } from '../db/prisma.js';

/** A claim on an organization's key: only the request holding `token` records or releases it. */
export interface IdempotencyClaim {
  tenantId: number;
  key: string;
  token: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Timestamps cross as ISO text and are stored as UTC in Prisma's `timestamp(3)` columns. */
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One statement that claims the organization's key with `token`: the first INSERT wins; a later
 * one takes the row over only when it has expired, or when it is an unanswered claim whose lease
 * lapsed and the request is the same (fingerprint). Returns whether `token` now holds the key.
 */
export async function claimKeyRow(
  db: Db,
  claim: IdempotencyClaim,
  request: { fingerprint: string; now: number; ttlMs: number; leaseMs: number },
): Promise<boolean> {
  const { tenantId, key, token } = claim;
  const { fingerprint, now } = request;
  const claimed = await db.$queryRaw<Array<{ claimToken: string }>>`
    INSERT INTO "IdempotencyKey" AS k ("tenantId", "key", "fingerprint", "claimToken", "lockedUntil", "createdAt", "expiresAt")
    VALUES (${tenantId}, ${key}, ${fingerprint}, ${token},
            (${iso(now + request.leaseMs)}::timestamptz AT TIME ZONE 'UTC'),
            (${iso(now)}::timestamptz AT TIME ZONE 'UTC'),
            (${iso(now + request.ttlMs)}::timestamptz AT TIME ZONE 'UTC'))
    ON CONFLICT ("tenantId", "key") DO UPDATE SET
      "fingerprint" = EXCLUDED."fingerprint", "claimToken" = EXCLUDED."claimToken", "lockedUntil" = EXCLUDED."lockedUntil",
      "createdAt" = EXCLUDED."createdAt", "expiresAt" = EXCLUDED."expiresAt",
      "responseStatus" = NULL, "responseHeaders" = NULL, "responseBody" = NULL
    WHERE k."expiresAt" <= EXCLUDED."createdAt"
       OR (k."responseStatus" IS NULL AND k."lockedUntil" <= EXCLUDED."createdAt" AND k."fingerprint" = EXCLUDED."fingerprint")
    RETURNING k."claimToken"`;
  return claimed[0]?.claimToken === token;
}

export function findKeyRow(db: Db, tenantId: number, key: string) {
  return db.idempotencyKey.findUnique({ where: { tenantId_key: { tenantId, key } } });
}

/** Stores the response of the claim's request (nothing when the claim was lost to a lapsed lease). */
export async function recordIdempotentResponse(db: Db, claim: IdempotencyClaim, response: RecordedResponse): Promise<void> {
  await db.idempotencyKey.updateMany({
    where: { tenantId: claim.tenantId, key: claim.key, claimToken: claim.token },
    data: { responseStatus: response.status, responseHeaders: response.headers, responseBody: new Uint8Array(response.body) },
  });
}

/** Lets go of an unanswered claim: the next request with the key runs as if it were the first. */
export async function releaseIdempotencyClaim(db: Db, claim: IdempotencyClaim): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { tenantId: claim.tenantId, key: claim.key, claimToken: claim.token, responseStatus: null } });
}

/** Across organizations: the purge is a sweep of every expired key, whoever it belongs to. Returns how many went. */
export function deleteExpiredKeysAcrossTenants(db: Db, now: number, batch: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "IdempotencyKey" WHERE ctid IN (
      SELECT ctid FROM "IdempotencyKey" WHERE "expiresAt" <= (${iso(now)}::timestamptz AT TIME ZONE 'UTC') LIMIT ${batch}
    )`;
}
