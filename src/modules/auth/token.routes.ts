import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { problemResponses } from '../../http/schemas.js';
import { exchangeClientCredentials, OAuthError } from './client-credentials.service.js';

const tokenRequest = z
  .object({
    grant_type: z.string().optional().describe('client_credentials'),
    scope: z.string().optional().describe('WebAPI'),
    client_id: z.string().max(200).optional(),
    client_secret: z.string().max(500).optional(),
  })
  .meta({ id: 'TokenRequest' });

const tokenResponse = z
  .object({
    access_token: z.string(),
    expires_in: z.number().int(),
    token_type: z.literal('Bearer'),
    scope: z.string(),
  })
  .meta({ id: 'TokenResponse' });

function basicCredentials(header: string | undefined) {
  const match = header?.match(/^Basic\s+(\S+)\s*$/i);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(400, 'invalid_request', 'Malformed HTTP Basic credentials');
  // RFC 6749 section 2.3.1: both parts are form-urlencoded inside Basic.
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
}

export const tokenRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/connect/token',
    {
      schema: {
        operationId: 'requestToken',
        tags: ['Authentication'],
        summary: 'Client-credentials access token (RFC 6749 section 4.4)',
        description:
          'Form-encoded (or JSON) `grant_type=client_credentials`, `scope=WebAPI`, `client_id`, `client_secret`; HTTP Basic client authentication is accepted too. Errors carry the RFC 6749 `error` code.',
        body: tokenRequest.optional(),
        response: { 200: tokenResponse, ...problemResponses(400, 401, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const result = await exchangeClientCredentials(deps.prisma, deps.keys, body, basicCredentials(request.headers.authorization), {
        issuer: deps.config.JWT_ISSUER,
        ttlSeconds: deps.config.TOKEN_TTL_SECONDS,
      });
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return result;
    },
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        operationId: 'getJwks',
        tags: ['Authentication'],
        summary: 'Public keys that verify access tokens',
        response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { keys: [deps.keys.publicJwk as Record<string, unknown>] };
    },
  );
};
