import { beforeAll, describe, expect, it } from 'vitest';
import { detectSilences, probeMedia } from '../../src/engines/media.js';
import { cutAudio, planAudioSplit } from '../../src/pipeline/audio-split.js';
import { tool, useScratchDir } from '../engines/fixtures.js';

const silence = (start: number, end: number) => ({ start, end });

describe('planAudioSplit', () => {
  it('keeps a recording without silences, or shorter than a part, whole', () => {
    expect(planAudioSplit(1800, [], 10)).toEqual([{ start: 0, end: 1800 }]);
    expect(planAudioSplit(500, [silence(100, 102), silence(300, 301)], 10)).toEqual([{ start: 0, end: 500 }]);
  });

  it('cuts in the middle of the first silence at least a part long after the part start', () => {
    const silences = [silence(300, 302), silence(598, 599), silence(640, 644), silence(1000, 1001), silence(1300, 1304)];
    expect(planAudioSplit(1500, silences, 10)).toEqual([
      { start: 0, end: 642 },
      { start: 642, end: 1302 },
      { start: 1302, end: 1500 },
    ]);
  });

  it('lets a part run longer when speech goes on, and never cuts outside a silence', () => {
    const parts = planAudioSplit(3000, [silence(100, 101), silence(2500, 2501.5)], 10);
    expect(parts).toEqual([
      { start: 0, end: 2500.75 },
      { start: 2500.75, end: 3000 },
    ]);
  });

  it('does not cut in silences at either end of the recording', () => {
    expect(planAudioSplit(1200, [silence(0, 700), silence(1150, 1200)], 10)).toEqual([{ start: 0, end: 1200 }]);
    expect(planAudioSplit(1200, [silence(1100, 1199.95)], 1)).toEqual([{ start: 0, end: 1200 }]);
  });

  it('takes the silences in time order whatever order they come in', () => {
    expect(planAudioSplit(200, [silence(150, 151), silence(70, 71)], 1)).toEqual([
      { start: 0, end: 70.5 },
      { start: 70.5, end: 150.5 },
      { start: 150.5, end: 200 },
    ]);
  });
});

describe('splitting a 25-minute recording at silences', () => {
  const { file } = useScratchDir();
  // Tones of 50 s between silences of 3 s (1.5 s of silence at either end of the file).
  const PERIOD = 53;
  const DURATION = 28 * PERIOD + 1;
  let recording: string;

  beforeAll(async () => {
    recording = file('recording.wav');
    await tool('ffmpeg', [
      '-v', 'error', '-f', 'lavfi',
      '-i', `aevalsrc='if(between(mod(t,${PERIOD}),1.5,51.5),0.5*sin(2*PI*440*t),0)':s=16000:d=${DURATION}`,
      '-c:a', 'pcm_s16le', recording,
    ]);
  });

  it('yields parts of at least 10 minutes that each start and end at a detected silence', async () => {
    const { durationSeconds } = await probeMedia(recording);
    expect(durationSeconds).toBeCloseTo(DURATION, 1);
    const silences = await detectSilences(recording);
    expect(silences.length).toBe(29);
    const parts = planAudioSplit(durationSeconds, silences, 10);
    expect(parts.length).toBe(3);
    expect(parts[0]!.start).toBe(0);
    expect(parts.at(-1)!.end).toBe(durationSeconds);

    for (const [index, part] of parts.entries()) {
      if (index < parts.length - 1) {
        expect(part.end - part.start).toBeGreaterThanOrEqual(600);
        // The cut is inside a detected silence of the whole recording.
        expect(silences.some((s) => s.start < part.end && part.end < s.end)).toBe(true);
      }
      const partFile = file(`part-${index + 1}.wav`);
      await cutAudio(recording, part.start, part.end, partFile);
      const partSeconds = (await probeMedia(partFile)).durationSeconds;
      expect(partSeconds).toBeCloseTo(part.end - part.start, 1);
      // Detected again in the part itself: quiet at its very start and at its very end.
      const quiet = await detectSilences(partFile);
      expect(quiet[0]!.start).toBeCloseTo(0, 1);
      expect(quiet.at(-1)!.end).toBeCloseTo(partSeconds, 1);
    }
  });
});
