import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';
import { jobLogMixin } from './job-context.js';

/**
 * The process's logger: JSON lines, one per event, unless stdout is a terminal outside
 * production, where pino-pretty prints them readably. Lines written while a job runs carry its
 * queue, job, organization (tenantId) and task ids (job-context.ts).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', '*.client_secret', '*.clientSecret', '*.password'],
    mixin: jobLogMixin,
  };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY && config.NODE_ENV !== 'production') {
    return pino(options, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  }
  return pino(options);
}
