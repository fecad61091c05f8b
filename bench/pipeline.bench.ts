/**
 * npm run bench:pipeline: the document pipeline end to end, as an integrator sees it. The app runs
 * as `npm start` runs it (src/main.ts dev: api and queue workers in one process, engine threads
 * and OCR slots at their production defaults) in a child process; each document is created over
 * HTTP on the demo Layout workspace and timed until its status reads ToReview (polled every 50
 * ms): download, pre-processing, the model in an engine thread, results saved, all included.
 *
 * Each run is paired, in the same run and right after it, with the raw engines on the same pages:
 * `pdftotext -bbox` for text PDFs; for scanned pages the bare `tesseract` CLI on the same 300 dpi
 * page images (TSV, as the app asks for), one process per core at a time; `ocrmypdf` (same dpi,
 * one job per core) when installed; for audio, the bare `pocketsphinx_continuous` on the same
 * recording already converted to 16 kHz WAV. Targets (issue 12): at least 50 text pages/s, a
 * 200-page text PDF in ToReview within 10 s, scanned pages within 1.2x raw tesseract.
 *
 * Besides wall time it prints the CPU seconds each side used (the app's threads and the children
 * it waited for; the Postgres backends of its database apart; the peers' processes): on a machine
 * shared with other work the wall times swing with the load, the CPU ratios much less.
 * Memory: the peak RSS of the app with its child processes (tesseract, pdftoppm, ffmpeg,
 * pocketsphinx) during each document beside the peer's (GNU time, when installed).
 * For the text pages it prints what a page stores in the chunk table, and the app's memory at idle,
 * after the text PDFs, after the scanned ones and after a receipt (Receipts workspace, one scanned
 * page), against the goals of 500 MB idle and 700 MB busy.
 *
 *   npm run bench:pipeline     (DATABASE_URL, else the embedded Postgres of `npm start`)
 *   BENCH_TEXT_PAGES=1,20,200 BENCH_SCANNED_PAGES=1,5,20 BENCH_REPEAT_SMALL=3 BENCH_AUDIO=1   (defaults)
 *   BENCH_TEXT_PAGES= BENCH_SCANNED_PAGES= BENCH_AUDIO=0   the warm-ups and the receipt only (its memory)
 *   BENCH_COMPILED=1   the compiled build (node dist/main.js dev) instead of tsx
 *   BENCH_PRODUCTION=1   the app as the image runs it: compiled, with the image's allocator (jemalloc
 *     and the Dockerfile's MALLOC_CONF, bench/lib/image-allocator.ts); without it, `npm start`'s tsx and glibc malloc
 *   BENCH_APP_ENV='NAME=value NAME=value'   variables for the app (and its engine children) only,
 *     not for the benchmark or its peers: e.g. the memory allocator, `MALLOC_TRIM_THRESHOLD_=1048576`
 *     or `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 MALLOC_CONF=background_thread:true`
 *   BENCH_IDLE_AFTER_RECEIPT=30   seconds the app idles after the receipt before its memory is read again
 *     (an allocator that hands memory back on a timer shows it then)
 *   BENCH_PIPELINE_DATABASE=docproc_pipeline   the database it creates and uses
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { nameOf, PROCESSING_ENDED_STATUSES, TaskStatus, TemplateType } from '../src/domain/enums.js';
import { findOnPath } from '../src/engines/find-on-path.js';
import { startDevProcess, lockLossLines, startPrivateRedis, type DevProcess } from './lib/dev-process.js';
import { scannedPageImages, scannedProsePdf, prosePdf } from './lib/documents.js';
import { benchConfig, openBenchInfrastructure } from './lib/infra.js';
import { imageAllocatorEnv, imageMallocConf } from './lib/image-allocator.js';
import { cpuSeconds, mb, treeRssBytes } from './lib/proc-stats.js';
import { say } from './lib/report.js';
import { serveSourceFiles } from './lib/source-files.js';
import { buildTree } from '../test/support/built-tree.js';
import { fetchToken } from '../test/support/http-token.js';
import { callApi, type ExternalApi } from './lib/api-call.js';

const run = promisify(execFile);
// Its own database; another name (BENCH_PIPELINE_DATABASE) keeps two runs on one server apart.
const PIPELINE_DATABASE = process.env.BENCH_PIPELINE_DATABASE ?? 'docproc_pipeline';
const OCR_DPI = 300;
const GOAL_TEXT_PAGES_PER_SECOND = 50;
const GOAL_200_PAGES_SECONDS = 10;
const GOAL_SCAN_RATIO = 1.2;
const GOAL_IDLE_MB = 500;
const GOAL_BUSY_MB = 700;

function sizesEnv(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: page counts are positive integers, got ${s}`);
      return n;
    });
}

const options = {
  textPages: sizesEnv('BENCH_TEXT_PAGES', [1, 20, 200]),
  scannedPages: sizesEnv('BENCH_SCANNED_PAGES', [1, 5, 20]),
  /** Documents of one or two pages are timed this many times (median): their times are short against the noise. */
  repeatSmall: Number(process.env.BENCH_REPEAT_SMALL ?? 3),
  audio: process.env.BENCH_AUDIO !== '0',
  /** The app as production runs it, compiled (`node dist/main.js dev`), instead of `npm start`'s tsx. */
  compiled: process.env.BENCH_COMPILED === '1' || process.env.BENCH_PRODUCTION === '1',
  /** The image's allocator for the app and its engine children (BENCH_PRODUCTION=1), else glibc malloc as `npm start` has it. */
  imageAllocator: process.env.BENCH_PRODUCTION === '1',
  appEnv: appEnvironment(process.env.BENCH_APP_ENV ?? ''),
  idleAfterReceipt: Number(process.env.BENCH_IDLE_AFTER_RECEIPT ?? 30),
};

/** BENCH_APP_ENV's `NAME=value` pairs, separated by spaces. */
function appEnvironment(raw: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of raw.split(/\s+/).filter(Boolean)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair);
    if (!match) throw new Error(`BENCH_APP_ENV: NAME=value pairs separated by spaces, got ${pair}`);
    pairs[match[1]!] = match[2]!;
  }
  return pairs;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/**
 * CPU seconds of the Postgres backends serving the benchmark's database (the app's pool among
 * them), by pid, from /proc: the database's share of a document is the growth between two calls.
 * Only when Postgres runs on this machine (it does here: embedded, or local).
 */
async function databaseCpu(db: pg.Client): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  const cpu = new Map<number, number>();
  for (const { pid } of rows) cpu.set(pid, await cpuSeconds(pid));
  return cpu;
}

function cpuGrowth(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) if (Number.isFinite(seconds)) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

/** Wall and CPU seconds of peer processes this process runs (and waits for) in `work`. */
async function timedPeer(work: () => Promise<unknown>): Promise<{ seconds: number; cpu: number; peakRss: number }> {
  const cpuBefore = await cpuSeconds(process.pid, 'children');
  peerPeakRss = 0;
  const seconds = await timed(work);
  return { seconds, cpu: (await cpuSeconds(process.pid, 'children')) - cpuBefore, peakRss: peerPeakRss };
}

/** GNU time, which measures the peers' peak RSS; without it their RSS is n/a. */
let gnuTime: string | null = null;
/** The largest peak RSS of a peer process since timedPeer started (GNU time's %M). */
let peerPeakRss = 0;
/** The peak RSS of the app with its children over the whole run (sampled every 100 ms during each document). */
let runPeakTreeRss = 0;

interface Outcome {
  status: number;
  seconds: number;
  /** CPU seconds of the app (all its threads, and the tesseract, pdftoppm and ffmpeg children it waited for) during the task. */
  cpu: number;
  /** CPU seconds of the database's backends during the task. */
  dbCpu: number;
  /** The app's highest resident memory sampled while the task ran. */
  peakRss: number;
  /** Growth of the chunk table (its TOAST and indexes included) during the task: what the result takes on disk. */
  storedBytes: number;
  /** Status requests the benchmark made while waiting (their database work is in dbCpu). */
  polls: number;
  taskId: number;
}

/** Bytes of the chunk table with its TOAST table and indexes. */
async function chunkTableBytes(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(`SELECT pg_total_relation_size('"DocumentChunk"') AS bytes`);
  return Number(rows[0]!.bytes);
}

/** Creates a task over HTTP and polls its status every 50 ms until it is final. */
async function endToEnd(api: ExternalApi, app: DevProcess, db: pg.Client, url: string, displayName: string, workspaceId?: number): Promise<Outcome> {
  let peakRss = 0;
  // The app with its children (tesseract, pdftoppm, ffmpeg, pocketsphinx): what the machine gives it.
  const sampler = setInterval(
    () =>
      void treeRssBytes(app.pid).then((rss) => {
        peakRss = Math.max(peakRss, rss);
        runPeakTreeRss = Math.max(runPeakTreeRss, rss);
      }),
    100,
  );
  try {
    const started = performance.now();
    const cpuBefore = await cpuSeconds(app.pid);
    const dbBefore = await databaseCpu(db);
    const storedBefore = await chunkTableBytes(db);
    const { taskId } = await callApi<{ taskId: number }>(api, 'POST', '/sdtask/process', { displayName, context: { url }, ...(workspaceId ? { workspaceId } : {}) });
    const deadline = Date.now() + 30 * 60_000;
    for (let polls = 1; ; polls++) {
      const { taskStatus } = await callApi<{ taskStatus: number }>(api, 'GET', `/sdtask/status?taskId=${taskId}`);
      if (PROCESSING_ENDED_STATUSES.has(taskStatus) || Date.now() > deadline) return { status: taskStatus, seconds: (performance.now() - started) / 1000, cpu: (await cpuSeconds(app.pid)) - cpuBefore, dbCpu: cpuGrowth(dbBefore, await databaseCpu(db)), peakRss, storedBytes: (await chunkTableBytes(db)) - storedBefore, polls, taskId };
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    clearInterval(sampler);
  }
}

/** A token, asked again while the service sheds load just after its start (503 while its event loop lags). */
async function tokenOnceServing(baseUrl: string, credentials: { clientId: string; clientSecret: string }): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchToken(baseUrl, credentials.clientId, credentials.clientSecret);
    } catch (err) {
      if (attempt >= 20 || !String(err).includes(' 503 ')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** `work` of each item, `parallel` at a time. */
async function inParallel<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const BIG = { maxBuffer: 512 * 1024 * 1024 };
/**
 * The app's engine threads, and the tesseract and pdftoppm processes they start, run at nice +10
 * (engine-pool.ts: the event loop comes first); the peers run at the same priority, or on a
 * machine shared with other work they would get a bigger share of it than our engines do.
 */
const ENGINE_NICE = '10';
/** Runs a peer at the engines' priority, its peak RSS noted (GNU time's %M, into peerPeakRss). */
async function peer(binary: string, args: readonly string[], env?: NodeJS.ProcessEnv) {
  const peakFile = path.join(tmpdir(), `peer-rss-${randomBytes(6).toString('hex')}`);
  try {
    const measured = gnuTime ? [gnuTime, '-f', '%M', '-o', peakFile, binary] : [binary];
    return await run('nice', ['-n', ENGINE_NICE, ...measured, ...args], { ...BIG, ...(env ? { env } : {}) });
  } finally {
    const kb = Number((await readFile(peakFile, 'utf8').catch(() => '')).trim());
    if (Number.isFinite(kb)) peerPeakRss = Math.max(peerPeakRss, kb * 1024);
    await rm(peakFile, { force: true });
  }
}
const SINGLE_THREADED = { ...process.env, OMP_THREAD_LIMIT: '1' };

interface Row {
  what: string;
  pages: string;
  ours: number;
  peer: number;
  peerName: string;
  unit: number;
  /** The app's CPU seconds for the document (median run). */
  cpu: number;
  dbCpu: number;
  /** Bytes the result added to the chunk table (median run). */
  stored: number;
  /** The peer's CPU seconds for the same pages. */
  peerCpu: number;
  rss: number;
  /** The peer's peak RSS (its largest process). */
  peerRss: number;
  status: number;
  /** Status requests made while waiting (median run). */
  polls?: number;
  note?: string;
}

async function main() {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const cores = availableParallelism();
  const config = await benchConfig();
  const infra = await openBenchInfrastructure(config, (line) => say(`infra: ${line}`), PIPELINE_DATABASE);
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pipeline-'));
  const redis = await startPrivateRedis(path.join(dir, 'redis'));
  const ocrmypdf = await findOnPath('ocrmypdf');
  gnuTime = await findOnPath('time');
  let app: DevProcess | undefined;
  let db: pg.Client | undefined;

  // The documents, and the same pages as the raw engines read them.
  const scans = await scannedPageImages(Math.max(...options.scannedPages, 1));
  const scanFiles = await Promise.all(scans.map(async (jpeg, i) => {
    const file = path.join(dir, `scan-${i}.jpg`);
    await writeFile(file, jpeg);
    return file;
  }));
  const documents: Record<string, Buffer> = { 'warm.pdf': await prosePdf(20), 'warm-scan.pdf': await scannedProsePdf(1, scans) };
  for (const pages of options.textPages) documents[`text-${pages}.pdf`] = await prosePdf(pages);
  for (const pages of options.scannedPages) documents[`scanned-${pages}.pdf`] = await scannedProsePdf(pages, scans);
  for (const [name, bytes] of Object.entries(documents)) await writeFile(path.join(dir, name), bytes);
  const audioFlac = path.join(dir, 'speech.flac');
  const audioWav = path.join(dir, 'speech.wav');
  if (options.audio) {
    // The test recording (13.6 s of read sentences) four times over: about 54 s of speech.
    const recording = fileURLToPath(new URL('../test/fixtures/spoken-sentences.flac', import.meta.url));
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-stream_loop', '3', '-i', recording, audioFlac]);
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', audioFlac, '-ar', '16000', '-ac', '1', audioWav]);
    documents['speech.flac'] = await readFile(audioFlac);
  }
  const files = await serveSourceFiles(documents);

  try {
    const credentials = { clientId: 'pipeline-bench', clientSecret: randomBytes(24).toString('base64url') };
    // What differs from a production start; everything else is the environment as `npm start` reads it.
    const settings: Record<string, string> = {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: redis?.url ?? infra.redisUrl,
      DATA_DIR: path.join(dir, 'data'),
      SEED_CLIENT_ID: credentials.clientId,
      SEED_CLIENT_SECRET: credentials.clientSecret,
      SOURCE_URL_ALLOW_PRIVATE: 'true',
      ...(options.imageAllocator ? imageAllocatorEnv() : {}),
      ...options.appEnv,
    };
    const logFile = path.join(tmpdir(), 'docproc-bench-pipeline.log');
    let builtRoot: string | undefined;
    if (options.compiled) {
      builtRoot = path.join(dir, 'built');
      await buildTree(builtRoot);
    }
    app = await startDevProcess({ repoRoot, builtRoot, env: settings, logFile });
    const api: ExternalApi = { baseUrl: app.baseUrl, token: await tokenOnceServing(app.baseUrl, credentials) };
    db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    const workspaces = await callApi<Array<{ workspaceId: number; templateType: number }>>(api, 'GET', '/sdworkspace/CurrentWorkspaces');
    const transcripts = workspaces.find((w) => w.templateType === TemplateType.Transcripts)?.workspaceId;
    const receipts = workspaces.find((w) => w.templateType === TemplateType.Receipts)?.workspaceId;

    say(`pipeline benchmark: ${cores} cores, load average ${loadavg()[0]!.toFixed(1)} before the run`);
    say(`app: ${builtRoot ? 'dist/main.js dev, compiled' : 'src/main.ts dev through tsx'} (api + workers in one process, pid ${app.pid}), log in ${logFile}, Layout workspace (the demo default)`);
    say('settings that differ from production:');
    say(`  database ${PIPELINE_DATABASE} (its own), DATA_DIR a temporary directory, ${redis ? 'a redis-server of its own' : `REDIS_URL ${infra.redisUrl}`}`);
    say('  SOURCE_URL_ALLOW_PRIVATE=true (sources served on loopback, so the download costs no network); status polled every 50 ms');
    if (!builtRoot) say('  the app runs from the sources through tsx, as `npm start` does (the image runs the compiled build: BENCH_PRODUCTION=1)');
    if (options.imageAllocator) say(`  none in the memory allocator: the image's, LD_PRELOAD=${settings.LD_PRELOAD} MALLOC_CONF=${settings.MALLOC_CONF}`);
    else if (!options.appEnv.LD_PRELOAD) say(`  glibc malloc, as \`npm start\` has it (the image preloads jemalloc with MALLOC_CONF=${imageMallocConf()}: BENCH_PRODUCTION=1)`);
    for (const [name, value] of Object.entries(options.appEnv)) say(`  ${name}=${value} (BENCH_APP_ENV)`);
    say('  logging, rate limits, ENGINE_THREADS, DETECT_CONCURRENCY and OCR_PROCESSES as shipped (defaults)');
    say(`  peers run at nice +${ENGINE_NICE}, the priority of the app's engine threads and of the processes they start`);
    say(`peers: pdftotext -bbox; tesseract CLI (--dpi ${OCR_DPI}, TSV, OMP_THREAD_LIMIT=1, ${cores} processes at a time) on the page images; ${ocrmypdf ? `ocrmypdf (--jobs ${cores})` : 'ocrmypdf not installed'}; pocketsphinx_continuous on the 16 kHz WAV`);

    // Memory at each stage: resident now (VmRSS) and the peak so far (VmHWM), engine threads included.
    const memory: Array<{ stage: string; rss: number; peak: number; treePeak: number }> = [];
    const noteMemory = async (stage: string) =>
      memory.push({ stage, rss: await treeRssBytes(app!.pid), peak: await app!.peakRssBytes(), treePeak: runPeakTreeRss });
    await noteMemory('idle (started, no task yet)');
    // Warm-up, before the text and before the scanned rows: the engine thread loads what the pages
    // need on first use, and V8 optimises the page work only after some pages.
    const warmUp = async (name: string, label: string) => {
      const warm = await endToEnd(api, app!, db!, files.url(name), 'pipeline warm-up');
      say(`warm-up (${label}): ${nameOf(TaskStatus, warm.status)} in ${warm.seconds.toFixed(2)} s`);
      return warm;
    };
    const warm = await warmUp('warm.pdf', '20 text pages');
    // The database's share of a document includes the benchmark's own status requests (one every
    // 50 ms, so more of them the slower the machine): what one costs Postgres, to tell them apart.
    const pollCpuBefore = await databaseCpu(db);
    const POLL_SAMPLE = 200;
    for (let i = 0; i < POLL_SAMPLE; i++) await callApi(api, 'GET', `/sdtask/status?taskId=${warm.taskId}`);
    const pollDbCpu = cpuGrowth(pollCpuBefore, await databaseCpu(db)) / POLL_SAMPLE;

    const rows: Row[] = [];
    for (const pages of options.textPages) {
      const file = path.join(dir, `text-${pages}.pdf`);
      const ours: Outcome[] = [];
      const peers: Array<{ seconds: number; cpu: number; peakRss: number }> = [];
      for (let i = 0; i < (pages <= 2 ? options.repeatSmall : 1); i++) {
        ours.push(await endToEnd(api, app, db, files.url(`text-${pages}.pdf`), `text ${pages}`));
        peers.push(await timedPeer(() => peer('pdftotext', ['-bbox', file, '-'])));
      }
      const last = ours.at(-1)!;
      rows.push({ what: 'text PDF, Layout', pages: String(pages), ours: median(ours.map((o) => o.seconds)), peer: median(peers.map((p) => p.seconds)), peerCpu: median(peers.map((p) => p.cpu)), peerName: 'pdftotext', unit: pages, cpu: median(ours.map((o) => o.cpu)), dbCpu: median(ours.map((o) => o.dbCpu)), stored: median(ours.map((o) => o.storedBytes)), rss: Math.max(...ours.map((o) => o.peakRss)), peerRss: Math.max(...peers.map((p) => p.peakRss)), status: last.status, polls: median(ours.map((o) => o.polls)) });
    }
    await noteMemory('after the text PDFs');
    await warmUp('warm-scan.pdf', '1 scanned page');
    for (const pages of options.scannedPages) {
      const file = path.join(dir, `scanned-${pages}.pdf`);
      const images = Array.from({ length: pages }, (_, p) => scanFiles[p % scanFiles.length]!);
      const ours: Outcome[] = [];
      const peers: Array<{ seconds: number; cpu: number; peakRss: number }> = [];
      for (let i = 0; i < (pages <= 2 ? options.repeatSmall : 1); i++) {
        ours.push(await endToEnd(api, app, db, files.url(`scanned-${pages}.pdf`), `scanned ${pages}`));
        peers.push(await timedPeer(() => inParallel(images, cores, (image) => peer('tesseract', [image, 'stdout', '--dpi', String(OCR_DPI), 'tsv'], SINGLE_THREADED))));
      }
      rows.push({ what: 'scanned PDF, Layout', pages: String(pages), ours: median(ours.map((o) => o.seconds)), peer: median(peers.map((p) => p.seconds)), peerCpu: median(peers.map((p) => p.cpu)), peerName: 'tesseract', unit: pages, cpu: median(ours.map((o) => o.cpu)), dbCpu: median(ours.map((o) => o.dbCpu)), stored: median(ours.map((o) => o.storedBytes)), rss: Math.max(...ours.map((o) => o.peakRss)), peerRss: Math.max(...peers.map((p) => p.peakRss)), status: ours.at(-1)!.status });
      if (ocrmypdf) {
        const { seconds, cpu: peerCpu, peakRss: peerRss } = await timedPeer(() => peer('ocrmypdf', ['--force-ocr', '--jobs', String(cores), '--image-dpi', String(OCR_DPI), '--output-type', 'pdf', file, path.join(dir, 'ocrmypdf.pdf')]));
        rows.push({ what: 'scanned PDF, Layout', pages: String(pages), ours: rows.at(-1)!.ours, peer: seconds, peerCpu, peerName: 'ocrmypdf', unit: pages, cpu: rows.at(-1)!.cpu, dbCpu: rows.at(-1)!.dbCpu, stored: rows.at(-1)!.stored, rss: Number.NaN, peerRss, status: ours.at(-1)!.status });
      }
    }
    await noteMemory('after the scanned PDFs');
    if (receipts) {
      const receipt = await endToEnd(api, app, db, files.url('warm-scan.pdf'), 'receipt', receipts);
      say(`receipt (1 scanned page, Receipts workspace): ${nameOf(TaskStatus, receipt.status)} in ${receipt.seconds.toFixed(2)} s, app CPU ${receipt.cpu.toFixed(2)} s`);
      await noteMemory('after a receipt');
      if (options.idleAfterReceipt > 0) {
        await new Promise((r) => setTimeout(r, options.idleAfterReceipt * 1000));
        await noteMemory(`${options.idleAfterReceipt} s after the receipt`);
      }
    }
    if (options.audio && transcripts) {
      const ours = await endToEnd(api, app, db, files.url('speech.flac'), 'speech', transcripts);
      const model = '/usr/share/pocketsphinx/model/en-us';
      const raw = await timedPeer(() =>
        peer('pocketsphinx_continuous', ['-infile', audioWav, '-time', 'yes', '-hmm', `${model}/en-us`, '-lm', `${model}/en-us.lm.bin`, '-dict', `${model}/cmudict-en-us.dict`]),
      );
      rows.push({ what: 'audio, Transcripts', pages: '54 s', ours: ours.seconds, peer: raw.seconds, peerCpu: raw.cpu, peerName: 'pocketsphinx', unit: 1, cpu: ours.cpu, dbCpu: ours.dbCpu, stored: ours.storedBytes, rss: ours.peakRss, peerRss: raw.peakRss, status: ours.status, note: 'ours includes decoding the FLAC' });
    }

    say();
    say(`${'document'.padEnd(22)} ${'pages'.padStart(5)}  ${'status'.padEnd(10)} ${'ours s'.padStart(7)} ${'pages/s'.padStart(8)} ${'s/page'.padStart(7)}  ${'peer'.padEnd(12)} ${'peer s'.padStart(7)} ${'pages/s'.padStart(8)}  ${'ours/peer'.padStart(9)}  ${'CPU s/page'.padStart(10)} ${'+db'.padStart(6)}  ${'CPU ours/peer'.padStart(13)}  ${'peak RSS'.padStart(8)} ${'peer RSS'.padStart(8)}`);
    for (const row of rows) {
      say(
        [
          row.what.padEnd(22),
          row.pages.padStart(5),
          ` ${(nameOf(TaskStatus, row.status) ?? String(row.status)).padEnd(10)}`,
          row.ours.toFixed(2).padStart(7),
          (row.unit / row.ours).toFixed(1).padStart(8),
          (row.ours / row.unit).toFixed(3).padStart(7),
          ` ${row.peerName.padEnd(12)}`,
          row.peer.toFixed(2).padStart(7),
          (row.unit / row.peer).toFixed(1).padStart(8),
          ` ${(row.ours / row.peer).toFixed(2).padStart(8)}x`,
          ` ${(row.cpu / row.unit).toFixed(3).padStart(10)}`,
          (row.dbCpu / row.unit).toFixed(3).padStart(6),
          ` ${(row.cpu / row.peerCpu).toFixed(2).padStart(12)}x`,
          ` ${mb(row.rss).padStart(8)}`,
          mb(row.peerRss).padStart(8),
          row.note ? `  (${row.note})` : '',
        ].join(' '),
      );
    }
    say();
    const text200 = rows.find((r) => r.peerName === 'pdftotext' && r.unit === 200);
    const textBiggest = rows.filter((r) => r.peerName === 'pdftotext').at(-1);
    if (textBiggest) {
      const rate = textBiggest.unit / textBiggest.ours;
      say(`text pages/s at ${textBiggest.unit} pages: ${rate.toFixed(1)} (goal >= ${GOAL_TEXT_PAGES_PER_SECOND}): ${rate >= GOAL_TEXT_PAGES_PER_SECOND ? 'met' : 'MISSED'}`);
      const cpuPerPage = textBiggest.cpu / textBiggest.unit;
      const dbPerPage = textBiggest.dbCpu / textBiggest.unit;
      say(`  CPU per text page: app ${(cpuPerPage * 1000).toFixed(1)} ms (every thread) + Postgres ${(dbPerPage * 1000).toFixed(1)} ms, against pdftotext's ${((textBiggest.peerCpu * 1000) / textBiggest.unit).toFixed(1)} ms; ${cores} idle cores would give at most ${(cores / (cpuPerPage + dbPerPage)).toFixed(0)} pages/s`);
      say(`  stored per text page: ${(textBiggest.stored / textBiggest.unit / 1024).toFixed(0)} KB in the chunk table (TOAST and indexes included)`);
      const polling = ((textBiggest.polls ?? 0) * pollDbCpu) / textBiggest.unit;
      say(`  of Postgres's share, the benchmark's own status requests: about ${(polling * 1000).toFixed(1)} ms a page (${textBiggest.polls} requests at ${(pollDbCpu * 1000).toFixed(2)} ms each); the document's own: ${((dbPerPage - polling) * 1000).toFixed(1)} ms a page`);
    }
    if (text200) say(`200-page text PDF in ToReview: ${text200.ours.toFixed(1)} s (goal < ${GOAL_200_PAGES_SECONDS} s): ${text200.ours < GOAL_200_PAGES_SECONDS && text200.status === TaskStatus.ToReview ? 'met' : 'MISSED'}`);
    for (const row of rows.filter((r) => r.peerName === 'tesseract')) {
      const ratio = row.ours / row.peer;
      say(`scanned ${row.pages} pages vs raw tesseract: ${ratio.toFixed(2)}x the time (goal <= ${GOAL_SCAN_RATIO}x): ${ratio <= GOAL_SCAN_RATIO ? 'met' : 'MISSED'}; ${(row.cpu / row.peerCpu).toFixed(2)}x its CPU`);
    }
    say(`peak RSS over the whole run: the app ${mb(await app.peakRssBytes())} (VmHWM, engine threads included), the app with its children ${mb(runPeakTreeRss)} (sampled every 100 ms during the documents)`);
    say(`  peak RSS columns: ours = the app with its tesseract, pdftoppm, ffmpeg and pocketsphinx children, sampled; peer = its largest process (GNU time)`);
    say(`memory (the app with its children now / the app's VmHWM so far / the sampled peak with children so far; goals: <= ${GOAL_IDLE_MB} MB idle, <= ${GOAL_BUSY_MB} MB busy):`);
    for (const { stage, rss, peak, treePeak } of memory) say(`  ${stage.padEnd(30)} ${mb(rss).padStart(8)} / ${mb(peak).padStart(8)} / ${mb(treePeak).padStart(8)}`);
    const lockLines = await lockLossLines(logFile);
    say(`job locks lost (log lines): ${lockLines.length}`);
    say(`load average after the run: ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await db?.end();
    await app?.stop();
    await files.close();
    await redis?.stop();
    await infra.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
