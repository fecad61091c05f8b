/**
 * Recordings on machines that lack an engine: a worker in a process of its own whose PATH holds
 * only the engines a case gives it (links to the installed ones), so nothing is uninstalled.
 * A task that cannot succeed fails at once, its reason in the status answers and the export; one
 * that can (another engine stands in) reaches ToReview.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { findOnPath } from '../src/engines/find-on-path.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { jobId, QueueName } from '../src/queues/queues.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { speech } from './support/fixtures.js';
import { jobOfTask, startWorkerProcess, waitForFinalStatus } from './support/pipeline.js';
import { exited } from './support/processes.js';
import { createTask } from './support/tasks.js';

let ctx: TestContext;
let files: FileServer;
const scratch: string[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({ '/call.mp3': { body: await speech('mp3', 'please call me back tomorrow morning'), type: 'audio/mpeg' } });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** A directory for PATH holding links to these installed binaries, and nothing else. */
async function pathWith(...binaries: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'engines-'));
  scratch.push(dir);
  for (const binary of binaries) {
    const installed = await findOnPath(binary);
    if (!installed) throw new Error(`${binary} is not installed on this machine: the test links to the installed engines`);
    await symlink(installed, path.join(dir, binary));
  }
  return dir;
}

/** Runs `body` with a worker process of this environment, stopped afterwards. */
async function withWorker<T>(env: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  const worker: ChildProcess = await startWorkerProcess(ctx, env);
  try {
    return await body();
  } finally {
    worker.kill('SIGTERM');
    await exited(worker);
  }
}

async function recordingTask(t: TestTenant): Promise<number> {
  const workspace = await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'Calls', templateType: TemplateType.Transcripts });
  return createTask(ctx.app, t, files.url('/call.mp3'), { workspaceId: workspace.workspaceId, context: { transcriptLanguage: 'en-US' } });
}

const get = (t: TestTenant, url: string) => ctx.app.inject({ method: 'GET', url: `${EXTERNAL_PREFIX}${url}`, headers: t.headers });

/** How many times the job of the task's stage was started (BullMQ counts each attempt). */
async function attemptsOf(queue: QueueName, id: string): Promise<number | undefined> {
  return (await ctx.queues[queue].getJob(id))?.attemptsStarted;
}

/** The failure reason as the status answer, both status lists and the transcript export show it. */
async function shownFailureReasons(t: TestTenant, taskId: number): Promise<unknown[]> {
  const status = await get(t, `/sdtask/status?taskId=${taskId}`);
  expect(status.statusCode, status.body).toBe(200);
  const page = await get(t, '/sdtask/statuslistpaginated?startDate=2020-01-01');
  const list = await get(t, '/sdtask/statuslist?startDate=2020-01-01');
  const exported = await get(t, `/sdtask/GetExportData/Transcript/${taskId}`);
  expect(exported.statusCode, exported.body).toBe(200);
  return [
    status.json().failureReason,
    page.json().items.find((i: { taskId: number }) => i.taskId === taskId).failureReason,
    list.json().find((i: { taskId: number }) => i.taskId === taskId).failureReason,
    exported.json().failureReason,
  ];
}

const BUNDLED_MEDIA_TOOLS_INSTALLED = (() => {
  try {
    createRequire(import.meta.url).resolve('@ffprobe-installer/ffprobe');
    createRequire(import.meta.url).resolve('@ffmpeg-installer/ffmpeg');
    return true;
  } catch {
    return false;
  }
})();

describe('a recording on a machine without an engine it needs', () => {
  it('fails at once, in pre-processing, when there is no ffprobe at all, saying what to install', { timeout: 120_000 }, async () => {
    const t = await createTestTenant(ctx);
    const taskId = await withWorker({ PATH: await pathWith('pocketsphinx_continuous'), BUNDLED_MEDIA_TOOLS: 'false' }, async () => {
      const id = await recordingTask(t);
      await waitForFinalStatus(ctx, id);
      return id;
    });
    const status = (await get(t, `/sdtask/status?taskId=${taskId}`)).json();
    expect(status.taskStatus).toBe(TaskStatus.PreProcessingFailed);
    expect(status.failureReason).toBe(
      'ffprobe is not installed: install ffmpeg, which brings ffprobe (the ffmpeg package of the system), or the npm package @ffprobe-installer/ffprobe',
    );
    expect(await shownFailureReasons(t, taskId)).toEqual(Array(4).fill(status.failureReason));
    // No retry: a second attempt could not find it either.
    expect(await attemptsOf(QueueName.PreprocessLow, jobId.preprocess(await jobOfTask(ctx, taskId)))).toBe(1);
  });

  it('fails at once, in recognition, when neither pocketsphinx nor ASR_URL is there, saying so', { timeout: 120_000 }, async () => {
    const t = await createTestTenant(ctx);
    const taskId = await withWorker({ PATH: await pathWith('ffmpeg', 'ffprobe'), ASR_URL: undefined }, async () => {
      const id = await recordingTask(t);
      await waitForFinalStatus(ctx, id);
      return id;
    });
    const status = (await get(t, `/sdtask/status?taskId=${taskId}`)).json();
    expect(status.taskStatus).toBe(TaskStatus.RecognitionFailed);
    expect(status.failureReason).toMatch(/^no speech engine for en-US: pocketsphinx is not installed .* and ASR_URL .* is not set$/);
    expect(await shownFailureReasons(t, taskId)).toEqual(Array(4).fill(status.failureReason));
    expect(await attemptsOf(QueueName.Detect, jobId.detect(await jobOfTask(ctx, taskId)))).toBe(1);
  });

  describe('with ASR_URL', () => {
    let asr: Server;
    let asrUrl: string;
    beforeAll(async () => {
      // An OpenAI-compatible transcription endpoint that hears two words in any recording.
      asr = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const words = [
            { word: 'call', start: 0.4, end: 0.7, probability: 0.9 },
            { word: 'back', start: 0.8, end: 1.1, probability: 0.9 },
          ];
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ words, segments: [] }));
        });
      });
      await new Promise<void>((resolve) => asr.listen(0, '127.0.0.1', resolve));
      asrUrl = `http://127.0.0.1:${(asr.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => asr.close(() => resolve())));

    it('transcribes an en-US recording through it where pocketsphinx is not installed', { timeout: 120_000 }, async () => {
      const t = await createTestTenant(ctx);
      const task = await withWorker({ PATH: await pathWith('ffmpeg', 'ffprobe'), ASR_URL: asrUrl }, async () => waitForFinalStatus(ctx, await recordingTask(t)));
      expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
      const status = (await get(t, `/sdtask/status?taskId=${task.id}`)).json();
      expect(status).toMatchObject({ failureReason: null, pagesProcessed: null });
    });
  });

  it.runIf(BUNDLED_MEDIA_TOOLS_INSTALLED)(
    "transcribes with the npm packages' ffmpeg and ffprobe where the system has none",
    { timeout: 180_000 },
    async () => {
      const t = await createTestTenant(ctx);
      const task = await withWorker({ PATH: await pathWith('pocketsphinx_continuous') }, async () => waitForFinalStatus(ctx, await recordingTask(t)));
      expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
    },
  );
});
