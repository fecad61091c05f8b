import type { LocalServers } from '../runtime/infrastructure.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { startLocalRedis } from './local-redis.js';

/**
 * The servers a development run (the dev role, the CLI's commands, the tests and benchmarks)
 * starts for itself when none is configured: an embedded Postgres and a redis-server child.
 */
export const LOCAL_SERVERS: LocalServers = { startPostgres: startEmbeddedPostgres, startRedis: startLocalRedis };
