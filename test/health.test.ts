import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createRedis } from '../src/runtime/services.js';
import type { EngineInventory } from '../src/engines/inventory.js';
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

  it('names the workspace types that cannot run for want of an engine, and what to install or set', async () => {
    const withEngines = async (engines: Partial<EngineInventory>) => {
      const app = await buildApp({ ...ctx, engines: { ...ctx.engines, ...engines } });
      try {
        const res = await app.inject({ method: 'GET', url: '/ready' });
        expect(res.statusCode).toBe(200);
        return res.json().unavailable as Array<{ workspaceTypes: string[]; reason: string }>;
      } finally {
        await app.close();
      }
    };
    const everything = { ffmpeg: '/bin/ffmpeg', ffprobe: '/bin/ffprobe', pocketsphinx: '/bin/pocketsphinx_continuous' };
    expect(await withEngines({ ...everything, remoteAsr: true })).toEqual([]);
    expect(await withEngines({ ...everything, pocketsphinx: null, remoteAsr: true })).toEqual([]);
    // pocketsphinx alone hears en-US only.
    expect(await withEngines({ ...everything, remoteAsr: false })).toEqual([
      { workspaceTypes: ['Transcripts'], reason: expect.stringMatching(/^in languages other than en-US: .*set ASR_URL/) },
    ]);
    const [nothing, ...more] = await withEngines({ ffmpeg: null, ffprobe: null, pocketsphinx: null, remoteAsr: false });
    expect(more).toEqual([]);
    expect(nothing!.workspaceTypes).toEqual(['Transcripts']);
    expect(nothing!.reason).toMatch(/^ffmpeg is not installed: .*; ffprobe is not installed: .*; no speech engine: install pocketsphinx .* or set ASR_URL/);
  });
});
