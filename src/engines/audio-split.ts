import type { Silence } from './media.js';
import { runMediaTool } from './media-tools.js';

/** A stretch of the recording, in seconds from its start. */
export interface AudioPart {
  start: number;
  end: number;
}

// ffmpeg's reported end of a silence that runs to the end of the file may differ from the probed
// duration by a few milliseconds.
const EDGE_TOLERANCE_SECONDS = 0.1;
const CUT_TIMEOUT_MS = 15 * 60_000;

/**
 * Where to split a recording into parts of at most `chunkMinutes` (splitChunkDurationMinutes,
 * read as a maximum, not a target): each part ends in the middle of the last detected silence that
 * begins inside its window (the part of a silence that runs past the limit does not count), or
 * at the limit itself when the window holds no silence, so no part is longer than the limit and
 * a cut falls in speech only when the speech runs on for the whole window. The parts cover the
 * recording in order without gaps or overlaps.
 */
export function planAudioSplit(durationSeconds: number, silences: readonly Silence[], chunkMinutes: number): AudioPart[] {
  const limitSeconds = chunkMinutes * 60;
  // A silence touching either end of the recording has no sound on one side: a cut there would
  // make a part of nothing but silence.
  const cuttable = silences
    .filter((s) => s.start > 0 && s.end > s.start && s.end < durationSeconds - EDGE_TOLERANCE_SECONDS)
    .sort((a, b) => a.start - b.start);
  const parts: AudioPart[] = [];
  let start = 0;
  let first = 0; // the first silence that begins after `start`
  while (durationSeconds - start > limitSeconds) {
    const limit = start + limitSeconds;
    let end = limit;
    for (let i = first; i < cuttable.length && cuttable[i]!.start < limit; i += 1) {
      const silence = cuttable[i]!;
      end = (silence.start + Math.min(silence.end, limit)) / 2;
    }
    parts.push({ start, end });
    start = end;
    while (first < cuttable.length && cuttable[first]!.start <= start) first += 1;
  }
  parts.push({ start, end: durationSeconds });
  return parts;
}

/**
 * Writes the first audio track between `start` and `end` (seconds) to `output`, re-encoded in
 * the format of the output's extension (e.g. .wav), so the cut is exact rather than at a packet
 * boundary.
 */
export async function cutAudio(input: string, start: number, end: number, output: string): Promise<void> {
  await runMediaTool(
    'ffmpeg',
    // The file: protocol keeps a path from being read as another protocol or an option.
    ['-nostdin', '-v', 'error', '-y', '-ss', String(start), '-to', String(end), '-i', `file:${input}`, '-map', '0:a:0', `file:${output}`],
    { timeoutMs: CUT_TIMEOUT_MS },
  );
}
