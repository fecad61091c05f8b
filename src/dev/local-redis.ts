import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { findOnPath } from '../engines/find-on-path.js';

export interface LocalRedis {
  url: string;
  stop: () => Promise<void>;
}

export class NoRedisError extends Error {
  constructor() {
    super(
      'No Redis: set REDIS_URL to a Redis server (e.g. redis://127.0.0.1:6379), ' +
        'or install a redis-server binary (Debian: apt-get install redis-server) so it can be started locally.',
    );
    this.name = 'NoRedisError';
  }
}

async function answersPing(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A redis-server child process with its append-only file in `dir`, so queued jobs survive a
 * restart of the dev stack. Reuses one already listening on the port (a previous run's).
 */
export async function startLocalRedis(options: { dir: string; port: number }): Promise<LocalRedis> {
  const url = `redis://127.0.0.1:${options.port}`;
  if (await answersPing(url)) return { url, stop: async () => undefined };
  const binary = await findOnPath('redis-server');
  if (!binary) throw new NoRedisError();
  const dir = path.resolve(options.dir);
  await mkdir(dir, { recursive: true });
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(options.port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (await answersPing(url)) {
      return {
        url,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${options.port}`);
}
