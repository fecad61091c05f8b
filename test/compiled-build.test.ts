/**
 * The production tree: `npm run build` (tsconfig.build.json) compiled into a directory laid out as
 * the image's final stage lays it out (package.json, node_modules, dist, prisma, public, and no
 * src), then the compiled CLI, `serve` and `worker` run by plain `node`, with no TypeScript loader,
 * against the test Postgres and a redis-server of their own (their queues under BullMQ's default
 * prefix meet no other test's worker). A task goes through the compiled worker's engine threads
 * to ToReview, which they reach only by loading the built engine-thread.js.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROCESSING_ENDED_STATUSES, TaskStatus } from '../src/domain/enums.js';
import { startLocalRedis, type LocalRedis } from '../src/dev/local-redis.js';
import { buildTree } from './support/built-tree.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { fetchToken } from './support/http-token.js';
import { exited, freePort, repoRoot, waitFor } from './support/processes.js';

const run = promisify(execFile);
const API = '/api/v1.0/external';

let app: string;
let redis: LocalRedis | undefined;
let files: FileServer | undefined;
const children: ChildProcess[] = [];

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.js')).map((e) => path.join(e.parentPath, e.name));
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'DATA_DIR', 'SEED_CLIENT_ID', 'SEED_CLIENT_SECRET', 'NODE_OPTIONS']) delete base[key];
  // No load shedding: on a busy test machine the event loop of a starting process lags for seconds.
  return { ...base, NODE_ENV: 'production', LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0', DATABASE_URL: inject('databaseUrl'), REDIS_URL: redis!.url, DATA_DIR: path.join(app, 'data'), ...extra };
}

/** `node dist/main.js <args>` in the built tree, as the image's CMD runs it. */
function startBuilt(args: string[], extra: Record<string, string> = {}): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['dist/main.js', ...args], { cwd: app, env: env(extra) });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  children.push(child);
  return Object.assign(child, { output: () => output });
}

// Compiling the whole service takes tens of seconds of CPU, more on a busy two-core machine.
beforeAll(async () => {
  app = await mkdtemp(path.join(os.tmpdir(), 'compiled-app-'));
  await buildTree(app);
  redis = await startLocalRedis({ dir: path.join(app, 'redis'), port: await freePort() });
}, 600_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all(children.map((child) => exited(child)));
  await files?.close();
  await redis?.stop();
  if (app) await rm(app, { recursive: true, force: true });
});

describe('the compiled service', { timeout: 300_000 }, () => {
  it('imports nothing but Node built-ins, its own modules and production dependencies', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const production = new Set(Object.keys(pkg.dependencies));
    const builtins = new Set(builtinModules);
    const foreign = new Set<string>();
    for (const file of await jsFiles(path.join(app, 'dist'))) {
      const code = await readFile(file, 'utf8');
      const specifiers = [
        ...code.matchAll(/^\s*(?:import|export)\s[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
        ...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
        ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ];
      for (const [, specifier] of specifiers) {
        if (specifier!.startsWith('.') || specifier!.startsWith('node:') || builtins.has(specifier!)) continue;
        const name = specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!;
        if (!production.has(name)) foreign.add(`${name} (${path.relative(app, file)})`);
      }
    }
    expect([...foreign]).toEqual([]);
  });

  it('serves, and takes a task through a compiled worker and its engine threads to ToReview', async () => {
    const cli = await run(process.execPath, ['dist/main.js', 'tenant', 'create', '--name', 'Compiled build'], { cwd: app, env: env({}) });
    const tenant = JSON.parse(cli.stdout) as { clientId: string; clientSecret: string };

    const port = await freePort();
    const serve = startBuilt(['serve'], { PORT: String(port), HOST: '127.0.0.1', SOURCE_URL_ALLOW_PRIVATE: 'true' });
    const worker = startBuilt(['worker'], { ENGINE_THREADS: '1', SOURCE_URL_ALLOW_PRIVATE: 'true' });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), `compiled serve\n${serve.output()}`);

    files = await startFileServer({ '/doc.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf' } });
    const token = await fetchToken(base, tenant.clientId, tenant.clientSecret);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}${API}/sdtask/process`, { method: 'POST', headers, body: JSON.stringify({ context: { url: files.url('/doc.pdf') } }) });
    expect(created.status, await created.clone().text()).toBe(200);
    const { taskId } = (await created.json()) as { taskId: number };

    const finalStatus = await waitFor(
      async () => {
        const res = await fetch(`${base}${API}/sdtask/status?taskId=${taskId}`, { headers });
        const { taskStatus } = (await res.json()) as { taskStatus: number };
        return PROCESSING_ENDED_STATUSES.has(taskStatus) ? taskStatus : undefined;
      },
      `task ${taskId}\nworker:\n${worker.output()}`,
      960,
    );
    expect(finalStatus, worker.output()).toBe(TaskStatus.ToReview);

    serve.kill('SIGTERM');
    worker.kill('SIGTERM');
    expect(await exited(serve), serve.output()).toBe(0);
    expect(await exited(worker), worker.output()).toBe(0);
  });
});
