import { spawn } from 'node:child_process';
import { open, type FileHandle } from 'node:fs/promises';
import { EngineFailedError, EngineMissingError, EngineTimeoutError, MediaUnreadableError } from './errors.js';
import { DEFAULT_SILENCE, parseSilences, type Silence, type SilenceOptions } from './media.js';
import { locateMediaTool, MEDIA_TOOL_REMEDY } from './media-tools.js';

/** The speech recognisers' input: 16 kHz mono signed 16-bit little-endian samples, no header. */
export const PCM_SAMPLE_RATE = 16_000;
export const PCM_BYTES_PER_SECOND = PCM_SAMPLE_RATE * 2;

/** The byte of the samples that starts at `seconds` (on a sample boundary). */
export function pcmOffset(seconds: number): number {
  return Math.round(seconds * PCM_SAMPLE_RATE) * 2;
}

export interface DecodedAudio {
  /**
   * The WAV header ffmpeg wrote before the samples (its sizes unknown while it streams): what
   * pocketsphinx is given before them, as it was given ffmpeg's WAV file.
   */
  header: Promise<Buffer>;
  /**
   * The samples between bytes `from` and `to` (the end of the audio if absent) as the decode
   * writes them: reading runs behind the decode while it goes on, and throws its failure.
   */
  samples: (from?: number, to?: number) => AsyncIterable<Buffer>;
  /** The whole audio decoded: its duration and its silences (the same as detectSilences finds). */
  finished: Promise<{ durationSeconds: number; silences: Silence[] }>;
  /** Ends the decode early (a reader that no longer needs it); `finished` then rejects. */
  stop: () => void;
}

const READ_BYTES = 64 * 1024;
// Decoding a long recording takes a while; this bounds a stuck ffmpeg, not a slow one.
const DECODE_TIMEOUT_MS = 15 * 60_000;

/**
 * Decodes the first audio track of `input` once, with ffmpeg, into the WAV file `wavPath`
 * (PCM_BYTES_PER_SECOND bytes a second after its header), finding its silences on the way
 * (silencedetect on the decoded samples, as detectSilences does on a WAV of them): the recogniser
 * reads the samples while they are decoded and the window planner gets the silences from the same
 * pass. The file, not memory, holds what a slower reader has not read yet.
 */
export function decodeAudio(input: string, wavPath: string, options: SilenceOptions = {}): DecodedAudio {
  const { noiseDb = DEFAULT_SILENCE.noiseDb, minSeconds = DEFAULT_SILENCE.minSeconds, timeoutMs = DECODE_TIMEOUT_MS } = options;
  let written = 0;
  /** Where the samples start in the file, once ffmpeg has written its header. */
  let dataStart: number | undefined;
  let headerRead: ((header: Buffer) => void) | undefined;
  let headerFailed: ((error: Error) => void) | undefined;
  const header = new Promise<Buffer>((resolve, reject) => {
    headerRead = resolve;
    headerFailed = reject;
  });
  header.catch(() => {}); // the failure is `finished`'s too
  let failure: Error | undefined;
  let done = false;
  const waiting = new Set<() => void>();
  const progress = () => {
    for (const wake of waiting) wake();
    waiting.clear();
  };
  const nextProgress = () => new Promise<void>((resolve) => waiting.add(resolve));
  let child: ReturnType<typeof spawn> | undefined;
  let stopped = false;

  const run = async (file: FileHandle): Promise<{ durationSeconds: number; silences: Silence[] }> => {
    const binary = await locateMediaTool('ffmpeg');
    if (!binary) throw new EngineMissingError('ffmpeg', MEDIA_TOOL_REMEDY.ffmpeg);
    if (stopped) throw new Error('the decode was stopped');
    const format = `aformat=sample_fmts=s16:sample_rates=${PCM_SAMPLE_RATE}:channel_layouts=mono`;
    const args = ['-nostdin', '-hide_banner', '-nostats', '-i', `file:${input}`, '-vn', '-af', `${format},silencedetect=noise=${noiseDb}dB:d=${minSeconds}`, '-f', 'wav', 'pipe:1'];
    const ffmpeg = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = ffmpeg;
    const stderr: Buffer[] = [];
    ffmpeg.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    ffmpeg.stderr.on('error', () => {});
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ffmpeg.kill('SIGKILL');
    }, timeoutMs);
    const exited = new Promise<number | null>((resolve, reject) => {
      ffmpeg.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new EngineMissingError('ffmpeg', MEDIA_TOOL_REMEDY.ffmpeg) : error));
      ffmpeg.on('close', resolve);
    });
    exited.catch(() => {}); // awaited below, after the output is read
    let start: Buffer[] = [];
    try {
      for await (const chunk of ffmpeg.stdout as AsyncIterable<Buffer>) {
        await file.write(chunk, 0, chunk.length, written);
        written += chunk.length;
        if (dataStart === undefined) {
          start.push(chunk);
          const head = Buffer.concat(start);
          dataStart = wavDataOffset(head);
          if (dataStart !== undefined) {
            headerRead?.(head.subarray(0, dataStart));
            start = [];
          }
        }
        progress();
      }
      const code = await exited;
      const text = Buffer.concat(stderr).toString('utf8');
      if (timedOut) throw new EngineTimeoutError('ffmpeg', timeoutMs);
      if (stopped) throw new Error('the decode was stopped');
      if (code !== 0) {
        const reason = text.replaceAll(`file:${input}`, 'input').trim().split('\n').slice(-5).join('\n');
        throw new MediaUnreadableError(`unreadable media: ${reason}`, { cause: new EngineFailedError('ffmpeg', code, text) });
      }
      if (dataStart === undefined) throw new MediaUnreadableError('unreadable media: ffmpeg wrote no audio');
      return { durationSeconds: (written - dataStart) / PCM_BYTES_PER_SECOND, silences: parseSilences(text) };
    } finally {
      clearTimeout(timer);
    }
  };

  const created = open(wavPath, 'w+');
  const finished = created.then(async (file) => {
    try {
      return await run(file);
    } finally {
      await file.close();
    }
  });
  finished.then(
    () => {
      done = true;
      progress();
    },
    (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      headerFailed?.(failure);
      done = true;
      progress();
    },
  );

  async function* samples(from = 0, to = Infinity): AsyncIterable<Buffer> {
    await created;
    const file = await open(wavPath, 'r');
    try {
      while (dataStart === undefined && !failure && !done) await nextProgress();
      if (failure) throw failure;
      const base = dataStart ?? 0;
      let at = base + from;
      const end = base + to;
      while (at < end) {
        if (failure) throw failure;
        const available = Math.min(written, end) - at;
        if (available <= 0) {
          if (done) return;
          await nextProgress();
          continue;
        }
        const buffer = Buffer.alloc(Math.min(available, READ_BYTES));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, at);
        at += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await file.close();
    }
  }

  return {
    header,
    samples,
    finished,
    stop: () => {
      stopped = true;
      child?.kill('SIGKILL');
    },
  };
}

/** Where a WAV stream's samples start (after its `data` chunk's id and size), once `head` holds that far. */
function wavDataOffset(head: Buffer): number | undefined {
  let at = 12; // past RIFF, its size and WAVE
  while (at + 8 <= head.length) {
    if (head.toString('ascii', at, at + 4) === 'data') return at + 8;
    at += 8 + head.readUInt32LE(at + 4);
  }
  return undefined;
}

/** A WAV file's 44-byte header for `dataBytes` of the samples: what an upload of them starts with. */
export function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // the fmt chunk's size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(PCM_SAMPLE_RATE, 24);
  header.writeUInt32LE(PCM_BYTES_PER_SECOND, 28);
  header.writeUInt16LE(2, 32); // bytes a frame
  header.writeUInt16LE(16, 34); // bits a sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
