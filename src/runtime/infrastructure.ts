import path from 'node:path';
import type { Config } from '../config.js';

export interface Infrastructure {
  databaseUrl: string;
  redisUrl: string;
  /** Stops what this process started (embedded Postgres, local Redis); configured servers are left alone. */
  stop: () => Promise<void>;
}

/** A server this process started for itself: where it listens, and how to stop it. */
export interface LocalServer {
  url: string;
  stop: () => Promise<void>;
}

/**
 * How to start the servers a development run may start for itself when none is configured: a
 * development convenience, chosen at the edge (main.ts hands in dev/'s embedded Postgres and
 * redis-server) so that the runtime of a deployment never loads it.
 */
export interface LocalServers {
  startPostgres: (options: { dir: string; port: number; database: string; log: (line: string) => void }) => Promise<LocalServer>;
  startRedis: (options: { dir: string; port: number }) => Promise<LocalServer>;
}

/**
 * The configured Postgres and Redis; with `local` (the dev role, the CLI's commands) missing ones
 * are started here, both keeping data in DATA_DIR.
 */
export async function resolveInfrastructure(
  config: Config,
  options: {
    local?: LocalServers;
    database?: string;
    ports?: { postgres: number; redis: number };
    log: (line: string) => void;
  },
): Promise<Infrastructure> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      if (!options.local) throw new Error('DATABASE_URL is required for this role (only `dev` starts an embedded Postgres)');
      options.log('DATABASE_URL not set: starting embedded Postgres');
      const pg = await options.local.startPostgres({
        dir: path.join(config.DATA_DIR, 'postgres'),
        port: options.ports?.postgres ?? config.EMBEDDED_POSTGRES_PORT,
        database: options.database ?? 'docproc',
        log: options.log,
      });
      stops.push(pg.stop);
      databaseUrl = pg.url;
    }
    let redisUrl = config.REDIS_URL;
    if (!redisUrl) {
      if (!options.local) throw new Error('REDIS_URL is required for this role (only `dev` starts a local redis-server)');
      options.log('REDIS_URL not set: starting a local redis-server');
      const redis = await options.local.startRedis({ dir: path.join(config.DATA_DIR, 'redis'), port: options.ports?.redis ?? config.LOCAL_REDIS_PORT });
      stops.push(redis.stop);
      redisUrl = redis.url;
    }
    return { databaseUrl, redisUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
