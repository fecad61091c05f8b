/**
 * The queue dashboard (bull-board) at /admin/queues, for operators: every queue of the job
 * registry, with its jobs, retries and failures. Behind the operator credential of the
 * configuration (ADMIN_USER + ADMIN_PASSWORD as HTTP Basic, or ADMIN_TOKEN as a Bearer token);
 * app.ts registers it only when one is set, so it does not exist (404) otherwise. Its routes are
 * hidden from the OpenAPI document: they are no part of the external API.
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { sendProblem } from '../../http/error-handler.js';
import { basicMatches, bearerMatches } from '../../http/operator-auth.js';
import type { Queues } from '../../queues/queues.js';

export const QUEUE_DASHBOARD_PREFIX = '/admin/queues';

type AdminConfig = Pick<Config, 'ADMIN_USER' | 'ADMIN_PASSWORD' | 'ADMIN_TOKEN'>;

export function queueDashboardEnabled(config: AdminConfig): boolean {
  return (config.ADMIN_USER !== undefined && config.ADMIN_PASSWORD !== undefined) || config.ADMIN_TOKEN !== undefined;
}

function operatorAllowed(config: AdminConfig, authorization: string | undefined): boolean {
  if (config.ADMIN_TOKEN !== undefined && bearerMatches(authorization, config.ADMIN_TOKEN)) return true;
  return config.ADMIN_USER !== undefined && config.ADMIN_PASSWORD !== undefined && basicMatches(authorization, config.ADMIN_USER, config.ADMIN_PASSWORD);
}

/** Registered with the prefix QUEUE_DASHBOARD_PREFIX. */
export async function queueDashboardRoutes(app: FastifyInstance, { config, queues }: { config: AdminConfig; queues: Queues }): Promise<void> {
  // A browser asks for the Basic credential itself; a token is for scripts and proxies.
  const challenge = config.ADMIN_USER !== undefined ? 'Basic realm="docproc operators", charset="UTF-8"' : 'Bearer';
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (operatorAllowed(config, request.headers.authorization)) return;
    // Answered here, not thrown: bull-board's own error handler would shape a thrown error.
    return sendProblem(request, reply, 401, 'The queue dashboard needs the operator credential (ADMIN_USER/ADMIN_PASSWORD or ADMIN_TOKEN)', {
      headers: { 'www-authenticate': challenge },
    });
  });
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PREFIX);
  createBullBoard({
    queues: Object.values(queues).map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'docproc queues' } },
  });
  await app.register(serverAdapter.registerPlugin());
}
