import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { unavailableWork } from '../../engines/inventory.js';
import { pingDatabase } from './health.repository.js';

const readiness = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.object({
    postgres: z.object({ ok: z.boolean(), error: z.string().optional() }),
    redis: z.object({ ok: z.boolean(), error: z.string().optional() }),
  }),
  engines: z.object({
    tesseract: z.string().nullable(),
    ffmpeg: z.string().nullable(),
    ffprobe: z.string().nullable(),
    pocketsphinx: z.string().nullable(),
    pdftoppm: z.string().nullable(),
    tesseractJs: z.boolean(),
    ppOcr: z.boolean(),
    remoteAsr: z.boolean(),
  }),
  unavailable: z
    .array(z.object({ workspaceTypes: z.array(z.string()), reason: z.string() }))
    .describe("Workspace types whose tasks fail on this machine for want of an engine, and what to install or set; empty when every type can run"),
});

async function check(probe: () => Promise<unknown>, timeoutMs = 2000): Promise<{ ok: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        tags: ['Operations'],
        summary: 'Liveness: the process is up',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        operationId: 'ready',
        tags: ['Operations'],
        summary: 'Readiness: Postgres and Redis reachable; engines found',
        response: { 200: readiness, 503: readiness },
      },
    },
    async (_request, reply) => {
      const [postgres, redis] = await Promise.all([
        check(() => pingDatabase(deps.prisma)),
        check(() => deps.redis.ping()),
      ]);
      const ok = postgres.ok && redis.ok;
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ready' : 'unavailable',
        checks: { postgres, redis },
        engines: deps.engines,
        unavailable: unavailableWork(deps.engines),
      });
    },
  );
};
