import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { problemResponses } from '../../http/schemas.js';
import { FailedAttempts } from '../auth/failed-attempts.js';
import { renderTaskPage } from './page-images.js';
import { login } from './review-login.service.js';
import { editEntities, editTranscript } from './review-edits.service.js';
import {
  checkoutResponse,
  completeResponse,
  entityEditsBody,
  entityEditsResponse,
  loginBody,
  loginResponse,
  pageParams,
  reviewListQuery,
  reviewTaskDetail,
  reviewTaskPage,
  reviewTranscript,
  taskParams,
  transcriptEditsBody,
} from './review.schemas.js';
import { checkOut, completeReview, getReviewTask, listMyTasks, reviewablePageSource } from './review.service.js';
import { authenticateReviewer, type Reviewer } from './reviewer.js';

/** Where buildApp mounts reviewRoutes. */
export const REVIEW_PREFIX = '/api/v1.0/review';

/** Password guesses per email and client address per minute. */
const LOGIN_ATTEMPTS_PER_MINUTE = 10;

declare module 'fastify' {
  interface FastifyRequest {
    reviewer?: Reviewer;
  }
}

function reviewerOf(request: FastifyRequest): Reviewer {
  if (!request.reviewer) throw new Error('reviewerOf() on a route that does not authenticate a reviewer');
  return request.reviewer;
}

const tags = ['Review'];
const errors = problemResponses(400, 401, 403, 404, 409, 429, 500, 503);

/**
 * The reviewer API, an extension beside the spec: users log in with their password and review the tasks they may
 * review now. Its tokens are user tokens (reviewer.ts), never client-credentials tokens.
 */
export const reviewRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.decorateRequest('reviewer', undefined);
  const failures = new FailedAttempts(deps.redis, {
    windowMs: 60_000,
    onError: (err) => app.log.warn({ err }, 'failed-login limit unavailable (Redis); logins are not limited per address'),
  });

  app.post(
    '/login',
    {
      schema: {
        operationId: 'reviewLogin',
        tags,
        summary: 'Log a user in with email and password: a Bearer token for the reviewer API',
        description:
          'When the email belongs to users of several organizations, a 400 TenantRequired lists them (to someone who knows the password); send tenantId. Attempts are limited per email and client address each minute, and failed logins per client address whatever the email: past either limit, 429 with Retry-After, whatever the password, until the minute ends.',
        body: loginBody,
        response: { 200: loginResponse, ...problemResponses(400, 401, 429, 500, 503) },
      },
      preHandler: app.rateLimit({
        max: LOGIN_ATTEMPTS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => `login:${request.ip}:${(request.body as { email: string }).email.toLowerCase()}`,
      }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return login(deps, request.body, { address: request.ip, failures, maxFailuresPerAddress: deps.config.LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE });
    },
  );

  await app.register(reviewerRoutes(deps));
};

/**
 * Every route but login: a user token of a reviewer, and a rate limit per user. Built from the
 * dependencies rather than given them as options, which carry the mount prefix it would add again.
 */
const reviewerRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (reviewer) => {
  reviewer.addHook('onRequest', async (request) => {
    request.reviewer = await authenticateReviewer(deps, request.headers.authorization);
  });
  reviewer.addHook(
    'preHandler',
    reviewer.rateLimit({ max: deps.config.RATE_LIMIT_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request) => `user:${reviewerOf(request).userId}` }),
  );
  reviewer.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ bearer: [] }] };
  });

  reviewer.get(
    '/tasks',
    {
      schema: {
        operationId: 'reviewListTasks',
        tags,
        summary: 'Tasks I may review now: assigned to me and my turn, or unassigned, in ToReview or InReview',
        querystring: reviewListQuery,
        response: { 200: reviewTaskPage, ...errors },
      },
    },
    async (request) => listMyTasks(deps, reviewerOf(request), request.query),
  );

  reviewer.get(
    '/tasks/:taskId',
    {
      schema: {
        operationId: 'reviewGetTask',
        tags,
        summary: 'A task to review: its chunks and entities or its transcript, page images and the source file link',
        params: taskParams,
        response: { 200: reviewTaskDetail, ...errors },
      },
    },
    async (request) => getReviewTask(deps, reviewerOf(request), request.params.taskId, reviewer.prefix),
  );

  reviewer.get(
    '/tasks/:taskId/pages/:pageNumber.png',
    {
      schema: {
        operationId: 'reviewGetPageImage',
        tags,
        summary: "One page of a document task's source file as a PNG",
        params: pageParams,
        response: errors,
      },
    },
    async (request, reply) => {
      const source = await reviewablePageSource(deps, reviewerOf(request), request.params.taskId);
      const png = await renderTaskPage(deps.blobs, source, request.params.pageNumber);
      return reply.type('image/png').header('cache-control', 'private, max-age=300').send(png as never);
    },
  );

  reviewer.post(
    '/tasks/:taskId/checkout',
    {
      schema: {
        operationId: 'reviewCheckOut',
        tags,
        summary: 'Check a task out (InReview) for 30 minutes; again to extend. 409 while another reviewer holds it',
        params: taskParams,
        response: { 200: checkoutResponse, ...errors },
      },
    },
    async (request) => checkOut(deps, reviewerOf(request), request.params.taskId),
  );

  reviewer.patch(
    '/tasks/:taskId/entities',
    {
      schema: {
        operationId: 'reviewEditEntities',
        tags,
        summary: 'Edit key-values of entities of a checked-out document task; edits record who and when',
        params: taskParams,
        body: entityEditsBody,
        response: { 200: entityEditsResponse, ...errors },
      },
    },
    async (request) => editEntities(deps, reviewerOf(request), request.params.taskId, request.body),
  );

  reviewer.patch(
    '/tasks/:taskId/transcript',
    {
      schema: {
        operationId: 'reviewEditTranscript',
        tags,
        summary: 'Edit segments (text, speaker) and annotations of a checked-out transcript task',
        params: taskParams,
        body: transcriptEditsBody,
        response: { 200: reviewTranscript, ...errors },
      },
    },
    async (request) => editTranscript(deps, reviewerOf(request), request.params.taskId, request.body),
  );

  reviewer.post(
    '/tasks/:taskId/complete',
    {
      schema: {
        operationId: 'reviewComplete',
        tags,
        summary: 'Complete my review of a checked-out task; the last required review makes it ExportCompleted',
        params: taskParams,
        response: { 200: completeResponse, ...errors },
      },
    },
    async (request) => completeReview(deps, reviewerOf(request), request.params.taskId, request.log),
  );
};
