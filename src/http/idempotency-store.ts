import { randomUUID } from 'node:crypto';
import type { Db } from '../db/prisma.js';
import { claimKeyRow, deleteExpiredKeysAcrossTenants, findKeyRow, type IdempotencyClaim, type RecordedResponse } from './idempotency.repository.js';

export type { IdempotencyClaim, RecordedResponse };
// Recording and releasing are single statements on the claim's own row.
export { recordIdempotentResponse, releaseIdempotencyClaim } from './idempotency.repository.js';

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

/**
 * Claims the key with one statement, so that any number of api instances racing on it agree: the
 * first INSERT wins; a later one takes the row over only when it has expired, or when it is an
 * unanswered claim whose lease lapsed and the request is the same. Otherwise the row as it stands
 * decides: a recorded response replays, another request's fingerprint is refused, an open claim
 * is in flight.
 */
export async function claimIdempotencyKey(db: Db, request: ClaimRequest): Promise<ClaimResult> {
  const { tenantId, key, fingerprint } = request;
  // A row can vanish between the two statements (a purge, a released claim): then claim again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const token = randomUUID();
    if (await claimKeyRow(db, { tenantId, key, token }, request)) return { kind: 'claimed', claim: { tenantId, key, token } };

    const row = await findKeyRow(db, tenantId, key);
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

/** Deletes expired keys of every organization, a batch at a time; returns how many went. */
export async function purgeExpiredIdempotencyKeys(db: Db, now: number, batch = 5_000): Promise<number> {
  return deleteExpiredKeysAcrossTenants(db, now, batch);
}
