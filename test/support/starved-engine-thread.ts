/**
 * Run as its own process by engine-pool.test.ts: a layout model on ten pages in an engine thread
 * whose heap is too small for any model, then an inspection by a pool of ordinary threads.
 * Prints one JSON line: how the starved run failed and what the next pool read.
 *
 * Why a process of its own: Node ends a worker thread that reaches its heap limit only at the next
 * point where JavaScript can be interrupted, and aborts the whole process when the thread allocates
 * past its limit's allowance first (nodejs/node#47224). A thread starved this hard sometimes does
 * while it loads the engines; the test process must survive it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { TemplateType } from '../../src/domain/enums.js';
import { createEnginePool, EngineThreadError } from '../../src/pipeline/engine-pool.js';
import { threadModelInput } from '../models/document-fixtures.js';
import { numberedPagesPdf } from './fixtures.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'starved-engine-thread-'));
const pdf = path.join(dir, 'ten.pdf');
await writeFile(pdf, await numberedPagesPdf(10));
const host = { saveOutput: async () => 'outputs/none', storeChunks: async () => undefined };
const pages = Array.from({ length: 10 }, (_, i) => i + 1);

const starved = createEnginePool({ threads: 1, threadMaxMemoryMb: 8, asr: {}, log: pino({ level: 'silent' }) });
const input = threadModelInput(pdf, 'pdf', dir, { mimeType: 'application/pdf', pages });
const died = await starved.runModel(TemplateType.Layout, input, host as never).then(
  () => undefined,
  (err: unknown) => err as Error,
);
await starved.close();

const pool = createEnginePool({ threads: 1, threadMaxMemoryMb: 1024, asr: {}, log: pino({ level: 'silent' }) });
const after = await pool.inspectSource(pdf);
const pageCountAfter = 'pageCount' in after ? after.pageCount : null;
await pool.close();
await rm(dir, { recursive: true, force: true });

process.stdout.write(
  `${JSON.stringify({ threadError: died instanceof EngineThreadError, message: died?.message ?? null, pageCountAfter })}\n`,
);
