import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { ensureDatabase } from '../../src/dev/embedded-postgres.js';
import { LOCAL_SERVERS } from '../../src/dev/local-servers.js';
import { generatePrivatePem } from '../../src/credentials/signing-keys.js';
import { resolveInfrastructure } from '../../src/runtime/infrastructure.js';
import { createServices, type Services } from '../../src/runtime/services.js';

/** The benchmark's own database: it holds a million rows nobody else should see or pay for. */
export const BENCH_DATABASE = 'docproc_bench';

/** Jobs enqueued by benchmark creates live under this BullMQ prefix, so no real worker takes them. */
const BENCH_QUEUE_PREFIX = 'docproc-bench';

/**
 * The limiter's ceiling for the run. The limiter itself runs on every request as shipped (its
 * Redis round trip is part of what we measure), but the shipped 1,200 requests a minute per
 * client would answer 429 to nearly every request of a run, and we would measure refusals.
 */
export const BENCH_RATE_LIMIT_PER_MINUTE = 1_000_000_000;

/**
 * The app's configuration for the run: the environment as `npm start` reads it (LOG_LEVEL
 * included: info unless set), plus what a benchmark needs: the limiter's ceiling above and
 * private source URLs for the loopback file server. Keys missing from the environment are made
 * up in memory, so that the run never writes key files into DATA_DIR (which the dev stack owns).
 */
export async function benchConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  return loadConfig({
    ...env,
    HOST: '127.0.0.1',
    PORT: '0',
    SOURCE_URL_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT_PER_MINUTE),
    JWT_PRIVATE_KEY: env.JWT_PRIVATE_KEY || (await generatePrivatePem()),
    FILE_URL_SECRET: env.FILE_URL_SECRET || randomBytes(32).toString('base64url'),
  });
}

/** Where the app's log goes during a run: a file, so the report stays readable. */
export const BENCH_LOG_FILE = path.join(tmpdir(), 'docproc-bench-api.log');

/**
 * The app's logger as `serve` builds it (src/main.ts: pino at LOG_LEVEL, same redactions, Fastify
 * logging every request in and out at info), writing synchronously to BENCH_LOG_FILE instead of
 * stdout.
 */
export function benchLogger(config: Config): Logger {
  return pino(
    { level: config.LOG_LEVEL, redact: ['req.headers.authorization', '*.client_secret', '*.clientSecret'] },
    pino.destination({ dest: BENCH_LOG_FILE, sync: true }),
  );
}

export interface BenchInfrastructure {
  /** URL of docproc_bench on the configured (or embedded) server. */
  databaseUrl: string;
  redisUrl: string;
  stop: () => Promise<void>;
}

export function urlOfDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Postgres and Redis as `npm start` finds them (configured URLs, else the embedded Postgres and
 * local redis-server under DATA_DIR), pointed at `database` (docproc_bench unless a benchmark
 * keeps its own), which is created when missing.
 */
export async function openBenchInfrastructure(config: Config, log: (line: string) => void, database = BENCH_DATABASE): Promise<BenchInfrastructure> {
  const infra = await resolveInfrastructure(config, { local: LOCAL_SERVERS, database, log });
  // Embedded: resolveInfrastructure already created and returned the database.
  if (!config.DATABASE_URL) return infra;
  try {
    await ensureDatabase(config.DATABASE_URL, database);
  } catch (err) {
    await infra.stop();
    throw err;
  }
  return { ...infra, databaseUrl: urlOfDatabase(config.DATABASE_URL, database) };
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
