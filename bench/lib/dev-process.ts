/**
 * The app as `npm start` runs it: `src/main.ts dev`, the api and the queue workers in one
 * process, started as a child of the benchmark so that its event loop, memory and log are its
 * own and can be measured from outside.
 */
import { spawn } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startLocalRedis, type LocalRedis } from '../../src/dev/local-redis.js';
import { exited, freePort } from '../../test/support/processes.js';

export interface DevProcess {
  baseUrl: string;
  pid: number;
  /** Everything the process wrote (pino lines on stdout, anything on stderr). */
  logFile: string;
  /** Peak resident set size of the process so far (Linux: VmHWM), worker threads included; NaN elsewhere. */
  peakRssBytes: () => Promise<number>;
  stop: () => Promise<void>;
}

/**
 * A redis-server of the benchmark's own (in `dir`, on a free port), so that the app's queues,
 * which `dev` keeps under BullMQ's default prefix, meet no other worker: a `npm start` running
 * beside the benchmark would otherwise take its jobs. Undefined when no redis-server is installed.
 */
export async function startPrivateRedis(dir: string): Promise<LocalRedis | undefined> {
  try {
    return await startLocalRedis({ dir, port: await freePort() });
  } catch (err) {
    if ((err as Error).name === 'NoRedisError') return undefined;
    throw err;
  }
}

async function statusField(pid: number, field: string): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts `node --import tsx src/main.ts dev` in `repoRoot` (what `npm start` runs, without the tsx
 * CLI's wrapper process, so the pid measured is the app's), or with `builtRoot` (a tree of
 * test/support/built-tree.ts) `node dist/main.js dev` there, the compiled build, with `env` on
 * top of this process's environment, and waits until /health answers.
 */
export async function startDevProcess(options: { repoRoot: string; builtRoot?: string; env: Record<string, string>; logFile: string }): Promise<DevProcess> {
  const port = await freePort();
  const log = await open(options.logFile, 'w');
  const args = options.builtRoot ? [path.join('dist', 'main.js'), 'dev'] : ['--import', 'tsx', path.join('src', 'main.ts'), 'dev'];
  const child = spawn(process.execPath, args, {
    cwd: options.builtRoot ?? options.repoRoot,
    env: { ...process.env, ...options.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // SIGTERM: the app drains requests and finishes active jobs; it gets a minute, like a deploy.
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited(child);
    clearTimeout(timer);
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) while starting; see ${options.logFile}`);
    const ok = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not answer /health within 180 s; see ${options.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, pid: child.pid!, logFile: options.logFile, peakRssBytes: () => statusField(child.pid!, 'VmHWM'), stop };
}

/** Log lines of the app that say a job's lock was lost (BullMQ's own messages and our error-level reports). */
export async function lockLossLines(logFile: string): Promise<string[]> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => /could not renew lock|Missing lock|lock lost|job stalled/i.test(line));
}
