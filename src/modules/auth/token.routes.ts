import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { findInputProblem } from '../../http/input-checks.js';
import { problemResponses } from '../../http/schemas.js';
import { exchangeClientCredentials, OAuthError } from './client-credentials.service.js';
import { FailedAttempts } from './failed-attempts.js';
import { VerifiedSecrets } from './verified-secrets.js';

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
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new OAuthError(400, 'invalid_request', 'Malformed percent-encoding in HTTP Basic credentials');
    }
  };
  const credentials = { client_id: decode(decoded.slice(0, colon)), client_secret: decode(decoded.slice(colon + 1)) };
  // Decoded from the header, so the app-wide input checks (http/input-checks.ts) never saw them.
  const problem = findInputProblem(credentials);
  if (problem) {
    const field = problem.path.join('.');
    throw new OAuthError(400, 'invalid_request', `${field} ${problem.message}`, {}, [{ field, message: problem.message }]);
  }
  return { clientId: credentials.client_id, clientSecret: credentials.client_secret };
}

export const tokenRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const failures = new FailedAttempts(deps.redis, {
    windowMs: 60_000,
    onError: (err) => app.log.warn({ err }, 'failed-attempt limit unavailable (Redis); attempts are not limited'),
  });
  const verified = new VerifiedSecrets();
  app.post(
    '/connect/token',
    {
      schema: {
        operationId: 'requestToken',
        tags: ['Authentication'],
        summary: 'Client-credentials access token (RFC 6749 section 4.4)',
        description:
          'Form-encoded (or JSON) `grant_type=client_credentials`, `scope=WebAPI`, `client_id`, `client_secret`; HTTP Basic client authentication is accepted too. Errors carry the RFC 6749 `error` code. Failed attempts are limited per client_id and per client address each minute: past the limit, 429 `temporarily_unavailable` with Retry-After, whatever the secret, until the minute ends (a secret this server instance has verified before still gets a token).',
        body: tokenRequest.optional(),
        response: { 200: tokenResponse, ...problemResponses(400, 401, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const guard = {
        address: request.ip,
        failures,
        verified,
        maxFailuresPerClient: deps.config.TOKEN_FAILURES_PER_CLIENT_PER_MINUTE,
        maxFailuresPerAddress: deps.config.TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE,
      };
      const result = await exchangeClientCredentials(deps.prisma, deps.keys, body, basicCredentials(request.headers.authorization), guard, {
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
