import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bearerToken, type Caller } from '../../http/caller.js';
import { UnauthorizedError } from '../../http/problem.js';
import type { ClientSecretCache } from '../../credentials/client-secret-cache.js';
import type { SigningKeys } from '../../credentials/signing-keys.js';
import { InvalidTokenError, verifyAccessToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler that requires a valid Bearer token and puts the caller's tenant on the request. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

/**
 * The caller behind an Authorization header: a valid token whose client still has that secret
 * version (checked on every request, so a rotated or expired secret stops its tokens as soon as
 * Postgres announces the change; see ClientSecretCache).
 */
export async function authenticateBearer(
  clients: ClientSecretCache,
  keys: SigningKeys,
  issuer: string,
  authorization: string | undefined,
): Promise<Caller> {
  const token = bearerToken(authorization);
  if (!token) throw new UnauthorizedError('A Bearer access token is required in the Authorization header');
  const invalid = (detail: string) => new UnauthorizedError(detail, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
  let claims;
  try {
    claims = await verifyAccessToken(keys, token, issuer);
  } catch (err) {
    if (err instanceof InvalidTokenError) throw invalid(err.message);
    throw err;
  }
  const client = await clients.get(claims.tenantId);
  if (!client || client.clientId !== claims.clientId || client.secretVersion !== claims.secretVersion) {
    throw invalid('The access token was revoked by a secret rotation');
  }
  if (client.secretExpiresAt.getTime() <= Date.now()) throw invalid('The client secret has expired');
  return { tenantId: claims.tenantId, clientId: claims.clientId };
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { clients: ClientSecretCache; keys: SigningKeys; issuer: string }) => {
    app.decorateRequest('caller', undefined);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.caller = await authenticateBearer(opts.clients, opts.keys, opts.issuer, request.headers.authorization);
    });
  },
  { name: 'auth' },
);
