import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

const run = promisify(execFile);

/** A text PDF of `pages` pages of the given size in points, each saying which page it is. */
export async function numberedPagesPdf(pages: number, size: [number, number] = [595, 842]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i += 1) {
    const page = doc.addPage(size);
    page.drawText(`Page ${i} of the test document`, { x: 50, y: size[1] - 80, size: 18, font });
  }
  return Buffer.from(await doc.save());
}

export function pngOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png().toBuffer();
}

export async function multiPageTiff(pages: number): Promise<Buffer> {
  const frames = await Promise.all(Array.from({ length: pages }, () => pngOf(400, 300)));
  return sharp(frames, { join: { animated: true } }).tiff().toBuffer();
}

/** Speech (espeak-ng) encoded by ffmpeg as MP3, or as an MP4 with a video track. */
export async function speech(format: 'mp3' | 'mp4', text = 'hello world this is a test recording'): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'speech-'));
  const wav = path.join(dir, 'speech.wav');
  await run('espeak-ng', ['-w', wav, text]);
  const out = path.join(dir, `speech.${format}`);
  const args =
    format === 'mp3'
      ? ['-y', '-i', wav, '-codec:a', 'libmp3lame', out]
      : ['-y', '-f', 'lavfi', '-i', 'color=c=black:s=160x120:r=10', '-i', wav, '-shortest', '-c:v', 'libx264', '-c:a', 'aac', out];
  await run('ffmpeg', ['-loglevel', 'error', ...args]);
  return readFile(out);
}

/**
 * A WAV of `segments` tones of `toneSeconds` each, separated by `gapSeconds` of silence: a
 * recording whose only places to cut are known.
 */
export async function tonesWithGaps(segments: number, toneSeconds: number, gapSeconds: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tones-'));
  const out = path.join(dir, 'tones.wav');
  const pieces: string[] = [];
  for (let i = 0; i < segments; i += 1) {
    const piece = path.join(dir, `piece-${i}.wav`);
    // Tone, then silence padded after it (none after the last one).
    await run('sox', ['-n', '-r', '16000', '-c', '1', piece, 'synth', String(toneSeconds), 'sine', String(300 + 100 * i), 'vol', '0.5', 'pad', '0', i < segments - 1 ? String(gapSeconds) : '0']);
    pieces.push(piece);
  }
  await run('sox', [...pieces, out]);
  return readFile(out);
}
