import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../src/domain/enums.js';
import { createEnginePool, type EnginePool, type ModelHost } from '../src/pipeline/engine-pool.js';
import { threadModelInput } from './models/document-fixtures.js';
import { numberedPagesPdf } from './support/fixtures.js';

/**
 * An engine thread loads PP-OCR's ONNX sessions and the English word list only when a model reads
 * an image with PP-OCR, and lets both go once they have gone unused for the idle time.
 */
let dir: string;
let pool: EnginePool;
// Long enough that the check right after a receipt comes before the release even on a loaded
// machine; the release itself is waited for, not timed.
const IDLE_RELEASE_SECONDS = 8;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'engine-loads-'));
  pool = createEnginePool({ threads: 1, threadMaxMemoryMb: 1024, asr: {}, idleReleaseSeconds: IDLE_RELEASE_SECONDS, log: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

const host: ModelHost = { saveOutput: async () => 'outputs/none', storeChunks: async () => undefined, recordPagesRead: async () => undefined };

async function receiptImage(): Promise<string> {
  const lines = ['CORNER CAFE', 'ESPRESSO 2.40', 'CROISSANT 1.90', 'TOTAL 4.30'].map(
    (text, i) => `<text x="40" y="${70 + i * 44}" font-size="30" font-family="monospace">${text}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="280"><rect width="100%" height="100%" fill="white"/>${lines.join('')}</svg>`;
  const at = path.join(dir, 'receipt.png');
  await writeFile(at, await sharp(Buffer.from(svg)).png().toBuffer());
  return at;
}

describe('engine parts loaded on first use', () => {
  it('a thread that read a text PDF holds no PP-OCR sessions nor word list; a receipt loads them, idleness releases them', async () => {
    const pdf = path.join(dir, 'text.pdf');
    await writeFile(pdf, await numberedPagesPdf(3));
    const text = threadModelInput(pdf, 'pdf', dir, { mimeType: 'application/pdf', pages: [1, 2, 3] });
    expect(await pool.runModel(TemplateType.Layout, text, host)).toMatchObject({ kind: 'document', chunkCount: 3 });
    expect(await pool.engineLoads()).toEqual({ ppocrSessions: { loads: 0, releases: 0 }, englishWords: { loads: 0, releases: 0 } });

    const receipt = threadModelInput(await receiptImage(), 'image', dir, { templateType: TemplateType.Receipts, mimeType: 'image/png', pages: [1] });
    await pool.runModel(TemplateType.Receipts, receipt, host);
    expect(await pool.engineLoads()).toEqual({ ppocrSessions: { loads: 1, releases: 0 }, englishWords: { loads: 1, releases: 0 } });

    // Unused past the idle time: both let go; the next receipt loads them again.
    await expect
      .poll(() => pool.engineLoads(), { timeout: (IDLE_RELEASE_SECONDS + 30) * 1000, interval: 500 })
      .toEqual({ ppocrSessions: { loads: 1, releases: 1 }, englishWords: { loads: 1, releases: 1 } });
    await pool.runModel(TemplateType.Receipts, receipt, host);
    expect((await pool.engineLoads()).ppocrSessions).toEqual({ loads: 2, releases: 1 });
  });
});
