/**
 * Serving the Prometheus metrics (off unless configured):
 * - METRICS_PORT set: a listener of their own on that port, in every process (api, worker, dev),
 *   and none on the api's port, which can then stay public;
 * - METRICS_TOKEN set without METRICS_PORT: GET /metrics on the api's port;
 * - METRICS_TOKEN set: scrapers send `Authorization: Bearer <METRICS_TOKEN>`, wherever it is served.
 * Neither is part of the external API: /metrics is hidden from the OpenAPI document.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { problemBody, PROBLEM_CONTENT_TYPE, sendProblem } from '../http/error-handler.js';
import { bearerMatches } from '../http/operator-auth.js';
import type { Queues } from '../queues/queues.js';
import { httpRequestDuration, metricsRegistry, startProcessMetrics } from './metrics.js';
import { observeQueues } from './queue-metrics.js';

type MetricsConfig = Pick<Config, 'METRICS_PORT' | 'METRICS_TOKEN'>;

export function metricsEnabled(config: MetricsConfig): boolean {
  return config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined;
}

const UNAUTHORIZED = 'Metrics need the Bearer token of METRICS_TOKEN';

/** Request durations by route pattern, and GET /metrics on the api's port when so configured. */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { config, queues }: { config: MetricsConfig; queues: Queues }) => {
    if (!metricsEnabled(config)) return;
    startProcessMetrics();
    const stopObserving = observeQueues(queues);
    app.addHook('onClose', async () => stopObserving());
    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      // The route's pattern, never the raw URL: one series per route, whatever ids are sent.
      const route = request.routeOptions.url ?? '(no route)';
      httpRequestDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
    if (config.METRICS_PORT !== undefined || config.METRICS_TOKEN === undefined) return;
    const token = config.METRICS_TOKEN;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        return sendProblem(request, reply, 401, UNAUTHORIZED, { headers: { 'www-authenticate': 'Bearer' } });
      }
      return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
    });
  },
  { name: 'metrics' },
);

export interface MetricsServer {
  port: number;
  close: () => Promise<void>;
}

function answerProblem(req: IncomingMessage, res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}) {
  const traceId = randomUUID();
  res.writeHead(status, { 'content-type': PROBLEM_CONTENT_TYPE, 'x-request-id': traceId, ...headers });
  res.end(JSON.stringify(problemBody(status, detail, { instance: (req.url ?? '/').split('?')[0] ?? null, traceId })));
}

/** The metrics-only listener of METRICS_PORT (a worker process has no other HTTP server). */
export async function startMetricsServer(
  config: Pick<Config, 'METRICS_TOKEN' | 'HOST'> & { METRICS_PORT: number },
  options: { queues?: Queues } = {},
): Promise<MetricsServer> {
  startProcessMetrics();
  const stopObserving = options.queues ? observeQueues(options.queues) : undefined;
  const token = config.METRICS_TOKEN;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return answerProblem(req, res, 404, `No route ${req.method} ${path}; metrics are at /metrics`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return answerProblem(req, res, 405, 'Metrics are read with GET', { allow: 'GET, HEAD' });
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      return answerProblem(req, res, 401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
    }
    metricsRegistry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metricsRegistry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => answerProblem(req, res, 500, 'Metrics could not be collected'),
    );
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        stopObserving?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
