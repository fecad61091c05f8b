import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.js';
import { migrate, migrationsDir } from '../../src/db/migrate.js';
import { ensureDatabase } from '../../src/dev/embedded-postgres.js';
import { LOCAL_SERVERS } from '../../src/dev/local-servers.js';
import { resolveInfrastructure } from '../../src/runtime/infrastructure.js';
import { S3_TEST_BUCKET, S3_TEST_CREDENTIALS, startS3Server } from './s3-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    /** The local S3-compatible server (s3rver) every run starts; its bucket is S3_TEST_BUCKET. */
    s3Endpoint: string;
  }
}

const TEST_DATABASE = 'docproc_test';

/**
 * Real Postgres and Redis for every test: the configured ones (DATABASE_URL / REDIS_URL; the
 * tests use a database of their own on that server, one per checkout, so that two clones tested
 * at once never share one), or else an embedded Postgres and a local redis-server kept under
 * .data/test. Tests never truncate: each creates its own tenant.
 */
export default async function setup(project: TestProject) {
  // The S3 side of the blob-store contract, the two-api test, and the suite under BLOB_STORE=s3.
  const s3 = await startS3Server(path.resolve(`.data/test/s3-${process.pid}`));
  project.provide('s3Endpoint', s3.endpoint);
  if (process.env.BLOB_STORE === 's3' && !process.env.S3_BUCKET) {
    // `BLOB_STORE=s3 npm test`: every test file and every process a test starts inherits the bucket.
    Object.assign(process.env, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: S3_TEST_BUCKET, S3_FORCE_PATH_STYLE: 'true', AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey });
  }
  const config = loadConfig({ ...process.env, DATA_DIR: path.resolve('.data/test') });
  const infra = await resolveInfrastructure(config, {
    local: LOCAL_SERVERS,
    database: TEST_DATABASE,
    ports: { postgres: 54330, redis: 63791 },
    log: (line) => process.stderr.write(`[test setup] ${line}\n`),
  });
  let databaseUrl = infra.databaseUrl;
  if (config.DATABASE_URL) {
    const database = `${TEST_DATABASE}_${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 8)}`;
    const url = new URL(config.DATABASE_URL);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
    if (await hasForeignMigrations(databaseUrl)) await dropDatabase(config.DATABASE_URL, database);
    await ensureDatabase(config.DATABASE_URL, database);
  }
  await migrate(databaseUrl);
  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', infra.redisUrl);
  return async () => {
    await s3.close();
    await infra.stop();
  };
}

/**
 * True when the test database holds a migration this checkout does not have (it was tested on
 * another branch): its tables would not match the code, so it is made again from scratch.
 */
async function hasForeignMigrations(databaseUrl: string): Promise<boolean> {
  const ours = new Set((await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name));
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch {
    return false; // not created yet
  }
  try {
    const applied = await client.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations"').catch(() => ({ rows: [] }));
    return applied.rows.some((row) => !ours.has(row.migration_name));
  } finally {
    await client.end();
  }
}

async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
