import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus } from '../src/domain/enums.js';
import { taskBlobKey } from '../src/storage/task-files.js';
import { enqueueDetect, enqueuePreprocess, jobId, QueueName, taskJob } from '../src/queues/queues.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { uploadFiles } from '../src/modules/uploads/upload-storage.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { startTestWorkers, startWorkerProcess, waitForFinalStatus } from './support/pipeline.js';
import { exited } from './support/processes.js';
import { createTask } from './support/tasks.js';

let ctx: TestContext;
let files: FileServer;
beforeAll(async () => {
  ctx = await createTestContext();
  files = await startFileServer({ '/doc.pdf': { body: await numberedPagesPdf(2), type: 'application/pdf' } });
});
afterAll(async () => {
  await ctx.close();
  await files.close();
});

/** A complete TUS upload of `body` (one PATCH); returns its Location and upload id. */
async function tusUpload(t: TestTenant, body: Buffer): Promise<{ location: string; uploadId: string }> {
  const meta = `filetype ${Buffer.from('application/pdf').toString('base64')}`;
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/files/',
    headers: { ...t.headers, 'tus-resumable': '1.0.0', 'upload-length': String(body.length), 'upload-metadata': meta },
  });
  expect(created.statusCode, created.body).toBe(201);
  const location = created.headers.location as string;
  const patched = await ctx.app.inject({
    method: 'PATCH',
    url: new URL(location).pathname,
    headers: { ...t.headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: body,
  });
  expect(patched.statusCode, patched.body).toBe(204);
  return { location, uploadId: new URL(location).pathname.split('/').at(-1)! };
}

/** The task's final row, or a failure as soon as the worker process dies (instead of a long timeout). */
async function finalStatusWhileAlive(worker: ChildProcess, taskId: number) {
  const died = exited(worker).then((code) => expect.fail(`the worker process died (exit ${code}) while task ${taskId} was processed`));
  try {
    return await Promise.race([waitForFinalStatus(ctx, taskId), died]);
  } finally {
    died.catch(() => undefined); // the worker is stopped at the end of the test: that is no failure
  }
}

describe('no error of a job ends a worker process', () => {
  it('fails a task whose upload file was deleted after creation, and the same worker process goes on with the next task', async () => {
    const t = await createTestTenant(ctx);
    const { location, uploadId } = await tusUpload(t, await numberedPagesPdf(1));
    const orphan = await createTask(ctx.app, t, location);
    // Behind the service's back: the file goes before any worker reads it.
    await uploadFiles(ctx.blobs, ctx.config).delete(uploadId);
    const worker = await startWorkerProcess(ctx);
    try {
      const failed = await finalStatusWhileAlive(worker, orphan);
      expect(failed.taskStatus).toBe(TaskStatus.PreProcessingDownloadFailed);
      expect(failed.failureReason).toMatch(/uploaded file .* no longer exists/);
      const next = await finalStatusWhileAlive(worker, await createTask(ctx.app, t, files.url('/doc.pdf')));
      expect(next.taskStatus, next.failureReason ?? '').toBe(TaskStatus.ToReview);
      expect(worker.exitCode).toBeNull();
    } finally {
      worker.kill('SIGKILL');
      await exited(worker);
    }
  });

  it("fails a task at once, with the reason, when a blob is missing: a part's file in pre-processing, the source in detect", async () => {
    const t = await createTestTenant(ctx);
    const requestsBefore = files.requests.length;
    const row = (taskNumber: number, data: Record<string, unknown>) =>
      ctx.prisma.task.create({
        data: {
          tenantId: t.tenantId,
          workspaceId: t.defaultWorkspaceId,
          taskNumber,
          displayName: `lost blob ${taskNumber}`,
          integrationStatus: 1,
          request: { context: { url: files.url('/doc.pdf') } },
          taskStatus: TaskStatus.QueuedForPreProcessing,
          ...data,
        },
      });
    const missingKey = (name: string) => taskBlobKey(t.tenantId, 999_999_999, name);
    const original = await row(1, { taskStatus: TaskStatus.Split });
    const part = await row(2, {
      parentTaskId: original.id,
      partNumber: 1,
      request: { context: { url: files.url('/doc.pdf') }, part: { sourceBlobKey: missingKey('run-0/part-1.pdf'), pages: '1-2' } },
    });
    const recognized = await row(3, {
      taskStatus: TaskStatus.PreProcessingSuccessful,
      totalPages: 2,
      processedPageRange: '1-2',
      sourceBlobKey: missingKey('source'),
      sourceMimeType: 'application/pdf',
    });
    await enqueuePreprocess(ctx.queues, 1, taskJob(part));
    await enqueueDetect(ctx.queues, 1, taskJob(recognized));
    const workers = await startTestWorkers(ctx);
    try {
      const cases = [
        [part.id, TaskStatus.PreProcessingDownloadFailed, /file of this part .* is missing/, QueueName.PreprocessLow, jobId.preprocess(taskJob(part))],
        [recognized.id, TaskStatus.RecognitionFailed, /source file is missing/, QueueName.Detect, jobId.detect(taskJob(recognized))],
      ] as const;
      for (const [taskId, status, reason, queue, id] of cases) {
        const done = await waitForFinalStatus(ctx, taskId);
        expect(done.taskStatus, done.failureReason ?? '').toBe(status);
        expect(done.failureReason).toMatch(reason);
        // Handled by the job itself, not thrown for retries that cannot bring the file back.
        const jobState = () => ctx.queues[queue].getJobState(id);
        while ((await jobState()) === 'active') await new Promise((r) => setTimeout(r, 100));
        expect(await jobState()).toBe('completed');
      }
      // A part fails as a part: it never falls back to the original's URL.
      expect(files.requests.slice(requestsBefore)).toEqual([]);
    } finally {
      await workers.close();
    }
  });
});
