import { randomUUID } from 'node:crypto';
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

export type ClaimResult =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; response: RecordedResponse }
  | { kind: 'otherRequest' }
  | { kind: 'inFlight' };

export interface ClaimRequest {
  tenantId: number;
  key: string;
  fingerprint: string;
  /** The caller's clock (ms): tests move it forward instead of waiting a day. */
  now: number;
  /** How long the key replays its first response. */
  ttlMs: number;
  /** How long an unanswered claim holds the key (a crashed request lets go after this). */
  leaseMs: number;
}

/** Timestamps cross as ISO text and are stored as UTC in Prisma's `timestamp(3)` columns. */
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Claims the key with one statement, so that any number of api instances racing on it agree: the
 * first INSERT wins; a later one takes the row over only when it has expired, or when it is an
 * unanswered claim whose lease lapsed and the request is the same. Otherwise the row as it stands
 * decides: a recorded response replays, another request's fingerprint is refused, an open claim
 * is in flight.
 */
export async function claimIdempotencyKey(db: Db, request: ClaimRequest): Promise<ClaimResult> {
  const { tenantId, key, fingerprint, now } = request;
  // A row can vanish between the two statements (a purge, a released claim): then claim again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const token = randomUUID();
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
    if (claimed[0]?.claimToken === token) return { kind: 'claimed', claim: { tenantId, key, token } };

    const row = await db.idempotencyKey.findUnique({ where: { tenantId_key: { tenantId, key } } });
    if (!row) continue;
    if (row.fingerprint !== fingerprint) return { kind: 'otherRequest' };
    if (row.responseStatus === null || row.responseBody === null) return { kind: 'inFlight' };
    return {
      kind: 'replay',
      response: { status: row.responseStatus, headers: (row.responseHeaders ?? {}) as Record<string, string>, body: Buffer.from(row.responseBody) },
    };
  }
  throw new Error(`Idempotency-Key ${key} could be neither claimed nor read`);
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

/** Deletes expired keys, a batch at a time; returns how many went. */
export async function purgeExpiredIdempotencyKeys(db: Db, now: number, batch = 5_000): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "IdempotencyKey" WHERE ctid IN (
      SELECT ctid FROM "IdempotencyKey" WHERE "expiresAt" <= (${iso(now)}::timestamptz AT TIME ZONE 'UTC') LIMIT ${batch}
    )`;
}
