/**
 * npm run bench:asr: speech recognition accuracy on real recorded speech with its reference text.
 * Each recording is transcribed twice: through the service (created over HTTP on the demo's
 * Transcripts workspace, the app run as `npm start` runs it, the words read back from the
 * transcript export) and by the bare `pocketsphinx_continuous` with the model files the service
 * passes it. It prints the word error rate of each side per recording and over all, and the times.
 *
 * The recordings: the LibriVox excerpts of Debian's `pocketsphinx-testdata` package (read speech,
 * five sentences of Sense and Sensibility, 16 kHz WAV, with their reference text in the package's
 * `transcription` file), or any directory of the same layout in BENCH_ASR_DIR: `<id>.wav` files and
 * a `transcription` file of lines `<s> words </s> (<id>)`.
 *
 * With ASR_URL in the environment the service transcribes through that server (a Whisper server,
 * say) and the bench compares it with raw pocketsphinx; without it both sides are pocketsphinx and
 * the difference is the service's own work (conversion, windows, silences).
 *
 *   npm run bench:asr     (DATABASE_URL, else the embedded Postgres of `npm start`)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nameOf, PROCESSING_ENDED_STATUSES, TaskStatus, TemplateType } from '../src/domain/enums.js';
import { startDevProcess, startPrivateRedis, type DevProcess } from './lib/dev-process.js';
import { benchConfig, openBenchInfrastructure } from './lib/infra.js';
import { say } from './lib/report.js';
import { serveSourceFiles } from './lib/source-files.js';
import { wordErrorRate } from '../test/engines/speech-fixtures.js';
import { fetchToken } from '../test/support/http-token.js';
import { callApi, type ExternalApi } from './lib/api-call.js';

const run = promisify(execFile);
const ASR_DATABASE = 'docproc_asr';
const DEFAULT_DIR = '/usr/share/pocketsphinx/test/data/librivox';
const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';
/** The priority of the service's engine threads and of the processes they start (engine-pool.ts). */
const ENGINE_NICE = '10';

interface Recording {
  id: string;
  file: string;
  reference: string[];
}

/**
 * Words as compared: lower case, punctuation dropped (Whisper writes it, pocketsphinx does not),
 * apostrophes kept ("don't"), hyphens and dashes as spaces. Numbers are not spelled out: a
 * server writing "9" for "nine" counts an error.
 */
function normalizedWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .replace(/(^|\s)'+|'+(?=\s|$)/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** `<s> words </s> (<id>)` lines, as Sphinx test sets write their references. */
async function readRecordings(dir: string): Promise<Recording[]> {
  const lines = (await readFile(path.join(dir, 'transcription'), 'utf8')).split('\n').filter((l) => l.trim());
  return lines.map((line) => {
    const match = /^(.*)\(([^()]+)\)\s*$/.exec(line.trim());
    if (!match) throw new Error(`${dir}/transcription: not "<s> words </s> (id)": ${line}`);
    const words = match[1]!.replace(/<\/?s>/g, ' ');
    return { id: match[2]!, file: path.join(dir, `${match[2]!}.wav`), reference: normalizedWords(words) };
  });
}

async function rawPocketsphinx(file: string): Promise<{ words: string[]; seconds: number }> {
  const started = performance.now();
  const { stdout } = await run('nice', [
    '-n', ENGINE_NICE, 'pocketsphinx_continuous', '-infile', file,
    '-hmm', `${POCKETSPHINX_MODEL}/en-us`, '-lm', `${POCKETSPHINX_MODEL}/en-us.lm.bin`, '-dict', `${POCKETSPHINX_MODEL}/cmudict-en-us.dict`,
  ], { maxBuffer: 64 * 1024 * 1024 });
  return { words: normalizedWords(stdout), seconds: (performance.now() - started) / 1000 };
}

/** A task for the recording, timed from its creation to the end of processing, and the words of its transcript. */
async function throughService(api: ExternalApi, url: string, workspaceId: number, displayName: string): Promise<{ words: string[]; seconds: number; status: number }> {
  const started = performance.now();
  const { taskId } = await callApi<{ taskId: number }>(api, 'POST', '/sdtask/process', { workspaceId, displayName, context: { url } });
  const deadline = Date.now() + 10 * 60_000;
  let status: number;
  for (;;) {
    ({ taskStatus: status } = await callApi<{ taskStatus: number }>(api, 'GET', `/sdtask/status?taskId=${taskId}`));
    if (PROCESSING_ENDED_STATUSES.has(status) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  if (status !== TaskStatus.ToReview) return { words: [], seconds, status };
  const exported = await callApi<{ transcript: { transcripts: Array<{ displayText: string }> } }>(api, 'GET', `/sdtask/GetExportData/Transcript/${taskId}/simplified`);
  return { words: normalizedWords(exported.transcript.transcripts.map((t) => t.displayText).join(' ')), seconds, status };
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

async function main() {
  const dir = process.env.BENCH_ASR_DIR ?? DEFAULT_DIR;
  if (!(await access(path.join(dir, 'transcription')).then(() => true, () => false))) {
    say(`no recordings with reference text in ${dir}: install Debian's pocketsphinx-testdata (apt-get install pocketsphinx-testdata) or set BENCH_ASR_DIR`);
    process.exit(1);
  }
  const recordings = await readRecordings(dir);
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const config = await benchConfig();
  const infra = await openBenchInfrastructure(config, (line) => say(`infra: ${line}`), ASR_DATABASE);
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-asr-'));
  const redis = await startPrivateRedis(path.join(scratch, 'redis'));
  const files = await serveSourceFiles(Object.fromEntries(await Promise.all(recordings.map(async (r) => [`${r.id}.wav`, await readFile(r.file)] as const))));
  let app: DevProcess | undefined;
  try {
    const credentials = { clientId: 'asr-bench', clientSecret: randomBytes(24).toString('base64url') };
    // What differs from a production start; ASR_URL and everything else as the environment says.
    const settings: Record<string, string> = {
      DATABASE_URL: infra.databaseUrl,
      REDIS_URL: redis?.url ?? infra.redisUrl,
      DATA_DIR: path.join(scratch, 'data'),
      SEED_CLIENT_ID: credentials.clientId,
      SEED_CLIENT_SECRET: credentials.clientSecret,
      SOURCE_URL_ALLOW_PRIVATE: 'true',
    };
    const logFile = path.join(tmpdir(), 'docproc-bench-asr.log');
    app = await startDevProcess({ repoRoot, env: settings, logFile });
    const api: ExternalApi = { baseUrl: app.baseUrl, token: await fetchToken(app.baseUrl, credentials.clientId, credentials.clientSecret) };
    const workspaces = await callApi<Array<{ workspaceId: number; templateType: number }>>(api, 'GET', '/sdworkspace/CurrentWorkspaces');
    const transcripts = workspaces.find((w) => w.templateType === TemplateType.Transcripts)?.workspaceId;
    if (!transcripts) throw new Error('the demo organization has no Transcripts workspace');
    const asrUrl = process.env.ASR_URL;
    const serviceEngine = asrUrl ? `the server of ASR_URL (${new URL(asrUrl).host}, model ${process.env.ASR_MODEL ?? 'whisper-1'})` : 'pocketsphinx (ASR_URL unset)';

    say(`speech recognition benchmark: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} before the run`);
    say(`recordings: ${recordings.length} from ${dir}, ${recordings.reduce((n, r) => n + r.reference.length, 0)} reference words`);
    say(`service: src/main.ts dev (api + workers in one process), log in ${logFile}; the Transcripts workspace, language en-US; engine: ${serviceEngine}`);
    say('settings that differ from production:');
    say(`  database ${ASR_DATABASE} (its own), DATA_DIR a temporary directory, ${redis ? 'a redis-server of its own' : `REDIS_URL ${infra.redisUrl}`}`);
    say('  SOURCE_URL_ALLOW_PRIVATE=true (recordings served on loopback); status polled every 100 ms; everything else as shipped');
    say(`raw: pocketsphinx_continuous on the same WAV files with the service's model files (${POCKETSPHINX_MODEL}), at nice +${ENGINE_NICE} like the service's engines`);
    say('words compared lower-case without punctuation; WER = (substitutions + insertions + deletions) / reference words');
    say();

    const header = `${'recording'.padEnd(46)} ${'words'.padStart(5)}  ${'service WER'.padStart(11)} ${'time'.padStart(7)}  ${'raw WER'.padStart(8)} ${'time'.padStart(7)}`;
    say(header);
    let serviceEdits = 0;
    let rawEdits = 0;
    let referenceWords = 0;
    let serviceSeconds = 0;
    let rawSeconds = 0;
    const heard: string[] = [];
    for (const recording of recordings) {
      const ours = await throughService(api, files.url(`${recording.id}.wav`), transcripts, recording.id);
      const raw = await rawPocketsphinx(recording.file);
      const n = recording.reference.length;
      const oursWer = wordErrorRate(recording.reference, ours.words);
      const rawWer = wordErrorRate(recording.reference, raw.words);
      serviceEdits += oursWer * n;
      rawEdits += rawWer * n;
      referenceWords += n;
      serviceSeconds += ours.seconds;
      rawSeconds += raw.seconds;
      const status = ours.status === TaskStatus.ToReview ? '' : ` (${nameOf(TaskStatus, ours.status)})`;
      say(`${recording.id.padEnd(46)} ${String(n).padStart(5)}  ${percent(oursWer).padStart(11)} ${`${ours.seconds.toFixed(2)} s`.padStart(7)}  ${percent(rawWer).padStart(8)} ${`${raw.seconds.toFixed(2)} s`.padStart(7)}${status}`);
      heard.push(`  ${recording.id}\n    reference: ${recording.reference.join(' ')}\n    service:   ${ours.words.join(' ')}\n    raw:       ${raw.words.join(' ')}`);
    }
    say(`${'all'.padEnd(46)} ${String(referenceWords).padStart(5)}  ${percent(serviceEdits / referenceWords).padStart(11)} ${`${serviceSeconds.toFixed(2)} s`.padStart(7)}  ${percent(rawEdits / referenceWords).padStart(8)} ${`${rawSeconds.toFixed(2)} s`.padStart(7)}`);
    say();
    say(`service / raw time: ${(serviceSeconds / rawSeconds).toFixed(2)}x (the service's time runs from the create to ToReview: download, conversion, silences, recognition, storing)`);
    say();
    say('what each side heard:');
    for (const lines of heard) say(lines);
    say(`load average after the run: ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await app?.stop();
    await files.close();
    await redis?.stop();
    await infra.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
