import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createRedis } from '../src/runtime/services.js';
import { createTestContext, type TestContext } from './support/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('/health and /ready', () => {
  it('reports liveness, and readiness with the engines found', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { postgres: { ok: true }, redis: { ok: true } } });
    expect(Object.keys(ready.json().engines).sort()).toEqual(['ffmpeg', 'ffprobe', 'pdftoppm', 'pocketsphinx', 'ppOcr', 'remoteAsr', 'tesseract', 'tesseractJs']);
  });

  it('answers 503 naming Redis when Redis is unreachable', async () => {
    // A port nothing listens on: connection refused, so the check fails fast.
    const deadRedis = createRedis('redis://127.0.0.1:1');
    const app = await buildApp({ config: ctx.config, prisma: ctx.prisma, redis: deadRedis, queues: ctx.queues, blobs: ctx.blobs, fileUrlSecret: ctx.fileUrlSecret, keys: ctx.keys, clientSecrets: ctx.clientSecrets, engines: { tesseract: null, ffmpeg: null, ffprobe: null, pocketsphinx: null, pdftoppm: null, tesseractJs: false, ppOcr: false, remoteAsr: false } });
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.redis.ok).toBe(false);
      expect(res.json().checks.postgres.ok).toBe(true);
    } finally {
      await app.close();
      deadRedis.disconnect();
    }
  });
});
