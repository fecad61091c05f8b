import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../src/domain/enums.js';
import { InputUnreadableError } from '../src/engines/errors.js';
import { ModelRejectedInputError } from '../src/models/model.js';
import { createEnginePool, type EnginePool, type ModelHost } from '../src/pipeline/engine-pool.js';
import type { ThreadModelInput } from '../src/pipeline/engine-protocol.js';
import { UnsupportedFileError } from '../src/pipeline/source-inspection.js';
import { threadModelInput } from './models/document-fixtures.js';
import { numberedPagesPdf, speech } from './support/fixtures.js';
import { repoRoot } from './support/processes.js';
import { runStarvedScript } from './support/starved-process.js';

/**
 * The engine threads load the app's TypeScript modules under vitest (and tsx: the same bootstrap),
 * and what they throw reaches the main thread as the class the pipeline decides by.
 */
let dir: string;
let pool: EnginePool;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'engine-pool-'));
  pool = createEnginePool({ threads: 1, threadMaxMemoryMb: 1024, asr: {}, log: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, body: Buffer): Promise<string> {
  const at = path.join(dir, name);
  await writeFile(at, body);
  return at;
}

function pdfRunInput(sourcePath: string, overrides: Partial<ThreadModelInput> = {}): ThreadModelInput {
  return threadModelInput(sourcePath, 'pdf', dir, { mimeType: 'application/pdf', pages: [1, 2], ...overrides });
}

/** A host that keeps what the thread hands over. */
function recordingHost() {
  const batches: Array<{ chunkNumber: number; pageNumber: number }[]> = [];
  const pagesRead: number[] = [];
  const host: ModelHost = {
    saveOutput: async ({ name }) => `saved/${name}`,
    storeChunks: async ({ json, count }) => {
      const rows = JSON.parse(json) as { chunkNumber: number; pageNumber: number }[];
      expect(rows).toHaveLength(count);
      batches.push(rows.map(({ chunkNumber, pageNumber }) => ({ chunkNumber, pageNumber })));
    },
    recordPagesRead: async ({ pages }) => {
      pagesRead.push(pages);
    },
  };
  return { host, batches, pagesRead };
}

describe('engine threads', () => {
  it('inspect a PDF in a thread', async () => {
    const inspected = await pool.inspectSource(await file('three.pdf', await numberedPagesPdf(3)));
    expect(inspected).toMatchObject({ kind: 'pdf', pageCount: 3, mimeType: 'application/pdf' });
  });

  it('rethrow what a thread throws as the class the pipeline decides by', async () => {
    await expect(pool.inspectSource(await file('notes.txt', Buffer.from('plain text, no document')))).rejects.toBeInstanceOf(UnsupportedFileError);
    const broken = await file('broken.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]));
    await expect(pool.inspectSource(broken)).rejects.toBeInstanceOf(InputUnreadableError);
    const missing = await pool.inspectSource(path.join(dir, 'gone.pdf')).catch((err: unknown) => err);
    expect((missing as NodeJS.ErrnoException).code).toBe('ENOENT');
    // The transcription model refuses a document: ModelRejectedInputError (RecognitionFailed, no retry).
    const pdf = await file('doc.pdf', await numberedPagesPdf(2));
    const rejected = await pool.runModel(TemplateType.Transcripts, pdfRunInput(pdf), recordingHost().host).catch((err: unknown) => err);
    expect(rejected).toBeInstanceOf(ModelRejectedInputError);
    expect((rejected as Error).message).toMatch(/audio or video/);
  });

  it("run a model and hand its chunks to the main thread in numbered batches, keeping only a summary", async () => {
    const pdf = await file('five.pdf', await numberedPagesPdf(5));
    const { host, batches, pagesRead } = recordingHost();
    const summary = await pool.runModel(TemplateType.Layout, pdfRunInput(pdf, { pages: [1, 2, 3, 4, 5] }), host);
    expect(summary).toMatchObject({ kind: 'document', chunkCount: 5 });
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5].map((n) => ({ chunkNumber: n, pageNumber: n })));
    // Progress: none read yet as the model starts, then counts that only grow, thinned out in time.
    expect(pagesRead[0]).toBe(0);
    expect(pagesRead).toEqual([...pagesRead].sort((a, b) => a - b));
    expect(Math.max(...pagesRead)).toBeLessThanOrEqual(5);
  });

  it("end a thread that transcribed without closing descriptors the main thread has opened since", async () => {
    // pocketsphinx reads the audio through a FIFO the thread opens and a socket closes. A thread
    // that tracked it as its own would close that number again as it exits, by then another
    // socket's: here, one of the servers opened after the transcription.
    const own = createEnginePool({ threads: 1, threadMaxMemoryMb: 1024, asr: {}, log: pino({ level: 'silent' }) });
    const servers: Server[] = [];
    try {
      const mp3 = await file('talk.mp3', await speech('mp3'));
      const summary = await own.runModel(TemplateType.Transcripts, threadModelInput(mp3, 'audio', dir, { mimeType: 'audio/mpeg', templateType: TemplateType.Transcripts }), recordingHost().host);
      expect(summary).toMatchObject({ kind: 'transcript', items: expect.any(Array) });
      // The lowest free numbers go to the new servers, the pipe's among them.
      for (let i = 0; i < 20; i++) {
        const server = createServer((_req, res) => res.end('up'));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        servers.push(server);
      }
      await own.close();
      for (const server of servers) {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        expect(await res.text()).toBe('up');
      }
    } finally {
      await own.close();
      for (const server of servers) server.close();
    }
  });

  it('fail the task of a thread that runs out of memory, and go on with a new thread', async () => {
    // In a process of its own (starved-process.ts says why).
    const ran = await runStarvedScript<{ threadError: boolean; message: string | null; pageCountAfter: number }>('test/support/starved-engine-thread.ts');
    expect(ran.threadError).toBe(true);
    expect(ran.message).toMatch(/memory/i);
    expect(ran.pageCountAfter).toBe(10);
  });

  it('close between native calls: a pool closed while PP-OCR reads a receipt never aborts the process', async () => {
    // onnxruntime-node aborts the whole process when its thread ends inside an inference; so the
    // closes happen in a process of their own, several times at different moments of the reading.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/close-mid-inference.ts'], { cwd: repoRoot });
    expect(stdout).toContain('closed cleanly');
  });
});
