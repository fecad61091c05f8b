import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { PrismaClient } from './db/prisma.js';
import type { EngineInventory } from './engines/inventory.js';
import type { Queues } from './pipeline/queues.js';
import type { LocalBlobStore } from './storage/blob-store.js';
import { uploadsRoutes } from './modules/uploads/uploads.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { installErrorHandling } from './http/error-handler.js';
import { healthRoutes } from './http/health.routes.js';
import { AppError } from './http/problem.js';
import { installCaseInsensitiveQuery } from './http/query-keys.js';
import { authPlugin } from './modules/auth/auth.plugin.js';
import type { SigningKeys } from './modules/auth/signing-keys.js';
import type { ClientSecretCache } from './modules/auth/client-secret-cache.js';
import { tokenRoutes } from './modules/auth/token.routes.js';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.js';
import { createTaskRoute, tasksRoutes } from './modules/tasks/tasks.routes.js';
import { batchesRoutes } from './modules/batches/batches.routes.js';
import { speakersRoutes } from './modules/speakers/speakers.routes.js';
import { transcriptExportRoutes } from './modules/exports/transcript-export.routes.js';
import { documentExportRoutes } from './modules/exports/document-export.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { invitationRoutes } from './modules/users/invitations.routes.js';
import { REVIEW_PREFIX, reviewRoutes } from './modules/review/review.routes.js';
import { reviewPageRoutes } from './modules/review/review-page.routes.js';

export const EXTERNAL_PREFIX = '/api/v1.0/external';

/** Everything the HTTP app needs; built by main.ts (or a test) and passed in: no side effects at import. */
export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  redis: Redis;
  queues: Queues;
  blobs: LocalBlobStore;
  /** HMAC key of signed file URLs. */
  fileUrlSecret: string;
  keys: SigningKeys;
  /** Each organization's client secret version, for checking tokens without a query. */
  clientSecrets: ClientSecretCache;
  engines: EngineInventory;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which per-client rate limit a route of the external API counts against (default general). */
    rateLimitBudget?: 'general' | 'heavy';
  }
  interface FastifyInstance {
    /** Every route registered, as `METHOD /url` (the OpenAPI test checks each one is documented). */
    routeCatalog: string[];
  }
}

export interface BuildAppOptions {
  /** A pino logger; none in tests. */
  logger?: FastifyBaseLogger;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Request ids double as the problem bodies' traceId; a caller's X-Request-Id is kept.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();

  const routeCatalog: string[] = [];
  app.decorate('routeCatalog', routeCatalog);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeCatalog.push(`${method} ${route.url}`);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  installCaseInsensitiveQuery(app);

  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Document Processing Service: External API',
        version: '1.0',
        description:
          'Tasks, batches, workspaces, speakers, exports and invitations. Geometry is in the page\'s own units: points for PDFs, pixels for images. Every error is an RFC 7807 problem body with a traceId.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(authPlugin, { clients: deps.clientSecrets, keys: deps.keys, issuer: deps.config.JWT_ISSUER });
  await app.register(rateLimit, {
    global: false,
    redis: deps.redis,
    nameSpace: 'ratelimit:',
    // A Redis outage must not take the API down with it: Postgres stays the source of truth.
    skipOnError: true,
    enableDraftSpec: true,
    keyGenerator: (request) => request.caller?.clientId ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, `Rate limit of ${context.max} requests per ${context.after} exceeded; retry later`),
  });

  await app.register(healthRoutes, deps);
  await app.register(tokenRoutes, deps);
  await app.register(uploadsRoutes, deps);
  await app.register(filesRoutes, deps);
  await app.register(invitationRoutes, deps);
  // The reviewer API authenticates users itself (user tokens, never client tokens).
  await app.register(reviewRoutes, { ...deps, prefix: REVIEW_PREFIX });
  await app.register(reviewPageRoutes);
  // Authentication first (onRequest), then the per-client rate limit keyed by the caller. The
  // plugin applies at most one limiter per request, so each route gets exactly one: the general
  // budget, or the heavy status list's own (config.rateLimitBudget 'heavy').
  const authenticated = (register: (scope: typeof app) => Promise<void>) => async (scope: typeof app) => {
    const limiters = {
      general: scope.rateLimit({ max: deps.config.RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 }),
      heavy: scope.rateLimit({
        max: deps.config.RATE_LIMIT_HEAVY_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => `heavy:${request.caller?.clientId ?? request.ip}`,
      }),
    };
    scope.addHook('onRequest', scope.authenticate);
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, security: [{ bearer: [] }] };
      const limiter = limiters[route.config?.rateLimitBudget ?? 'general'];
      route.preHandler = [limiter, ...[route.preHandler ?? []].flat()];
    });
    await register(scope);
  };
  await app.register(
    authenticated(async (external) => {
      await external.register(workspacesRoutes, deps);
      await external.register(tasksRoutes, deps);
      await external.register(batchesRoutes, deps);
      await external.register(speakersRoutes, deps);
      await external.register(documentExportRoutes, deps);
      await external.register(transcriptExportRoutes, deps);
      await external.register(usersRoutes, deps);
    }),
    { prefix: EXTERNAL_PREFIX },
  );
  // The spec's samples post tasks to /api/v1.0/sdtask/process (no `external` segment): an alias.
  await app.register(
    authenticated(async (samples) => {
      await samples.register(createTaskRoute('createTaskSampleAlias'), deps);
    }),
    { prefix: '/api/v1.0' },
  );

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
