import { z } from 'zod';
import { EngineFailedError, errorMessage, MediaUnreadableError } from './errors.js';
import { runMediaTool, type MediaTool } from './media-tools.js';
import type { RunResult } from './process.js';

export interface MediaInfo {
  durationSeconds: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffprobe's demuxer names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "wav". */
  format: string;
}

export interface Silence {
  start: number;
  end: number;
}

export interface SilenceOptions {
  /** Level below which audio counts as silence. */
  noiseDb?: number;
  /** Shortest quiet stretch reported. */
  minSeconds?: number;
  timeoutMs?: number;
}

// The part of `ffprobe -show_format -show_streams` JSON this module reads; ffprobe writes numbers as strings.
const probeOutput = z.object({
  format: z.object({ format_name: z.string(), duration: z.string().optional() }),
  streams: z.array(
    z.object({
      codec_type: z.string().optional(),
      duration: z.string().optional(),
      disposition: z.object({ attached_pic: z.number().optional() }).optional(),
    }),
  ),
});

/** What counts as silence unless told otherwise: the window planner's and the transcript items' breaks. */
export const DEFAULT_SILENCE = { noiseDb: -35, minSeconds: 0.5 };

const PROBE_TIMEOUT_MS = 30_000;
// Decoding a long recording takes a while; this bounds a stuck ffmpeg, not a slow one.
const DECODE_TIMEOUT_MS = 15 * 60_000;

/** Duration, streams and container of an audio or video file, via ffprobe. */
export async function probeMedia(path: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<MediaInfo> {
  const { stdout } = await runOnInput(
    'ffprobe',
    path,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', asFileUrl(path)],
    timeoutMs,
  );
  const parsed = probeOutput.safeParse(parseJson(stdout.toString('utf8')));
  if (!parsed.success) throw new MediaUnreadableError(`unexpected ffprobe output: ${parsed.error.message}`);
  const { format, streams } = parsed.data;
  const durationSeconds = [format.duration, ...streams.map((s) => s.duration)]
    .map(Number)
    .find((seconds) => Number.isFinite(seconds) && seconds > 0);
  if (durationSeconds === undefined) throw new MediaUnreadableError('media has no known duration');
  return {
    durationSeconds,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    // Cover art of an audio file is a one-frame "video" stream marked as an attached picture.
    hasVideo: streams.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1),
    format: format.format_name,
  };
}

/** Writes the first audio track as 16 kHz mono 16-bit PCM WAV, the input format of the speech recognizers. */
export async function toMonoWav16k(input: string, output: string, timeoutMs = DECODE_TIMEOUT_MS): Promise<void> {
  await runOnInput(
    'ffmpeg',
    input,
    ['-nostdin', '-v', 'error', '-y', '-i', asFileUrl(input), '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', asFileUrl(output)],
    timeoutMs,
  );
}

/**
 * Quiet stretches of the audio, in seconds from the start, via ffmpeg's silencedetect. ffmpeg 5+
 * closes a silence that lasts to the end of the input, so every start has an end.
 */
export async function detectSilences(path: string, options: SilenceOptions = {}): Promise<Silence[]> {
  const { noiseDb = DEFAULT_SILENCE.noiseDb, minSeconds = DEFAULT_SILENCE.minSeconds, timeoutMs = DECODE_TIMEOUT_MS } = options;
  const { stderr } = await runOnInput(
    'ffmpeg',
    path,
    ['-nostdin', '-hide_banner', '-nostats', '-i', asFileUrl(path), '-vn', '-af', `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`, '-f', 'null', '-'],
    timeoutMs,
  );
  return parseSilences(stderr);
}

/** The silences silencedetect reported in ffmpeg's log. */
export function parseSilences(stderr: string): Silence[] {
  const silences: Silence[] = [];
  let start: number | undefined;
  for (const [, event, seconds] of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    if (event === 'start') start = Math.max(0, Number(seconds));
    else if (start !== undefined) {
      silences.push({ start, end: Number(seconds) });
      start = undefined;
    }
  }
  return silences;
}

// The file: protocol keeps a path from ever being read as another ffmpeg protocol or an option.
function asFileUrl(path: string): string {
  return `file:${path}`;
}

/** Runs ffmpeg/ffprobe on `input`; their failures are about the input, reported without its path. */
async function runOnInput(tool: MediaTool, input: string, args: string[], timeoutMs: number): Promise<RunResult> {
  try {
    return await runMediaTool(tool, args, { timeoutMs });
  } catch (error) {
    if (!(error instanceof EngineFailedError)) throw error;
    const reason = error.stderr.replaceAll(asFileUrl(input), 'input').trim();
    throw new MediaUnreadableError(`unreadable media: ${reason}`, { cause: error });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MediaUnreadableError(`unexpected ffprobe output: ${errorMessage(error)}`);
  }
}
