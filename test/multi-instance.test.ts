/**
 * Two api instances and one worker that share only Postgres, Redis and the S3 bucket (each has a
 * data directory of its own, nothing on disk in common), behind one address: a load balancer
 * (a TCP proxy) that moves the client from the first api to the second in the middle of an upload.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_PREFIX } from '../src/app.js';
import { TaskStatus } from '../src/domain/enums.js';
import { generatePrivatePem } from '../src/credentials/signing-keys.js';
import { createPrisma, type PrismaClient } from '../src/db/prisma.js';
import { closeQueues, createQueues, type Queues } from '../src/queues/queues.js';
import { startWorkers, type WorkerPool } from '../src/pipeline/worker.js';
import { createQueueRedis } from '../src/queues/queue-connection.js';
import { createBlobStore } from '../src/runtime/services.js';
import { createTestContext, createTestTenant, requestToken, s3TestSettings, testConfig, type TestContext } from './support/context.js';
import { numberedPagesPdf } from './support/fixtures.js';
import { waitForFinalStatus } from './support/pipeline.js';
import { freePort } from './support/processes.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

let apiA: TestContext;
let apiB: TestContext;
let balancer: TcpProxy;
let worker: WorkerPool;
let workerPrisma: PrismaClient | undefined;
let workerQueues: Queues | undefined;
let base: string;
let scratch: string;
const portA = await freePort();
const portB = await freePort();

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'multi-instance-'));
  balancer = await startTcpProxy({ host: '127.0.0.1', port: portA });
  base = `http://127.0.0.1:${balancer.port}`;
  const run = randomUUID();
  // One deployment: the same bucket, signing key, public address and queues; its own data directory each.
  const shared = { ...s3TestSettings(), PUBLIC_BASE_URL: base, JWT_PRIVATE_KEY: await generatePrivatePem() };
  const queuePrefix = `test-${run}`;
  apiA = await createTestContext({ ...shared, DATA_DIR: path.join(scratch, 'api-a') }, { queuePrefix });
  apiB = await createTestContext({ ...shared, DATA_DIR: path.join(scratch, 'api-b') }, { queuePrefix });
  await apiA.app.listen({ host: '127.0.0.1', port: portA });
  await apiB.app.listen({ host: '127.0.0.1', port: portB });
  const workerConfig = testConfig({ ...shared, DATA_DIR: path.join(scratch, 'worker') });
  workerPrisma = createPrisma(workerConfig.DATABASE_URL!, 2);
  workerQueues = createQueues(createQueueRedis(workerConfig.REDIS_URL!), queuePrefix);
  worker = await startWorkers(
    { prisma: workerPrisma, config: workerConfig, queues: workerQueues, blobs: createBlobStore(workerConfig), log: pino({ level: 'silent' }) },
    { redisUrl: workerConfig.REDIS_URL!, prefix: queuePrefix },
  );
});

afterAll(async () => {
  await worker?.close();
  if (workerQueues) await closeQueues(workerQueues);
  await workerPrisma?.$disconnect();
  await balancer?.close();
  await apiA?.close();
  await apiB?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('two api instances and a worker on one bucket', () => {
  it('takes an upload begun on one api and finished on the other to a processed, exported task', async () => {
    const t = await createTestTenant(apiA);
    // A PDF of three pages padded past S3's 5 MiB minimum part, sent in two chunks.
    const file = path.join(scratch, 'doc.pdf');
    const pdf = await numberedPagesPdf(3);
    await writeFile(file, Buffer.concat([pdf, Buffer.alloc(6 * 1024 * 1024 - pdf.length, 0x20)]));
    const chunkSize = 5 * 1024 * 1024;

    // The first chunk goes through api A, then the client stops.
    let uploadUrl = '';
    await new Promise<void>((resolve, reject) => {
      const first: tus.Upload = new tus.Upload(createReadStream(file), {
        endpoint: `${base}/files/`,
        headers: { Authorization: `Bearer ${t.token}` },
        metadata: { filetype: 'application/pdf', workspaceid: String(t.defaultWorkspaceId) },
        chunkSize,
        retryDelays: [],
        onChunkComplete: () => {
          uploadUrl = first.url!;
          void first.abort().then(() => resolve());
        },
        onError: reject,
      });
      first.start();
    });
    expect(uploadUrl.startsWith(`${base}/files/`)).toBe(true);

    // Api A goes away; the load balancer sends the client to api B, which resumes from the bucket.
    await apiA.app.close();
    balancer.setTarget({ host: '127.0.0.1', port: portB });
    const head = await fetch(uploadUrl, { method: 'HEAD', headers: { authorization: `Bearer ${t.token}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('upload-offset'))).toBe(chunkSize);
    await new Promise<void>((resolve, reject) => {
      const rest = new tus.Upload(createReadStream(file), {
        uploadUrl,
        headers: { Authorization: `Bearer ${t.token}` },
        metadata: { filetype: 'application/pdf' },
        chunkSize,
        retryDelays: [],
        onSuccess: () => resolve(),
        onError: reject,
      });
      rest.start();
    });
    const id = uploadUrl.split('/').pop()!;
    const row = await apiB.prisma.upload.findUniqueOrThrow({ where: { id } });
    expect(row.completedAt).not.toBeNull();
    expect(Number(row.size)).toBe(6 * 1024 * 1024);

    // Api B takes the task (a token of api A's signing key is good there too); the worker processes it.
    const created = await fetch(`${base}${EXTERNAL_PREFIX}/sdtask/process`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ context: { url: uploadUrl } }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const { taskId } = (await created.json()) as { taskId: number };
    const task = await waitForFinalStatus(apiB, taskId);
    expect(task.taskStatus, task.failureReason ?? '').toBe(TaskStatus.ToReview);
    expect(task.totalPages).toBe(3);
    expect(task.sourceBlobKey).toMatch(/^tenants\//);
    expect(await apiB.blobs.exists(task.sourceBlobKey!)).toBe(true);

    // The export, and its signed link to the original, served by api B from the bucket.
    const token = await requestToken(apiB.app, t.clientId, t.clientSecret);
    const exported = await fetch(`${base}${EXTERNAL_PREFIX}/sdtask/GetExportData/${taskId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(exported.status).toBe(200);
    const body = (await exported.json()) as { originalFileUrl: string | null };
    expect(body.originalFileUrl?.startsWith(`${base}/`)).toBe(true);
    const original = await fetch(body.originalFileUrl!);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(await readFile(file))).toBe(true);

    // No file of it on any instance's disk: uploads and blobs live in the bucket only.
    for (const instance of ['api-a', 'api-b', 'worker']) {
      for (const dir of ['uploads', 'blobs']) expect(existsSync(path.join(scratch, instance, dir)), `${instance}/${dir}`).toBe(false);
    }
  });
});
