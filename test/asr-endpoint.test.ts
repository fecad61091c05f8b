import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { speech } from './support/fixtures.js';
import { startTestWorkers, waitForFinalStatus } from './support/pipeline.js';
import { createTask } from './support/tasks.js';
import { startWhisperStandIn, type WhisperStandIn } from './support/whisper-stand-in.js';

const API = '/api/v1.0/external';
/** What the stand-in "hears": not what espeak-ng says, so only the stand-in can have produced it. */
const HEARD = 'the stand-in server heard these words';

let ctx: TestContext;
let files: FileServer;
let whisper: WhisperStandIn;
let workers: WorkerPool;
beforeAll(async () => {
  whisper = await startWhisperStandIn('faster-whisper', HEARD);
  // ASR_URL as an operator writes it for a faster-whisper or whisper.cpp server: its base URL.
  ctx = await createTestContext({ ASR_URL: whisper.url, ASR_MODEL: 'Systran/faster-whisper-small' });
  files = await startFileServer({ '/call.mp3': { body: await speech('mp3', 'hello world this is a test recording'), type: 'audio/mpeg' } });
  workers = await startTestWorkers(ctx);
});
afterAll(async () => {
  await workers.close();
  await ctx.close();
  await files.close();
  await whisper.close();
});

describe('transcription through a Whisper server (ASR_URL)', { timeout: 180_000 }, () => {
  it('brings an English recording to ToReview with the words the server heard, in either answer shape', async () => {
    const t = await createTestTenant(ctx);
    const workspaceId = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'calls', templateType: TemplateType.Transcripts })).workspaceId;
    for (const dialect of ['faster-whisper', 'whisper.cpp'] as const) {
      whisper.dialect = dialect;
      const before = whisper.requests.length;
      // No transcriptLanguage: en-US, which pocketsphinx would read if ASR_URL were not used.
      const taskId = await createTask(ctx.app, t, files.url('/call.mp3'), { workspaceId, displayName: dialect });
      const task = await waitForFinalStatus(ctx, taskId);
      expect(task.taskStatus, `${dialect}: ${task.failureReason}`).toBe(TaskStatus.ToReview);

      const request = whisper.requests.slice(before);
      expect(request).toHaveLength(1);
      expect(request[0]!.fields).toMatchObject({ model: ['Systran/faster-whisper-small'], language: ['en'], response_format: ['verbose_json'] });
      expect(request[0]!.audioBytes).toBeGreaterThan(16_000);

      const exported = await ctx.app.inject({ method: 'GET', url: `${API}/sdtask/GetExportData/Transcript/${taskId}`, headers: t.headers });
      expect(exported.statusCode, exported.body).toBe(200);
      const items = exported.json().transcript.transcripts as Array<{ displayText: string; originalWords: Array<{ text: string; offsetInSeconds: number; confidence: number }> }>;
      expect(items.map((item) => item.displayText).join(' '), dialect).toBe(HEARD);
      const words = items.flatMap((item) => item.originalWords);
      expect(words.map((w) => w.text)).toEqual(HEARD.split(' '));
      expect(words.every((w) => w.confidence === 0.9)).toBe(true);
      expect(words.map((w) => w.offsetInSeconds)).toEqual([...words.map((w) => w.offsetInSeconds)].sort((a, b) => a - b));
    }
  });
});
