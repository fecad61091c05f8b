import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres } from '../dev/embedded-postgres.js';
import { startLocalRedis } from '../dev/local-redis.js';

export interface Infrastructure {
  databaseUrl: string;
  redisUrl: string;
  /** Stops what this process started (embedded Postgres, local Redis); configured servers are left alone. */
  stop: () => Promise<void>;
}

/**
 * The configured Postgres and Redis; with `allowLocal` (the dev role, tests) missing ones are
 * started here: embedded Postgres and a redis-server child, both keeping data in DATA_DIR.
 */
export async function resolveInfrastructure(
  config: Config,
  options: {
    allowLocal: boolean;
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
      if (!options.allowLocal) throw new Error('DATABASE_URL is required for this role (only `dev` starts an embedded Postgres)');
      options.log('DATABASE_URL not set: starting embedded Postgres');
      const pg = await startEmbeddedPostgres({
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
      if (!options.allowLocal) throw new Error('REDIS_URL is required for this role (only `dev` starts a local redis-server)');
      options.log('REDIS_URL not set: starting a local redis-server');
      const redis = await startLocalRedis({ dir: path.join(config.DATA_DIR, 'redis'), port: options.ports?.redis ?? config.LOCAL_REDIS_PORT });
      stops.push(redis.stop);
      redisUrl = redis.url;
    }
    return { databaseUrl, redisUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
