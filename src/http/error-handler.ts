import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, defaultTitles, problemType, type FieldError } from './problem.js';

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

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  detail: string,
  extra: { title?: string; errors?: FieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
): FastifyReply {
  const body: ProblemBody = {
    type: problemType(status),
    title: extra.title ?? defaultTitles[status] ?? 'Error',
    status,
    detail,
    instance: request.url.split('?')[0] ?? null,
    traceId: String(request.id),
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...extra.extensions,
  };
  for (const [name, value] of Object.entries(extra.headers ?? {})) reply.header(name, value);
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
  app.setErrorHandler((error: FastifyError, request, reply) => {
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

/** Postgres or Redis unreachable: the caller should retry, not report a bug. */
function isInfrastructureOutage(error: Error): boolean {
  const code = (error as { code?: string }).code;
  const text = `${error.name} ${error.message}`;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ETIMEDOUT' ||
    code === 'P1001' ||
    code === 'P2024' ||
    /DatabaseNotReachable|Can't reach database|Connection is closed|connect ECONNREFUSED|Redis connection|Stream isn't writeable/i.test(text)
  );
}
