import pg from 'pg';
import type { PipelineDeps } from './pipeline-deps.js';
import { repeatRound } from './repeating-round.js';
import { sweep, type SweepOptions } from './sweeper.js';

/**
 * Arbitrary constant (next to the migrator's 72_143_907): the advisory lock that lets one worker
 * process at a time sweep.
 */
export const SWEEP_LOCK_KEY = 72_143_908;
/** How the lock's session shows in pg_stat_activity. */
export const SWEEP_LOCK_APPLICATION_NAME = 'docproc-sweep-lock';

export interface SweepScheduleOptions {
  everyMs: number;
  /** The database of `deps.prisma`: the lock needs a session of its own, which a pool cannot give. */
  databaseUrl: string;
  redeliveryGraceMs?: SweepOptions['redeliveryGraceMs'];
}

export interface SweepSchedule {
  /** Stops the timer, waits for a sweep under way and closes the lock session. */
  stop: () => Promise<void>;
}

/**
 * Runs the sweep every `everyMs` from a timer of this process, so recovery depends on nothing
 * Redis can lose (a repeatable job vanished with a FLUSHALL or a Redis restarted empty, and with it
 * every later sweep). Every worker process runs the timer; a session-level advisory lock lets only
 * one of them sweep at a time, and Postgres releases it if that process or its session dies. The
 * next sweep is scheduled only after the previous one ended, so a sweep never overlaps itself, and
 * a failed sweep (Postgres or Redis down) is logged and tried again at the next tick.
 */
export function scheduleSweeps(deps: PipelineDeps, options: SweepScheduleOptions): SweepSchedule {
  const log = deps.log.child({ component: 'sweep-schedule' });
  let session: pg.Client | undefined;
  let failing = false;

  const dropSession = () => {
    const lost = session;
    session = undefined;
    lost?.end().catch(() => undefined);
  };

  const lockSession = async (): Promise<pg.Client> => {
    if (session) return session;
    const client = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: SWEEP_LOCK_APPLICATION_NAME,
      connectionTimeoutMillis: 5_000,
      // A silently dead connection must not hold the timer forever: the query fails, the next tick reconnects.
      query_timeout: 10_000,
      keepAlive: true,
    });
    // A session the server ends (a restart) emits 'error' outside any query: without a listener
    // that would end the process. Its lock is gone with it; the next tick opens a new session.
    client.on('error', (err) => {
      log.warn({ err }, 'sweep lock session lost');
      if (session === client) dropSession();
    });
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    session = client;
    return client;
  };

  const sweepOnce = async (): Promise<void> => {
    const startedAt = Date.now();
    try {
      const client = await lockSession();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [SWEEP_LOCK_KEY]);
      if (!rows[0]?.locked) {
        log.debug('sweep skipped: another worker is sweeping');
        return;
      }
      try {
        const report = await sweep(deps, { redeliveryGraceMs: options.redeliveryGraceMs });
        log.debug({ ms: Date.now() - startedAt, redelivered: report.redelivered.length, recovered: report.recovered.length }, 'sweep finished');
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [SWEEP_LOCK_KEY]);
      }
      if (failing) log.info('sweeps succeed again');
      failing = false;
    } catch (err) {
      // The session may be what broke; a fresh one next time (a dead session holds no lock).
      dropSession();
      failing = true;
      log.warn({ err, retryInMs: options.everyMs }, 'sweep failed');
    }
  };

  log.info({ everyMs: options.everyMs }, 'sweeps scheduled');
  // The first sweep right away: a worker (re)starting after an outage recovers what it left.
  const rounds = repeatRound(options.everyMs, sweepOnce);
  return {
    stop: async () => {
      await rounds.stop();
      const last = session;
      session = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
