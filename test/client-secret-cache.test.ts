import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_NAME, ClientSecretCache } from '../src/credentials/client-secret-cache.js';
import { findClientOfTenant } from '../src/modules/auth/clients.repository.js';
import { rotateClientSecret } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { waitFor } from './support/processes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

/** A cache on the test database whose loader counts the lookups that reached Postgres. */
function countingCache() {
  const counter = { lookups: 0 };
  const cache = new ClientSecretCache(ctx.config.DATABASE_URL!, async (tenantId) => {
    counter.lookups += 1;
    return findClientOfTenant(ctx.prisma, tenantId);
  });
  return { cache, counter };
}

let opened: ClientSecretCache[] = [];
afterEach(async () => {
  await Promise.all(opened.map((c) => c.close()));
  opened = [];
});

async function listeningCache() {
  const made = countingCache();
  opened.push(made.cache);
  await made.cache.listen();
  expect(made.cache.isListening).toBe(true);
  return made;
}

const until = <T>(probe: () => Promise<T | undefined>, what: string) => waitFor(probe, what, 250, 20);

describe('ClientSecretCache', () => {
  it('answers from memory while listening, and asks Postgres again once a change to the client commits', async () => {
    const t = await createTestTenant(ctx);
    const { cache, counter } = await listeningCache();
    expect((await cache.get(t.tenantId))?.secretVersion).toBe(1);
    expect((await cache.get(t.tenantId))?.secretVersion).toBe(1);
    expect(counter.lookups).toBe(1);

    await rotateClientSecret(ctx.prisma, t.tenantId, 30);
    const seen = await until(async () => {
      const standing = await cache.get(t.tenantId);
      return standing?.secretVersion === 2 ? standing : undefined;
    }, 'the rotation to be heard');
    expect(seen.clientId).toBe(t.clientId);
    const lookupsAfterRotation = counter.lookups;
    await cache.get(t.tenantId);
    expect(counter.lookups).toBe(lookupsAfterRotation);
  });

  it('hears a change made by hand in SQL, and forgets only the organization that changed', async () => {
    const a = await createTestTenant(ctx);
    const b = await createTestTenant(ctx);
    const { cache, counter } = await listeningCache();
    await cache.get(a.tenantId);
    await cache.get(b.tenantId);
    expect(counter.lookups).toBe(2);

    const past = new Date(Date.now() - 60_000);
    await ctx.prisma.$executeRaw`UPDATE "ApiClient" SET "secretExpiresAt" = ${past} WHERE "tenantId" = ${a.tenantId}`;
    await until(async () => ((await cache.get(a.tenantId))!.secretExpiresAt.getTime() === past.getTime() ? true : undefined), 'the SQL change to be heard');
    const lookups = counter.lookups;
    await cache.get(b.tenantId);
    expect(counter.lookups).toBe(lookups);
  });

  it('asks Postgres on every lookup while its session is down, and caches again once it listens again', async () => {
    const t = await createTestTenant(ctx);
    const { cache, counter } = await listeningCache();
    await cache.get(t.tenantId);
    expect(counter.lookups).toBe(1);

    // Every cache of this name loses its session (other test files' caches simply reconnect too).
    await ctx.prisma.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME}`;
    await until(async () => (cache.isListening ? undefined : true), 'the session loss to be noticed');
    // A change while nobody listens is never announced to this cache: it must not serve memory.
    await ctx.prisma.$executeRaw`UPDATE "ApiClient" SET "secretVersion" = "secretVersion" + 1 WHERE "tenantId" = ${t.tenantId}`;
    expect((await cache.get(t.tenantId))?.secretVersion).toBe(2);
    expect((await cache.get(t.tenantId))?.secretVersion).toBe(2);
    expect(counter.lookups).toBe(3);

    await until(async () => (cache.isListening ? true : undefined), 'the session to come back');
    await cache.get(t.tenantId);
    const lookups = counter.lookups;
    await cache.get(t.tenantId);
    expect(counter.lookups).toBe(lookups);
  });

  it('keeps nothing a lookup read while a change committed (the lookup raced the notification)', async () => {
    const t = await createTestTenant(ctx);
    let release: (() => void) | undefined;
    let stale: Awaited<ReturnType<typeof findClientOfTenant>> = null;
    const cache = new ClientSecretCache(ctx.config.DATABASE_URL!, async (tenantId) => {
      if (stale) return findClientOfTenant(ctx.prisma, tenantId);
      // The first lookup reads the old version, then waits until the rotation has been heard.
      stale = await findClientOfTenant(ctx.prisma, tenantId);
      await new Promise<void>((resolve) => (release = resolve));
      return stale;
    });
    opened.push(cache);
    await cache.listen();
    const racing = cache.get(t.tenantId);
    await until(async () => (release ? true : undefined), 'the first lookup to start');
    const heard = cache.changesHeard;
    await rotateClientSecret(ctx.prisma, t.tenantId, 30);
    await until(async () => (cache.changesHeard > heard ? true : undefined), 'the rotation to be heard');
    expect((await cache.get(t.tenantId))?.secretVersion).toBe(2);
    release!();
    expect((await racing)?.secretVersion).toBe(1);
    // The old version the racing lookup finished with, after the change was heard, is not remembered.
    expect((await cache.get(t.tenantId))?.secretVersion).toBe(2);
  });
});
