import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { ensureDatabase } from '../../src/dev/embedded-postgres.js';
import { resolveInfrastructure } from '../../src/runtime/infrastructure.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

const TEST_DATABASE = 'docproc_test';

/**
 * Real Postgres and Redis for every test: the configured ones (DATABASE_URL / REDIS_URL; the
 * tests use their own database `docproc_test` on that server), or else an embedded Postgres and a
 * local redis-server kept under .data/test. Tests never truncate: each creates its own tenant.
 */
export default async function setup(project: TestProject) {
  const config = loadConfig({ ...process.env, DATA_DIR: path.resolve('.data/test') });
  const infra = await resolveInfrastructure(config, {
    allowLocal: true,
    database: TEST_DATABASE,
    ports: { postgres: 54330, redis: 63791 },
    log: (line) => process.stderr.write(`[test setup] ${line}\n`),
  });
  let databaseUrl = infra.databaseUrl;
  if (config.DATABASE_URL) {
    const url = new URL(config.DATABASE_URL);
    url.pathname = `/${TEST_DATABASE}`;
    await ensureDatabase(config.DATABASE_URL, TEST_DATABASE);
    databaseUrl = url.toString();
  }
  await migrate(databaseUrl);
  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', infra.redisUrl);
  return async () => {
    await infra.stop();
  };
}
