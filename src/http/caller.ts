import type { FastifyRequest } from 'fastify';

/** The organization (tenant) and API client behind an authenticated request. */
export interface Caller {
  tenantId: number;
  clientId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin's preHandler on routes that authenticate. */
    caller?: Caller;
  }
}

/** The token of an `Authorization: Bearer ...` header, if the header has that form. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The tenant of an authenticated request; calling it on a route without auth is a programming error. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf() on a route that does not authenticate');
  return request.caller;
}
