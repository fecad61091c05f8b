/**
 * The memory allocator's share of PP-OCR's memory and CPU, apart from the app: a process reads
 * dev receipts with PP-OCR in a worker thread (as an engine thread does), a few times over, and
 * reports its CPU seconds (user and system, every thread) for the readings, its peak RSS
 * (VmHWM), the RSS it keeps right after and after some idle seconds (an allocator that hands
 * memory back on a timer shows it only then), and the words read (the same under every allocator).
 * One process a variant of the allocator's settings; the variants alternate round by round, so a
 * shared machine's load falls on all of them alike. Variants:
 *   glibc            glibc malloc as it is (production's default)
 *   trim             glibc with MALLOC_TRIM_THRESHOLD_=1048576
 *   jemalloc         jemalloc (LD_PRELOAD) with its default decay
 *   jemalloc-decay   jemalloc with MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0
 *   jemalloc-image   jemalloc with the MALLOC_CONF the Dockerfile sets (the image's allocator)
 *
 *   BENCH_CORPORA=<corpora> npm run bench:memory -- [receipts=6] [reads=2] [rounds=2]
 *   BENCH_MALLOC_VARIANTS=glibc,jemalloc   a subset
 *   BENCH_JEMALLOC_CONF=oversize_threshold:0   one more variant, jemalloc-conf: jemalloc with this MALLOC_CONF
 *   BENCH_JEMALLOC=<path of libjemalloc.so.2>   else Debian's (package libjemalloc2) for this architecture
 *   BENCH_IDLE_SECONDS=15   how long the process idles before the last RSS is read
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
import { imageMallocConf, jemallocLibrary } from './lib/image-allocator.js';
import { statusBytes, mb } from './lib/proc-stats.js';
import { say } from './lib/report.js';

const READER_FLAG = '--reader';
const JEMALLOC_DECAY = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0';

interface Reading {
  cpuUser: number;
  cpuSystem: number;
  /** RSS before the first reading (modules loaded, no model yet). */
  startRss: number;
  peakRss: number;
  afterRss: number;
  idleRss: number;
  words: number[];
}

/** In the reader process: PP-OCR in a worker thread reads `receipts` `reads` times; the process's figures meanwhile. */
async function readerProcess(files: string[], reads: number, idleSeconds: number): Promise<Reading> {
  // Node 20 applies no loader given to a Worker in its execArgv: the thread registers tsx itself.
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); }).then((m) => m.readerThread());`,
    { eval: true, workerData: { files, reads } },
  );
  const startRss = await statusBytes(process.pid, 'VmRSS');
  const cpuBefore = process.cpuUsage();
  const words = await new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const cpu = process.cpuUsage(cpuBefore);
  const afterRss = await statusBytes(process.pid, 'VmRSS');
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idleRss = await statusBytes(process.pid, 'VmRSS');
  const peakRss = await statusBytes(process.pid, 'VmHWM');
  await worker.terminate();
  return { cpuUser: cpu.user / 1e6, cpuSystem: cpu.system / 1e6, startRss, peakRss, afterRss, idleRss, words };
}

/** In the worker thread: each file read `reads` times in turn, as the pipeline reads an image (its line height first); the thread stays alive after, its models held, as an engine thread's are. */
export async function readerThread(): Promise<void> {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { paddleOcrImage } = await import('../src/engines/paddle-ocr.js');
  const { textLineHeight } = await import('../src/engines/image.js');
  const { files, reads } = workerData as { files: string[]; reads: number };
  const words: number[] = [];
  for (let i = 0; i < reads; i++) {
    for (const file of files) {
      const image = await readFile(file);
      const result = await paddleOcrImage(image, { lineHeight: await textLineHeight(image) });
      words.push(result.words.length);
    }
  }
  parentPort!.postMessage(words);
  // Kept alive (and its models with it) until the process ends it.
  setInterval(() => {}, 60_000);
}

const variants: Record<string, Record<string, string>> = {
  glibc: {},
  trim: { MALLOC_TRIM_THRESHOLD_: '1048576' },
  jemalloc: { LD_PRELOAD: jemallocLibrary() },
  'jemalloc-decay': { LD_PRELOAD: jemallocLibrary(), MALLOC_CONF: JEMALLOC_DECAY },
  // What the Docker image sets, read from the Dockerfile: the bench measures the shipped setting.
  'jemalloc-image': { LD_PRELOAD: jemallocLibrary(), MALLOC_CONF: imageMallocConf() },
  ...(process.env.BENCH_JEMALLOC_CONF ? { 'jemalloc-conf': { LD_PRELOAD: jemallocLibrary(), MALLOC_CONF: process.env.BENCH_JEMALLOC_CONF } } : {}),
};

async function runVariant(name: string, args: string[]): Promise<Reading> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), READER_FLAG, ...args], {
    env: { ...process.env, ...variants[name] },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${name}: the reader exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as Reading;
}

const range = (values: number[], format: (n: number) => string) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return format(low) === format(high) ? format(low) : `${format(low)}-${format(high)}`;
};

async function main() {
  if (process.argv[2] === READER_FLAG) {
    const [list, reads, idle] = process.argv.slice(3);
    const reading = await readerProcess(JSON.parse(list!) as string[], Number(reads), Number(idle));
    process.stdout.write(`${JSON.stringify(reading)}\n`);
    process.exit(0);
  }
  const corpora = process.env.BENCH_CORPORA;
  if (!corpora) throw new Error('BENCH_CORPORA: the shared corpora directory (receipts-dev/img in it)');
  const [receipts = 6, reads = 2, rounds = 2] = process.argv.slice(2).map(Number);
  const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
  const imageDir = path.join(corpora, 'receipts-dev', 'img');
  const files = (await readdir(imageDir)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, receipts).map((f) => path.join(imageDir, f));
  const names = (process.env.BENCH_MALLOC_VARIANTS ?? Object.keys(variants).join(',')).split(',').filter(Boolean);
  for (const name of names) {
    if (!variants[name]) throw new Error(`BENCH_MALLOC_VARIANTS: unknown ${name}; known: ${Object.keys(variants).join(', ')}`);
    const preload = variants[name].LD_PRELOAD;
    if (preload && !existsSync(preload)) throw new Error(`${name}: ${preload} is not installed (Debian: libjemalloc2), or set BENCH_JEMALLOC`);
  }
  say(`PP-OCR on ${files.length} dev receipts, ${reads} times each, in a worker thread; ${rounds} rounds of ${names.join(', ')}; idle ${idleSeconds} s before the last RSS`);
  const results = new Map<string, Reading[]>(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    // Each round starts with another variant: none is always first after a quiet spell.
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const load = loadavg()[0]!;
      const r = await runVariant(name, [JSON.stringify(files), String(reads), String(idleSeconds)]);
      results.get(name)!.push(r);
      say(`round ${round + 1} ${name.padEnd(15)} load ${load.toFixed(1).padStart(4)}  CPU ${(r.cpuUser + r.cpuSystem).toFixed(1)} s (system ${r.cpuSystem.toFixed(1)})  start ${mb(r.startRss)}  peak ${mb(r.peakRss)}  after ${mb(r.afterRss)}  after ${idleSeconds} s idle ${mb(r.idleRss)}  words ${r.words.reduce((a, b) => a + b, 0)}`);
    }
  }
  say();
  say(`${'variant'.padEnd(15)} ${'CPU s'.padStart(11)} ${'system s'.padStart(9)} ${'peak MB'.padStart(9)} ${'after MB'.padStart(9)} ${'idle MB'.padStart(9)}  words`);
  const toMb = (n: number) => (n / 1024 / 1024).toFixed(0);
  for (const [name, rs] of results) {
    say(
      `${name.padEnd(15)} ${range(rs.map((r) => r.cpuUser + r.cpuSystem), (n) => n.toFixed(1)).padStart(11)} ${range(rs.map((r) => r.cpuSystem), (n) => n.toFixed(1)).padStart(9)} ${range(rs.map((r) => r.peakRss), toMb).padStart(9)} ${range(rs.map((r) => r.afterRss), toMb).padStart(9)} ${range(rs.map((r) => r.idleRss), toMb).padStart(9)}  ${[...new Set(rs.map((r) => r.words.join('+')))].join(' | ')}`,
    );
  }
}

// The worker thread imports this module for readerThread only.
if (isMainThread) await main();
