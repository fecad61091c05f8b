import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectSilences, probeMedia } from '../../src/engines/media.js';
import { cutAudio, planAudioSplit, type AudioPart } from '../../src/engines/audio-split.js';
import { tool, useScratchDir } from '../engines/fixtures.js';

const silence = (start: number, end: number) => ({ start, end });
const lengths = (parts: AudioPart[]) => parts.map((p) => p.end - p.start);

// splitChunkDurationMinutes is the longest a part may be, not the shortest (cut at the first
// silence after it), as it once was.
describe('planAudioSplit', () => {
  it('keeps a recording no longer than a part whole', () => {
    expect(planAudioSplit(500, [silence(100, 102), silence(300, 301)], 10)).toEqual([{ start: 0, end: 500 }]);
    expect(planAudioSplit(600, [silence(100, 102)], 10)).toEqual([{ start: 0, end: 600 }]);
    expect(planAudioSplit(0, [], 1)).toEqual([{ start: 0, end: 0 }]);
  });

  it('cuts in the middle of the last silence before the limit', () => {
    const silences = [silence(300, 302), silence(598, 599), silence(640, 644), silence(1000, 1001), silence(1300, 1304)];
    expect(planAudioSplit(1900, silences, 10)).toEqual([
      { start: 0, end: 598.5 },
      { start: 598.5, end: 1000.5 },
      { start: 1000.5, end: 1302 },
      { start: 1302, end: 1900 },
    ]);
  });

  it('cuts at the limit itself when the window holds no silence', () => {
    expect(planAudioSplit(1800, [], 10)).toEqual([
      { start: 0, end: 600 },
      { start: 600, end: 1200 },
      { start: 1200, end: 1800 },
    ]);
    expect(planAudioSplit(130, [], 1)).toEqual([
      { start: 0, end: 60 },
      { start: 60, end: 120 },
      { start: 120, end: 130 },
    ]);
  });

  it('ignores silences after the limit until the part that reaches them', () => {
    // The only silence comes after the first window: a hard cut at 60, then the silence.
    expect(planAudioSplit(200, [silence(100, 104)], 1)).toEqual([
      { start: 0, end: 60 },
      { start: 60, end: 102 },
      { start: 102, end: 162 },
      { start: 162, end: 200 },
    ]);
  });

  it('uses only the part of a silence that lies before the limit', () => {
    // The silence runs from 50 to 80 s: its middle (65 s) is past the limit, 55 s is not.
    expect(planAudioSplit(100, [silence(50, 80)], 1)).toEqual([
      { start: 0, end: 55 },
      { start: 55, end: 100 },
    ]);
  });

  it('never cuts in a silence that touches either end of the recording', () => {
    expect(planAudioSplit(100, [silence(0, 30), silence(70, 100)], 1)).toEqual([
      { start: 0, end: 60 },
      { start: 60, end: 100 },
    ]);
    // ffmpeg may end a closing silence a few milliseconds before the probed duration.
    expect(planAudioSplit(100, [silence(30, 99.95)], 1)).toEqual([
      { start: 0, end: 60 },
      { start: 60, end: 100 },
    ]);
  });

  it('takes the silences in time order whatever order they come in', () => {
    expect(planAudioSplit(200, [silence(150, 151), silence(40, 41), silence(70, 71)], 1)).toEqual([
      { start: 0, end: 40.5 },
      { start: 40.5, end: 70.5 },
      { start: 70.5, end: 130.5 },
      { start: 130.5, end: 150.5 },
      { start: 150.5, end: 200 },
    ]);
  });

  it('splits a ten-hour recording with a pause every 7 seconds into parts of just under 10 minutes', () => {
    const duration = 10 * 3600;
    const silences = Array.from({ length: Math.floor(duration / 7) - 1 }, (_, i) => silence(7 * (i + 1), 7 * (i + 1) + 1));
    const parts = planAudioSplit(duration, silences, 10);
    expect(parts).toHaveLength(61);
    expect(Math.max(...lengths(parts))).toBeLessThanOrEqual(600);
    // Every cut but the last part's end is in the middle of a pause.
    for (const part of parts.slice(0, -1)) expect((part.end - 7.5) % 7).toBe(0);
  });

  it('covers the recording without gaps or overlaps, with no part longer than the limit and every cut in a silence or at a limit', () => {
    const recording = fc
      .record({
        duration: fc.double({ min: 0, max: 20_000, noNaN: true }),
        minutes: fc.integer({ min: 1, max: 30 }),
        spans: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0.01, max: 60, noNaN: true })), { maxLength: 200 }),
      })
      .map(({ duration, minutes, spans }) => ({
        duration,
        minutes,
        silences: spans.map(([at, length]) => silence(at * duration, Math.min(duration, at * duration + length))),
      }));
    fc.assert(
      fc.property(recording, ({ duration, minutes, silences }) => {
        const parts = planAudioSplit(duration, silences, minutes);
        expect(parts[0]!.start).toBe(0);
        expect(parts.at(-1)!.end).toBe(duration);
        for (const [i, part] of parts.entries()) {
          if (i > 0) expect(part.start).toBe(parts[i - 1]!.end);
          // start + limit - start may differ from the limit in its last bit.
          expect(part.end - part.start).toBeLessThanOrEqual(minutes * 60 + 1e-9);
          if (i < parts.length - 1) {
            expect(part.end).toBeGreaterThan(part.start);
            const inSilence = silences.some((s) => s.start < part.end && part.end <= s.end);
            expect(inSilence || part.end === part.start + minutes * 60, `cut at ${part.end}`).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
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

  it('yields parts of at most 10 minutes that each start and end at a detected silence', async () => {
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
        expect(part.end - part.start).toBeLessThanOrEqual(600);
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
