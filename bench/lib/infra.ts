import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.js';
import { ensureDatabase } from '../../src/dev/embedded-postgres.js';
import { generatePrivatePem } from '../../src/modules/auth/signing-keys.js';
import { resolveInfrastructure } from '../../src/runtime/infrastructure.js';
import { createServices, type Services } from '../../src/runtime/services.js';

/** The benchmark's own database: it holds a million rows nobody else should see or pay for. */
export const BENCH_DATABASE = 'docproc_bench';

/** Jobs enqueued by benchmark creates live under this BullMQ prefix, so no real worker takes them. */
const BENCH_QUEUE_PREFIX = 'docproc-bench';

/**
 * The app's configuration for the run: the environment as `npm start` reads it, plus what a
 * benchmark needs. The limiter is raised out of reach because it would otherwise be what we
 * measure (1,200/min by default); private source URLs are allowed for the loopback file server.
 * Keys missing from the environment are made up in memory, so that the run never writes key
 * files into DATA_DIR (which the dev stack owns).
 */
export async function benchConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  return loadConfig({
    ...env,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SOURCE_URL_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    JWT_PRIVATE_KEY: env.JWT_PRIVATE_KEY || (await generatePrivatePem()),
    FILE_URL_SECRET: env.FILE_URL_SECRET || randomBytes(32).toString('base64url'),
  });
}

export interface BenchInfrastructure {
  /** URL of docproc_bench on the configured (or embedded) server. */
  databaseUrl: string;
  redisUrl: string;
  stop: () => Promise<void>;
}

function urlOfDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Postgres and Redis as `npm start` finds them (configured URLs, else the embedded Postgres and
 * local redis-server under DATA_DIR), pointed at docproc_bench, which is created when missing.
 */
export async function openBenchInfrastructure(config: Config, log: (line: string) => void): Promise<BenchInfrastructure> {
  const infra = await resolveInfrastructure(config, { allowLocal: true, database: BENCH_DATABASE, log });
  // Embedded: resolveInfrastructure already created and returned docproc_bench.
  if (!config.DATABASE_URL) return infra;
  try {
    await ensureDatabase(config.DATABASE_URL, BENCH_DATABASE);
  } catch (err) {
    await infra.stop();
    throw err;
  }
  return { ...infra, databaseUrl: urlOfDatabase(config.DATABASE_URL, BENCH_DATABASE) };
}

/**
 * The app's dependencies as `serve` builds them, with the queues under a prefix of their own:
 * benchmark creates enqueue jobs that no real worker takes and that are deleted on close. Keys
 * come from benchConfig (in memory), so nothing is written into DATA_DIR.
 */
export async function createBenchServices(config: Config, infra: BenchInfrastructure): Promise<Services> {
  const services = await createServices(config, infra, { queuePrefix: BENCH_QUEUE_PREFIX });
  return {
    ...services,
    close: async () => {
      await Promise.all(Object.values(services.queues).map((q) => q.obliterate({ force: true }).catch(() => undefined)));
      await services.close();
    },
  };
}
