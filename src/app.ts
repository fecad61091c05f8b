import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from './app-deps.js';
import type { Config } from './config.js';
import { uploadsRoutes } from './modules/uploads/uploads.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { clientErrorHandler, frameworkErrors, installDrainRefusal } from './http/edge-errors.js';
import { installErrorHandling, sendProblem } from './http/error-handler.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { AppError } from './http/problem.js';
import { installInputChecks } from './http/input-checks.js';
import { installCaseInsensitiveQuery } from './http/query-keys.js';
import { authPlugin } from './modules/auth/auth.plugin.js';
import { tokenRoutes } from './modules/auth/token.routes.js';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.js';
import { createTaskRoute, tasksRoutes } from './modules/tasks/tasks.routes.js';
import { batchesRoutes } from './modules/batches/batches.routes.js';
import { speakersRoutes } from './modules/speakers/speakers.routes.js';
import { transcriptExportRoutes } from './modules/exports/transcript-export.routes.js';
import { documentExportRoutes } from './modules/exports/document-export.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { invitationRoutes } from './modules/users/invitations.routes.js';
import { invitationMailQueue } from './pipeline/invitation-mails.js';
import { REVIEW_PREFIX, reviewRoutes } from './modules/review/review.routes.js';
import { reviewPageRoutes } from './modules/review/review-page.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { vendorProfilesRoutes } from './modules/vendor-profiles/vendor-profiles.routes.js';
import { idempotencyPlugin } from './http/idempotency.js';
import { metricsPlugin } from './observability/metrics-endpoint.js';
import { QUEUE_DASHBOARD_PREFIX, queueDashboardEnabled, queueDashboardRoutes } from './modules/admin/queue-dashboard.js';

export const EXTERNAL_PREFIX = '/api/v1.0/external';
/** Retry-After of the 503 an overloaded api answers: a lag clears within seconds or the instance needs help. */
const PRESSURE_RETRY_AFTER_SECONDS = 5;

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
  /** The clock of Idempotency-Key expiry (ms since the epoch): tests move it a day on. */
  idempotencyClock?: () => number;
}

/** Fastify takes a hop count at run time but its types do not: the same rule as a function. */
function trustProxyOption(trust: Config['TRUST_PROXY']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
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
    // request.ip (rate limits, failed-attempt limits) is the socket's address unless a proxy is
    // configured as trusted: otherwise any client could pick its address with X-Forwarded-For.
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    // installDrainRefusal answers requests during a drain with a problem body and Retry-After.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(options.logger),
  }).withTypeProvider<ZodTypeProvider>();

  const routeCatalog: string[] = [];
  app.decorate('routeCatalog', routeCatalog);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeCatalog.push(`${method} ${route.url}`);
  });
  installDrainRefusal(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  installInputChecks(app);
  installCaseInsensitiveQuery(app);
  // Back-pressure: while the event loop lags past the bound, requests are refused at once (503,
  // Retry-After) instead of queueing behind the lag. /health, the liveness probe, still answers;
  // /ready reports the pressure (a balancer then sends traffic elsewhere).
  await app.register(underPressure, {
    maxEventLoopDelay: deps.config.MAX_EVENT_LOOP_DELAY_MS,
    pressureHandler: (request, reply, _type, delayMs) => {
      if (request.routeOptions.url === '/health') return;
      sendProblem(request, reply, 503, `The service is overloaded (event loop delayed ${Math.round(Number(delayMs))} ms); retry after the time in Retry-After`, {
        headers: { 'retry-after': String(PRESSURE_RETRY_AFTER_SECONDS) },
      });
    },
  });

  // Request durations (every route registered from here on) and /metrics, when configured.
  await app.register(metricsPlugin, { config: deps.config, queues: deps.queues });
  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Document Processing Service: External API',
        version: '1.0',
        description:
          'Tasks, batches, workspaces, speakers, exports and invitations. Geometry is in the page\'s own units: points for PDFs, pixels for images. Every error is an RFC 7807 problem body with a traceId. Dates in queries (startDate, endDate) are ISO 8601, UTC when no offset is given, between 1970-01-01 and 9999-12-31.',
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
    // The time left in the window (context.after says it in words); the Retry-After header says the same.
    errorResponseBuilder: (_request, context) =>
      new AppError(429, `Rate limit of ${context.max} requests exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });

  // Before the routes: it hooks the ones that opt in (config.idempotent).
  await app.register(idempotencyPlugin, { prisma: deps.prisma, clock: options.idempotencyClock });
  await app.register(healthRoutes, deps);
  await app.register(tokenRoutes, deps);
  await app.register(uploadsRoutes, deps);
  await app.register(filesRoutes, deps);
  await app.register(invitationRoutes, deps);
  // The reviewer API authenticates users itself (user tokens, never client tokens).
  await app.register(reviewRoutes, { ...deps, prefix: REVIEW_PREFIX });
  await app.register(reviewPageRoutes);
  // The operators' queue dashboard: absent (404) unless an operator credential is configured.
  if (queueDashboardEnabled(deps.config)) {
    await app.register(queueDashboardRoutes, { config: deps.config, queues: deps.queues, prefix: QUEUE_DASHBOARD_PREFIX });
  }
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
      await external.register(usersRoutes, { ...deps, invitationMails: invitationMailQueue(deps.queues) });
      await external.register(webhooksRoutes, deps);
      await external.register(vendorProfilesRoutes, deps);
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
