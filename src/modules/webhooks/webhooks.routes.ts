import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import {
  createdWebhookResponse,
  createWebhookBody,
  deliveryPage,
  deliveryParams,
  deliveryQuery,
  deliveryResponse,
  rotatedSecretResponse,
  updateWebhookBody,
  webhookList,
  webhookParams,
  webhookResponse,
} from './webhooks.schemas.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  rotateWebhookSecret,
  updateWebhook,
} from './webhooks.service.js';

const tags = ['Webhooks'];

/** Extension routes (not in the spec): an organization's webhook endpoints and their deliveries. */
export const webhooksRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Register a webhook endpoint (the signing secret is shown only in this answer)',
        body: createWebhookBody,
        response: { 200: createdWebhookResponse, ...problemResponses(400, 401, 422, 429, 500, 503) },
      },
    },
    async (request) => createWebhook(deps, callerOf(request).tenantId, request.body),
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "The organization's webhook endpoints",
        response: { 200: webhookList, ...problemResponses(400, 401, 429, 500, 503) },
      },
    },
    async (request) => listWebhooks(deps, callerOf(request).tenantId),
  );

  app.get(
    '/webhooks/:webhookId',
    {
      schema: {
        operationId: 'getWebhook',
        tags,
        summary: 'One webhook endpoint, with why the service disabled it if it did',
        params: webhookParams,
        response: { 200: webhookResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => getWebhook(deps, callerOf(request).tenantId, request.params.webhookId),
  );

  app.patch(
    '/webhooks/:webhookId',
    {
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change the URL, the event types, the description, or enable/disable',
        params: webhookParams,
        body: updateWebhookBody,
        response: { 200: webhookResponse, ...problemResponses(400, 401, 404, 422, 429, 500, 503) },
      },
    },
    async (request) => updateWebhook(deps, callerOf(request).tenantId, request.params.webhookId, request.body),
  );

  app.delete(
    '/webhooks/:webhookId',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete the endpoint and its delivery history; pending deliveries are dropped',
        params: webhookParams,
        response: { 204: z.null().describe('Deleted'), ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(deps, callerOf(request).tenantId, request.params.webhookId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'New signing secret; deliveries carry a signature with the previous one too for 24 hours',
        params: webhookParams,
        response: { 200: rotatedSecretResponse, ...problemResponses(400, 401, 404, 409, 429, 500, 503) },
      },
    },
    async (request) => rotateWebhookSecret(deps, callerOf(request).tenantId, request.params.webhookId),
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'Delivery history of the endpoint, newest first: each attempt, its answer, the next try',
        params: webhookParams,
        querystring: deliveryQuery,
        response: { 200: deliveryPage, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => listWebhookDeliveries(deps, callerOf(request).tenantId, request.params.webhookId, request.query),
  );

  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhook',
        tags,
        summary: 'Send the event of a delivery again (same event id), as a new delivery',
        params: deliveryParams,
        response: { 200: deliveryResponse, ...problemResponses(400, 401, 404, 409, 429, 500, 503) },
      },
    },
    async (request) => redeliverWebhook(deps, callerOf(request).tenantId, request.params.webhookId, request.params.deliveryId),
  );
};
