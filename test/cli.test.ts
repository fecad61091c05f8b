import { describe, expect, inject, it } from 'vitest';
import { createPrisma } from '../src/db/prisma.js';
import { verifySecret } from '../src/modules/auth/secret-hash.js';
import { runCli } from './support/processes.js';

const env = { DATABASE_URL: inject('databaseUrl'), REDIS_URL: inject('redisUrl'), DATA_DIR: '.data/test' };

// Each call starts a tsx process that compiles the service first: tens of seconds on a busy machine.
describe('CLI', { timeout: 180_000 }, () => {
  it('creates a tenant, a workspace, and rotates the client secret', async () => {
    const created = await runCli(['tenant', 'create', '--name', 'Acme CLI'], env);
    expect(created.code, created.stderr).toBe(0);
    const tenant = JSON.parse(created.stdout);
    expect(Object.keys(tenant).sort()).toEqual(['clientId', 'clientSecret', 'defaultWorkspaceId', 'tenantId']);

    const ws = await runCli(['workspace', 'create', '--tenant', String(tenant.tenantId), '--name', 'Receipts', '--template', 'Receipts'], env);
    expect(ws.code, ws.stderr).toBe(0);
    expect(JSON.parse(ws.stdout)).toMatchObject({ tenantId: tenant.tenantId, workspaceName: 'Receipts', templateType: 3, isDefault: false });

    const rotated = await runCli(['client', 'rotate-secret', '--tenant', String(tenant.tenantId)], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    const secret = JSON.parse(rotated.stdout);
    expect(secret.clientId).toBe(tenant.clientId);

    const prisma = createPrisma(env.DATABASE_URL, 1);
    try {
      const client = await prisma.apiClient.findUniqueOrThrow({ where: { tenantId: tenant.tenantId } });
      expect(await verifySecret(secret.clientSecret, client.secretHash)).toBe(true);
      expect(await verifySecret(tenant.clientSecret, client.secretHash)).toBe(false);
      expect(client.secretVersion).toBe(2);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('explains bad usage with exit code 64', async () => {
    const bad = await runCli(['workspace', 'create', '--tenant', '1', '--name', 'x', '--template', 'Nope'], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--template must be one of InvoicesUniversal');
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('usage:');
  });

  it('stops with every configuration problem listed', async () => {
    const res = await runCli(['migrate'], { ...env, PORT: 'x', LOG_LEVEL: 'loud' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/PORT/);
    expect(res.stderr).toMatch(/LOG_LEVEL/);
  });
});
