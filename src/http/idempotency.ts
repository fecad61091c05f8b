/**
 * Idempotency-Key on creating POSTs (DESIGN.md section 8), for every route whose config names an
 * operation (`config: { idempotent: 'createTask' }`); routes that alias one another name the same
 * operation. Within 24 h the same key (per organization) with the same request replays the first
 * response and does nothing; with another request it is a 422; while the first is still running,
 * a 409. The key is claimed in Postgres before the work (idempotency-store.ts), so api instances
 * racing on one key agree, and the response is recorded before it is sent.
 *
 * What is recorded follows Stripe: every answer that decided the request (2xx, and 4xx such as a
 * 404 workspace or a 422 source) replays. Answers that say "try again" (408, 409, 425, 429, every
 * 5xx) release the key instead, so a retry runs afresh; so does a request that fails validation,
 * which never claims the key. A request that dies before answering holds the key for `leaseMs`
 * only; a retry after that runs again (the one case in which the work may happen twice: a crash
 * between the work and the recording).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { PrismaClient } from '../db/prisma.js';
import { callerOf } from './caller.js';
import {
  claimIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  recordIdempotentResponse,
  releaseIdempotencyClaim,
  type IdempotencyClaim,
} from './idempotency-store.js';
import { ConflictError, UnprocessableError } from './problem.js';
import { problemResponses } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opts the route into Idempotency-Key handling; the value names the operation keys belong to. */
    idempotent?: string;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longer than any create takes (the source URL check is bounded by seconds). */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
const PURGE_EVERY_MS = 15 * 60 * 1000;

/**
 * Headers replayed with the body. X-Request-Id is among them: a replayed problem's traceId is the
 * first request's, and so is the header that must match it (the first request's log lines
 * explain the answer).
 */
const REPLAYED_HEADERS = ['content-type', 'location', 'link', 'x-request-id'];
/** Answers meaning "not now": a retry with the key must run again. */
const TRANSIENT_STATUSES = new Set([408, 409, 425, 429]);

const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'visible ASCII characters only (no spaces)')
  .meta({
    description:
      'Makes the create safe to retry: a key of 1-255 visible ASCII characters (a UUID, say), unique per intended create. ' +
      'Within 24 h the same key and the same body replay the first response (header Idempotent-Replayed: true) and create nothing; ' +
      'another body is a 422, and a request while the first is still running a 409. Keys belong to the organization.',
  });

export const idempotencyHeaders = z.looseObject({ [IDEMPOTENCY_HEADER]: idempotencyKey.optional() });

export interface IdempotencyOptions {
  prisma: PrismaClient;
  /** Milliseconds since the epoch; tests move it. */
  clock?: () => number;
  ttlMs?: number;
  leaseMs?: number;
}

/** JSON with object keys sorted: the same body in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fingerprintOf(operation: string, request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(request.query ?? {})}\n${canonicalJson(request.body ?? null)}`)
    .digest('hex');
}

export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: IdempotencyOptions) => {
    const { prisma } = options;
    const clock = options.clock ?? Date.now;
    const ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_MS;
    const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
    // Per request: the fingerprint of the body as sent (before validation shapes it), then the claim.
    const fingerprints = new WeakMap<FastifyRequest, string>();
    const claims = new WeakMap<FastifyRequest, IdempotencyClaim>();
    // Replays' recorded headers, set again in onSend, after the app's own onSend hook set X-Request-Id.
    const replays = new WeakMap<FastifyRequest, Record<string, string>>();

    const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const claim = claims.get(request);
      if (!claim) return;
      claims.delete(request);
      const status = reply.statusCode;
      const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
      try {
        if (body && status < 500 && !TRANSIENT_STATUSES.has(status)) {
          const headers: Record<string, string> = {};
          for (const name of REPLAYED_HEADERS) {
            const value = reply.getHeader(name);
            if (value !== undefined) headers[name] = String(value);
          }
          await recordIdempotentResponse(prisma, claim, { status, headers, body });
        } else {
          await releaseIdempotencyClaim(prisma, claim);
        }
      } catch (err) {
        // The answer still goes out; the claim lapses after its lease.
        request.log.warn({ err, key: claim.key }, 'idempotency key not settled');
      }
    };

    app.addHook('onRoute', (route: RouteOptions) => {
      const operation = route.config?.idempotent;
      if (!operation) return;
      if (route.schema?.headers) throw new Error(`${route.url}: idempotent routes take no other header schema`);
      route.schema = {
        ...route.schema,
        headers: idempotencyHeaders,
        response: { ...problemResponses(400, 409, 422), ...(route.schema?.response as object | undefined) },
      };
      route.preValidation = [
        ...[route.preValidation ?? []].flat(),
        async (request: FastifyRequest) => {
          if (request.headers[IDEMPOTENCY_HEADER] !== undefined) fingerprints.set(request, fingerprintOf(operation, request));
        },
      ];
      // Appended: authentication (onRequest), validation and the rate limit come first.
      route.preHandler = [
        ...[route.preHandler ?? []].flat(),
        async (request: FastifyRequest, reply: FastifyReply) => {
          const key = request.headers[IDEMPOTENCY_HEADER];
          const fingerprint = fingerprints.get(request);
          if (typeof key !== 'string' || fingerprint === undefined) return;
          const now = clock();
          const result = await claimIdempotencyKey(prisma, { tenantId: callerOf(request).tenantId, key, fingerprint, now, ttlMs, leaseMs });
          switch (result.kind) {
            case 'claimed':
              claims.set(request, result.claim);
              return;
            case 'replay':
              replays.set(request, result.response.headers);
              return reply.code(result.response.status).headers(result.response.headers).header(REPLAYED_HEADER, 'true').send(result.response.body);
            case 'otherRequest':
              throw new UnprocessableError('This Idempotency-Key was used with another request in the last 24 hours; use a new key for a new request', {
                title: 'IdempotencyKeyReused',
              });
            case 'inFlight':
              throw new ConflictError('A request with this Idempotency-Key is still being processed; retry when it has finished', {
                title: 'IdempotencyKeyInUse',
                headers: { 'retry-after': '1' },
              });
          }
        },
      ];
      route.onSend = [
        ...[route.onSend ?? []].flat(),
        async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
          const replayed = replays.get(request);
          if (replayed) reply.headers(replayed);
          else await settle(request, reply, payload);
          return payload;
        },
      ];
    });

    const purge = () =>
      purgeExpiredIdempotencyKeys(prisma, clock()).catch((err: unknown) => app.log.warn({ err }, 'expired idempotency keys not purged'));
    const timer = setInterval(() => void purge(), PURGE_EVERY_MS).unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'idempotency' },
);

