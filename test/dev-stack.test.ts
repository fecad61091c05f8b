import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchToken } from './support/http-token.js';
import { exited, freePort, repoRoot, startRole, waitFor } from './support/processes.js';

const dataDir = await mkdtemp(path.join(repoRoot, '.data', 'dev-stack-'));
// Postgres runs as the `postgres` user when the tests run as root: it must be able to enter here.
await chmod(dataDir, 0o755);
// Retries: a Postgres child that is still shutting down may write its last files while we remove them.
afterAll(async () => rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 }));

async function startDev(port: number, ports: { pg: number; redis: number }, extra: Record<string, string> = {}) {
  // No DATABASE_URL / REDIS_URL: the embedded Postgres and a local redis-server, as on a fresh machine.
  const child = startRole(['dev'], {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: String(ports.pg),
    LOCAL_REDIS_PORT: String(ports.redis),
    ...extra,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), `dev server\n${child.output()}`);
  return { child, base };
}

async function workspacesWith(base: string, clientId: string, clientSecret: string) {
  const access_token = await fetchToken(base, clientId, clientSecret);
  const res = await fetch(`${base}/api/v1.0/external/sdworkspace/CurrentWorkspaces`, { headers: { authorization: `Bearer ${access_token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Array<{ templateType: number; isDefault: boolean }>;
}

// Every step starts processes (tsx compiling the service, Postgres, Redis): on a busy two-core
// machine that alone can take a minute, so the test gets three.
describe('npm start (the dev role) on a fresh machine', { timeout: 180_000 }, () => {
  it('starts embedded Postgres and Redis, seeds the demo tenant, serves it, and keeps it across restarts', async () => {
    const ports = { pg: await freePort(), redis: await freePort() };
    const first = await startDev(await freePort(), ports);
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(first.child.output()).toContain(`client_id=${credentials.clientId}`);
    const workspaces = await workspacesWith(first.base, credentials.clientId, credentials.clientSecret);
    // One workspace per TemplateType, the Layout one being the default.
    expect(workspaces.map((w) => w.templateType).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(workspaces.filter((w) => w.isDefault)).toHaveLength(1);

    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);

    // Restart with fixed demo credentials: same tenant, same workspaces, nothing seeded twice.
    const second = await startDev(await freePort(), ports, { SEED_CLIENT_ID: 'demo-fixed-client', SEED_CLIENT_SECRET: 'demo-fixed-secret-0123456789' });
    const again = await workspacesWith(second.base, 'demo-fixed-client', 'demo-fixed-secret-0123456789');
    expect(again).toHaveLength(11);
    const saved = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(saved.tenantId).toBe(credentials.tenantId);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });
});
