import type { Silence } from '../engines/media.js';
import { runProcess } from '../engines/process.js';

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
 * Where to split a recording into parts of about `chunkMinutes` (splitChunkDurationMinutes):
 * a part ends in the middle of the first detected silence at least `chunkMinutes` after its
 * start, so it may run longer, and no cut ever falls in speech. Without such a silence the
 * recording stays whole. The parts cover the recording without gaps or overlaps.
 */
export function planAudioSplit(durationSeconds: number, silences: readonly Silence[], chunkMinutes: number): AudioPart[] {
  const chunkSeconds = chunkMinutes * 60;
  const parts: AudioPart[] = [];
  let start = 0;
  for (const silence of [...silences].sort((a, b) => a.start - b.start)) {
    // A silence touching either end of the recording has no speech on one side: a cut there
    // would make a part of nothing but silence.
    if (silence.start <= 0 || silence.end >= durationSeconds - EDGE_TOLERANCE_SECONDS) continue;
    const cut = (silence.start + silence.end) / 2;
    if (cut - start < chunkSeconds) continue;
    parts.push({ start, end: cut });
    start = cut;
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
  await runProcess(
    'ffmpeg',
    // The file: protocol keeps a path from being read as another protocol or an option.
    ['-nostdin', '-v', 'error', '-y', '-ss', String(start), '-to', String(end), '-i', `file:${input}`, '-map', '0:a:0', `file:${output}`],
    { timeoutMs: CUT_TIMEOUT_MS },
  );
}
