import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { ocrImage, type OcrResult } from '../../src/engines/ocr.js';

const execFileAsync = promisify(execFile);

export interface ScratchDir {
  readonly path: string;
  file(name: string): string;
}

/**
 * A temporary directory made before the calling suite's tests and removed after them. Call it at
 * the top of a describe block, before the suite's own beforeAll, which may then write into it.
 */
export function useScratchDir(): ScratchDir {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'engines-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return {
    get path() {
      return dir;
    },
    file: (name) => path.join(dir, name),
  };
}

/** Runs a system tool the fixtures are made with (espeak-ng, sox, ffmpeg). */
export async function tool(binary: string, args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync(binary, args);
  return stdout;
}

/** Text made safe to put inside an SVG/XML element. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Black serif text on white, one SVG <text> per line, rendered by sharp. The defaults give a page
 * as wide as A4 scanned at 300 dpi with 12 pt type.
 */
export function textImage(lines: readonly string[], { width = 2480, fontSize = 50, margin = 150 } = {}): Promise<Buffer> {
  const lineHeight = Math.round(fontSize * 1.6);
  const height = margin * 2 + lineHeight * lines.length;
  const texts = lines
    .map((line, i) => `<text x="${margin}" y="${margin + lineHeight * (i + 1)}">${escapeXml(line)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#fff"/>
    <g font-family="DejaVu Serif" font-size="${fontSize}" fill="#000">${texts}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Share of the expected words found in order in the recognized ones (longest common subsequence). */
export function wordAccuracy(expected: readonly string[], recognized: readonly string[]): number {
  let previous = new Array<number>(recognized.length + 1).fill(0);
  for (const word of expected) {
    const current = [0];
    recognized.forEach((candidate, j) => {
      current.push(word === candidate ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!));
    });
    previous = current;
  }
  return previous[recognized.length]! / expected.length;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so noisy fixtures are the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A paragraph of known words (invoice prose with numbers and punctuation) that the OCR tests render and read back. */
export const KNOWN_PARAGRAPH = [
  'The accountant reviews invoice number 2024/0117, issued on',
  '15 January 2024 by Northwind Supplies for consulting services.',
  'The subtotal is 1,250.00 EUR and the VAT amounts to 287.50 EUR,',
  'so the total due is 1,537.50 EUR, payable by bank transfer within',
  'thirty days of the invoice date to the account shown below.',
];
export const KNOWN_WORDS = KNOWN_PARAGRAPH.join(' ').split(' ');

/** OCR of an image, its time printed under `tag` so the cost per page of each engine shows in the test log. */
export async function timedOcr(tag: string, label: string, ...args: Parameters<typeof ocrImage>): Promise<OcrResult> {
  const started = performance.now();
  const result = await ocrImage(...args);
  console.log(`[${tag}] ${label}: ${((performance.now() - started) / 1000).toFixed(2)} s for ${result.width}x${result.height} px`);
  return result;
}
