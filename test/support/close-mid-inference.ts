/**
 * Run as its own process by engine-pool-close.test.ts: starts receipt models on a scanned receipt
 * and closes the engine pool while PP-OCR is still reading it, several times at different moments.
 * Prints "closed cleanly" when the process survived every close.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import sharp from 'sharp';
import { TemplateType } from '../../src/domain/enums.js';
import { createEnginePool } from '../../src/pipeline/engine-pool.js';
import { threadModelInput } from '../models/document-fixtures.js';

const lines = Array.from({ length: 40 }, (_, i) => `<text x="40" y="${60 + i * 36}" font-size="26" font-family="monospace">ITEM ${i + 1} COFFEE BEANS ${(i * 1.37 + 2).toFixed(2)}</text>`);
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${120 + lines.length * 36}"><rect width="100%" height="100%" fill="white"/>${lines.join('')}</svg>`;
const dir = await mkdtemp(path.join(os.tmpdir(), 'close-mid-inference-'));
const image = path.join(dir, 'receipt.png');
await writeFile(image, await sharp(Buffer.from(svg)).png().toBuffer());
const host = { saveOutput: async () => 'outputs/none', storeChunks: async () => undefined };

for (const delayMs of [300, 700, 1100, 1500, 1900, 2300]) {
  const pool = createEnginePool({ threads: 1, threadMaxMemoryMb: 2048, asr: {}, log: pino({ level: 'silent' }) });
  const input = threadModelInput(image, 'image', dir, { templateType: TemplateType.Receipts, mimeType: 'image/png', pages: [1] });
  const running = pool.runModel(TemplateType.Receipts, input, host as never).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  await pool.close();
  await running;
}
await rm(dir, { recursive: true, force: true });
process.stdout.write('closed cleanly\n');
