import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { startEmbeddedPostgres, type LocalPostgres } from '../../src/dev/embedded-postgres.js';
import { startLocalRedis, type LocalRedis } from '../../src/dev/local-redis.js';
import { freePort, repoRoot, waitFor } from './processes.js';

/**
 * A Postgres and a redis-server of a test's own, on free ports, which the test may stop, restart,
 * flush or signal: the machine's shared services are never touched.
 */
export interface BreakableInfra {
  dataDir: string;
  postgres: BreakablePostgres;
  redis: BreakableRedis;
  /** Stops both servers and removes their files. */
  close: () => Promise<void>;
}

export interface BreakablePostgres {
  url: string;
  /** Sends a signal to the postmaster (SIGTERM: smart shutdown, SIGINT: fast, SIGQUIT: immediate). */
  signal: (signal: NodeJS.Signals) => Promise<void>;
  /** Resolves once the server no longer accepts connections (its process has exited). */
  stopped: () => Promise<void>;
  /** Fast shutdown, waiting for the server to exit. */
  stop: () => Promise<void>;
  /** Starts the server again on the same port with the same data. */
  start: () => Promise<void>;
}

export interface BreakableRedis {
  url: string;
  flushAll: () => Promise<void>;
  /** Stops redis-server and starts a new one on the same port with no data (a restart without persistence). */
  restartEmpty: () => Promise<void>;
}

/**
 * The service's config on this infrastructure, `env` on top. Blobs and keys of its own: task ids of
 * this database repeat those of the shared test database.
 */
export function breakableConfig(infra: BreakableInfra, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: infra.postgres.url,
    REDIS_URL: infra.redis.url,
    DATA_DIR: path.join(infra.dataDir, 'data'),
    SOURCE_URL_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
    // As in testConfig: back-pressure would refuse the tests' own requests on a busy machine.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
}

export async function startBreakableInfra(database = 'docproc_faults'): Promise<BreakableInfra> {
  const dataDir = await mkdtemp(path.join(repoRoot, '.data', 'faults-'));
  // Postgres runs as the `postgres` user when the tests run as root: it must be able to enter here.
  await chmod(dataDir, 0o755);
  const postgres = await startBreakablePostgres(path.join(dataDir, 'postgres'), database);
  try {
    await migrate(postgres.url);
    const redis = await startBreakableRedis(dataDir);
    return {
      dataDir,
      postgres,
      redis: redis.handle,
      close: async () => {
        await redis.stop();
        await postgres.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await postgres.stop();
    throw err;
  }
}

async function startBreakablePostgres(dir: string, database: string): Promise<BreakablePostgres> {
  const port = await freePort();
  const startServer = () => startEmbeddedPostgres({ dir, port, database, log: () => undefined });
  let server: LocalPostgres = await startServer();
  const postmasterPid = async () => Number((await readFile(path.join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  let lastPid = await postmasterPid();
  return {
    url: server.url,
    signal: async (signal) => {
      lastPid = await postmasterPid();
      process.kill(lastPid, signal);
    },
    stopped: async () => {
      await waitFor(async () => (alive(lastPid) ? undefined : true), `Postgres (pid ${lastPid}) to exit`, 200, 100);
    },
    stop: () => server.stop(),
    start: async () => {
      server = await startServer();
      lastPid = await postmasterPid();
    },
  };
}

async function startBreakableRedis(dataDir: string): Promise<{ handle: BreakableRedis; stop: () => Promise<void> }> {
  const port = await freePort();
  let generation = 0;
  const startServer = async () => {
    // A directory of its own each time: the new server starts with no data at all.
    const dir = path.join(dataDir, `redis-${generation++}`);
    await mkdir(dir, { recursive: true });
    return startLocalRedis({ dir, port });
  };
  let server: LocalRedis = await startServer();
  return {
    handle: {
      url: server.url,
      flushAll: async () => {
        const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
        try {
          await client.flushall();
        } finally {
          client.disconnect();
        }
      },
      restartEmpty: async () => {
        await server.stop();
        server = await startServer();
      },
    },
    stop: () => server.stop(),
  };
}
