/**
 * npm run bench:startup: `serve` and `worker` run from the TypeScript sources through tsx (what
 * `npm run serve` / `npm run worker` start) against the compiled build (`node dist/main.js serve`
 * / `worker`, as the image runs them), side by side in the same run, the two ways taking turns.
 *
 * For each start: wall seconds until ready (serve: /health answers; worker: its "workers started"
 * line), the CPU seconds the process used until then and its resident memory then. Then one
 * 20-page text PDF through that worker: under tsx its engine thread first compiles the engine
 * modules, so the first task's CPU and the worker's peak memory are reported too.
 *
 * On a machine shared with other work the wall times swing with the load; the CPU seconds much
 * less. tsx runs here as `node --import tsx` (the tsx CLI that `npm run` starts adds a wrapper
 * process of its own, not counted).
 *
 *   npm run bench:startup     (DATABASE_URL, else the embedded Postgres of `npm start`)
 *   BENCH_STARTUP_ROUNDS=3    (default)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROCESSING_ENDED_STATUSES, TaskStatus, nameOf } from '../src/domain/enums.js';
import { buildTree } from '../test/support/built-tree.js';
import { fetchToken } from '../test/support/http-token.js';
import { exited, freePort, repoRoot } from '../test/support/processes.js';
import { startPrivateRedis } from './lib/dev-process.js';
import { prosePdf } from './lib/documents.js';
import { benchConfig, openBenchInfrastructure } from './lib/infra.js';
import { cpuSeconds, mb, statusBytes } from './lib/proc-stats.js';
import { say } from './lib/report.js';
import { serveSourceFiles } from './lib/source-files.js';

const run = promisify(execFile);
const STARTUP_DATABASE = 'docproc_startup';
const API = '/api/v1.0/external';
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 3);
const TASK_PAGES = 20;

type Way = 'tsx' | 'compiled';
type Role = 'serve' | 'worker';

interface Started {
  child: ChildProcess;
  seconds: number;
  cpu: number;
  rss: number;
}

interface Sample {
  start: Record<Role, Started>;
  /** The worker's CPU seconds for the first task, and its peak and settled memory after it. */
  taskCpu: number;
  workerPeakRss: number;
  workerRssAfter: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function main() {
  const config = await benchConfig();
  const infra = await openBenchInfrastructure(config, (line) => say(`infra: ${line}`), STARTUP_DATABASE);
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-startup-'));
  const redis = await startPrivateRedis(path.join(dir, 'redis'));
  const files = await serveSourceFiles({ 'text.pdf': await prosePdf(TASK_PAGES) });
  const built = path.join(dir, 'app');
  const running = new Set<ChildProcess>();
  try {
    say(`start-up benchmark: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}; compiling the build (tsconfig.build.json)...`);
    await buildTree(built);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: redis?.url ?? infra.redisUrl,
      DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      SOURCE_URL_ALLOW_PRIVATE: 'true',
      JWT_PRIVATE_KEY: config.JWT_PRIVATE_KEY,
      FILE_URL_SECRET: config.FILE_URL_SECRET,
    };
    delete env.NODE_OPTIONS;
    const cli = await run(process.execPath, ['dist/main.js', 'tenant', 'create', '--name', 'Start-up bench'], { cwd: built, env });
    const tenant = JSON.parse(cli.stdout) as { clientId: string; clientSecret: string };

    const command = (way: Way, role: Role) =>
      way === 'tsx' ? { args: ['--import', 'tsx', path.join('src', 'main.ts'), role], cwd: repoRoot } : { args: ['dist/main.js', role], cwd: built };

    async function start(way: Way, role: Role, port: number): Promise<Started> {
      const { args, cwd } = command(way, role);
      const began = performance.now();
      const child = spawn(process.execPath, args, { cwd, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      running.add(child);
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const ready = role === 'serve'
        ? () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)
        : async () => output.includes('"workers started"');
      const deadline = Date.now() + 300_000;
      while (!(await ready())) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${way} ${role} did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (performance.now() - began) / 1000;
      return { child, seconds, cpu: await cpuSeconds(child.pid!), rss: await statusBytes(child.pid!, 'VmRSS') };
    }

    async function stop(child: ChildProcess) {
      child.kill('SIGTERM');
      await exited(child);
      running.delete(child);
    }

    async function once(way: Way): Promise<Sample> {
      const port = await freePort();
      const serve = await start(way, 'serve', port);
      const worker = await start(way, 'worker', await freePort());
      const base = `http://127.0.0.1:${port}`;
      const token = await fetchToken(base, tenant.clientId, tenant.clientSecret);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const cpuBefore = await cpuSeconds(worker.child.pid!);
      const created = await fetch(`${base}${API}/sdtask/process`, { method: 'POST', headers, body: JSON.stringify({ context: { url: files.url('text.pdf') } }) });
      if (!created.ok) throw new Error(`create: ${created.status} ${await created.text()}`);
      const { taskId } = (await created.json()) as { taskId: number };
      for (;;) {
        const { taskStatus } = (await (await fetch(`${base}${API}/sdtask/status?taskId=${taskId}`, { headers })).json()) as { taskStatus: number };
        if (PROCESSING_ENDED_STATUSES.has(taskStatus)) {
          if (taskStatus !== TaskStatus.ToReview) throw new Error(`${way}: the task ended ${nameOf(TaskStatus, taskStatus)}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const taskCpu = (await cpuSeconds(worker.child.pid!)) - cpuBefore;
      const workerPeakRss = await statusBytes(worker.child.pid!, 'VmHWM');
      await new Promise((r) => setTimeout(r, 2000));
      const workerRssAfter = await statusBytes(worker.child.pid!, 'VmRSS');
      await stop(worker.child);
      await stop(serve.child);
      return { start: { serve, worker }, taskCpu, workerPeakRss, workerRssAfter };
    }

    const samples: Record<Way, Sample[]> = { tsx: [], compiled: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      // The two ways take turns going first: whichever runs second finds the page cache warmer.
      for (const way of round % 2 === 0 ? (['tsx', 'compiled'] as const) : (['compiled', 'tsx'] as const)) {
        const sample = await once(way);
        samples[way].push(sample);
        say(`round ${round + 1} ${way.padEnd(8)}: serve ready ${sample.start.serve.seconds.toFixed(2)} s (${sample.start.serve.cpu.toFixed(2)} CPU s), worker ready ${sample.start.worker.seconds.toFixed(2)} s (${sample.start.worker.cpu.toFixed(2)} CPU s), first task ${sample.taskCpu.toFixed(2)} CPU s`);
      }
    }

    const figures: Array<[string, (s: Sample) => number, (v: number) => string]> = [
      ['serve: seconds to ready', (s) => s.start.serve.seconds, (v) => v.toFixed(2)],
      ['serve: CPU seconds to ready', (s) => s.start.serve.cpu, (v) => v.toFixed(2)],
      ['serve: RSS when ready', (s) => s.start.serve.rss, mb],
      ['worker: seconds to ready', (s) => s.start.worker.seconds, (v) => v.toFixed(2)],
      ['worker: CPU seconds to ready', (s) => s.start.worker.cpu, (v) => v.toFixed(2)],
      ['worker: RSS when ready', (s) => s.start.worker.rss, mb],
      [`worker: CPU seconds, first task (${TASK_PAGES} text pages)`, (s) => s.taskCpu, (v) => v.toFixed(2)],
      ['worker: peak RSS through the first task', (s) => s.workerPeakRss, mb],
      ['worker: RSS 2 s after it', (s) => s.workerRssAfter, mb],
    ];
    say();
    say(`medians of ${ROUNDS} rounds; load average now ${loadavg()[0]!.toFixed(1)}`);
    say(`${'figure'.padEnd(52)} ${'tsx'.padStart(9)} ${'compiled'.padStart(9)} ${'tsx/compiled'.padStart(13)}`);
    for (const [name, of, format] of figures) {
      const tsx = median(samples.tsx.map(of));
      const compiled = median(samples.compiled.map(of));
      say(`${name.padEnd(52)} ${format(tsx).padStart(9)} ${format(compiled).padStart(9)} ${(tsx / compiled).toFixed(2).padStart(12)}x`);
    }
  } finally {
    for (const child of running) child.kill('SIGKILL');
    await files.close();
    await redis?.stop();
    await infra.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
