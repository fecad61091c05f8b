import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PrismaClient } from '../../db/prisma.js';
import { UnauthorizedError } from '../../http/problem.js';
import { findClientOfTenant } from './clients.repository.js';
import type { SigningKeys } from './signing-keys.js';
import { InvalidTokenError, verifyAccessToken } from './tokens.js';

export interface Caller {
  tenantId: number;
  clientId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyInstance {
    /** preHandler that requires a valid Bearer token and puts the caller's tenant on the request. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The tenant of an authenticated request; calling it on a route without auth is a programming error. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf() on a route that does not authenticate');
  return request.caller;
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { prisma: PrismaClient; keys: SigningKeys; issuer: string }) => {
    app.decorateRequest('caller', undefined);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request.headers.authorization);
      if (!token) throw new UnauthorizedError('A Bearer access token is required in the Authorization header');
      let claims;
      try {
        claims = await verifyAccessToken(opts.keys, token, opts.issuer);
      } catch (err) {
        if (err instanceof InvalidTokenError) {
          throw new UnauthorizedError(err.message, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
        }
        throw err;
      }
      // Checked on every request so that a rotated or expired secret stops its tokens at once.
      const client = await findClientOfTenant(opts.prisma, claims.tenantId);
      if (!client || client.clientId !== claims.clientId || client.secretVersion !== claims.secretVersion) {
        throw new UnauthorizedError('The access token was revoked by a secret rotation', {
          headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
        });
      }
      if (client.secretExpiresAt.getTime() <= Date.now()) {
        throw new UnauthorizedError('The client secret has expired', {
          headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
        });
      }
      request.caller = { tenantId: claims.tenantId, clientId: claims.clientId };
    });
  },
  { name: 'auth' },
);
