import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, asAppError, defaultTitles, problemType, type FieldError } from './problem.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string | null;
  traceId: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export interface ProblemExtras {
  title?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  extensions?: Record<string, unknown>;
}

/** The one body shape of every error, also for answers written without Fastify (http/edge-errors.ts). */
export function problemBody(
  status: number,
  detail: string,
  where: { instance: string | null; traceId: string },
  extra: Omit<ProblemExtras, 'headers'> = {},
): ProblemBody {
  return {
    type: problemType(status),
    title: extra.title ?? defaultTitles[status] ?? 'Error',
    status,
    detail,
    instance: where.instance,
    traceId: where.traceId,
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...extra.extensions,
  };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, status: number, detail: string, extra: ProblemExtras = {}): FastifyReply {
  const body = problemBody(status, detail, { instance: request.url.split('?')[0] ?? null, traceId: String(request.id) }, extra);
  for (const [name, value] of Object.entries(extra.headers ?? {})) reply.header(name, value);
  // Set here too: answers given before routing (bad URLs) do not pass the app's onSend hook.
  reply.header('x-request-id', String(request.id));
  // Problem bodies bypass the route's response schema: they are the same shape everywhere.
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).serializer(JSON.stringify).send(body);
}

interface ZodIssueLike {
  path?: PropertyKey[];
  message: string;
  instancePath?: string;
}

function fieldErrorsOf(error: FastifyError, context: string | undefined): FieldError[] {
  const validation = (error.validation ?? []) as unknown as Array<ZodIssueLike & { params?: { issue?: ZodIssueLike } }>;
  return validation.map((v) => {
    const issue = v.params?.issue ?? v;
    const pathParts = (issue.path ?? []).map(String);
    const field = pathParts.length ? pathParts.join('.') : (v.instancePath?.replace(/^\//, '').replace(/\//g, '.') || context || 'request');
    return { field, message: issue.message };
  });
}

/** Status codes Fastify's own errors carry that we pass on (anything else becomes a 500). */
const passThrough = new Set([400, 404, 405, 406, 413, 415, 429]);

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    const error = asAppError(thrown) ?? thrown;
    if (error instanceof AppError) {
      // A route may wrap unexpected failures in its own 500; an outage underneath is still a 503.
      if (error.status === 500 && error.cause instanceof Error && isInfrastructureOutage(error.cause)) {
        request.log.error({ err: error.cause }, 'dependency unavailable');
        return sendProblem(request, reply, 503, 'A backing service is unavailable; retry later', { headers: { 'retry-after': '5' } });
      }
      if (error.status >= 500) request.log.error({ err: error.cause ?? error }, 'request failed');
      return sendProblem(request, reply, error.status, error.detail, error);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrorsOf(error, error.validationContext);
      return sendProblem(request, reply, 400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
        title: 'ValidationError',
        errors,
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its schema');
      return sendProblem(request, reply, 500, 'An unexpected error occurred; quote the traceId when reporting it');
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return sendProblem(request, reply, 429, 'Rate limit exceeded; retry after the time in Retry-After');
    }
    if (passThrough.has(status)) {
      // Fastify's own messages (bad JSON, unsupported content type, body too large) are safe to show.
      return sendProblem(request, reply, status, error.message);
    }
    if (status === 503 || isInfrastructureOutage(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      return sendProblem(request, reply, 503, 'A backing service is unavailable; retry later', {
        headers: { 'retry-after': '5' },
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, 500, 'An unexpected error occurred; quote the traceId when reporting it');
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 404, `No route ${request.method} ${request.url.split('?')[0]}`),
  );
}

/**
 * Codes of a backing service that is down, restarting or unreachable: socket errors; Postgres
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down) and
 * too_many_connections; Prisma's can't reach / connect timeout / server closed the connection /
 * pool timeout. Postgres class 08 (connection exceptions) is matched apart.
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  '57P01', '57P02', '57P03', '53300',
  'P1001', 'P1002', 'P1017', 'P2024',
]);
/** The Prisma pg adapter's names for the same failures (`DriverAdapterError` cause `kind`). */
const OUTAGE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Errors that carry no code: pg's ended connections, ioredis' closed ones. */
const OUTAGE_MESSAGE =
  /Can't reach database|Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection is closed|connect ECONNREFUSED|Redis connection|Stream isn't writeable/i;

/**
 * Postgres or Redis unavailable: the caller should retry, not report a bug. Prisma wraps driver
 * errors in generic codes (P2010 raw query failed, P2039 database error) and keeps the driver's
 * error in `meta.driverAdapterError`, whose `cause` holds the Postgres code or the adapter's kind;
 * other libraries chain `cause`. Every link of those chains is looked at.
 */
function isInfrastructureOutage(error: Error): boolean {
  const pending: unknown[] = [error];
  const seen = new Set<unknown>();
  while (pending.length > 0 && seen.size < 16) {
    const link = pending.shift();
    if (typeof link !== 'object' || link === null || seen.has(link)) continue;
    seen.add(link);
    const { code, originalCode, kind, message, cause, meta } = link as Record<string, unknown>;
    for (const c of [code, originalCode]) {
      if (typeof c === 'string' && (OUTAGE_CODES.has(c) || /^08[0-9A-Z]{3}$/.test(c))) return true;
    }
    if (typeof kind === 'string' && OUTAGE_KINDS.has(kind)) return true;
    if (typeof message === 'string' && OUTAGE_MESSAGE.test(message)) return true;
    pending.push(cause, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
}
