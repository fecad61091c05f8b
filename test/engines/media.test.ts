import { writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { MediaUnreadableError } from '../../src/engines/errors.js';
import { detectSilences, probeMedia, toMonoWav16k } from '../../src/engines/media.js';
import { useScratchDir, tool } from './fixtures.js';

const PAUSE_SECONDS = 2;

describe('media engine', () => {
  const scratch = useScratchDir();
  let speech: string;
  let video: string;
  let firstSentenceSeconds: number;
  let speechSeconds: number;
  const { file } = scratch;
  const soxSeconds = async (wav: string) => Number(await tool('soxi', ['-D', wav]));

  beforeAll(async () => {
    // Two spoken sentences with a generated pause between them (espeak-ng speaks 22.05 kHz mono).
    await tool('espeak-ng', ['-w', file('first.wav'), 'The first sentence is about invoices and receipts.']);
    await tool('espeak-ng', ['-w', file('second.wav'), 'The second sentence comes after a pause.']);
    await tool('sox', ['-n', '-r', '22050', '-c', '1', '-b', '16', file('pause.wav'), 'trim', '0', String(PAUSE_SECONDS)]);
    speech = file('speech.wav');
    await tool('sox', [file('first.wav'), file('pause.wav'), file('second.wav'), speech]);
    firstSentenceSeconds = await soxSeconds(file('first.wav'));
    speechSeconds = await soxSeconds(speech);
    video = file('speech.mp4');
    await tool('ffmpeg', [
      '-v', 'error', '-f', 'lavfi', '-i', 'color=c=navy:s=320x240:r=10', '-i', speech,
      '-t', String(speechSeconds), '-c:v', 'libx264', '-c:a', 'aac', video,
    ]);
  });

  it('probes an audio file', async () => {
    const info = await probeMedia(speech);
    expect(info).toMatchObject({ hasAudio: true, hasVideo: false, format: 'wav' });
    expect(info.durationSeconds).toBeCloseTo(speechSeconds, 2);
  });

  it('probes a video with sound', async () => {
    const info = await probeMedia(video);
    expect(info).toMatchObject({ hasAudio: true, hasVideo: true });
    expect(info.format).toContain('mp4');
    expect(Math.abs(info.durationSeconds - speechSeconds)).toBeLessThan(0.2);
  });

  it('does not count the cover picture of an audio file as video', async () => {
    const cover = file('cover.png');
    const song = file('speech.mp3');
    await tool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=red:s=64x64', '-frames:v', '1', cover]);
    await tool('ffmpeg', [
      '-v', 'error', '-i', speech, '-i', cover, '-map', '0', '-map', '1',
      '-c:a', 'libmp3lame', '-c:v', 'png', '-disposition:v', 'attached_pic', song,
    ]);
    expect(await probeMedia(song)).toMatchObject({ hasAudio: true, hasVideo: false, format: 'mp3' });
  });

  it('extracts the sound of a video as 16 kHz mono 16-bit WAV', async () => {
    const wav = file('from-video.wav');
    await toMonoWav16k(video, wav);
    expect(await probeMedia(wav)).toMatchObject({ hasAudio: true, hasVideo: false, format: 'wav' });
    expect((await tool('soxi', ['-r', wav])).trim()).toBe('16000');
    expect((await tool('soxi', ['-c', wav])).trim()).toBe('1');
    expect((await tool('soxi', ['-b', wav])).trim()).toBe('16');
    expect(Math.abs((await soxSeconds(wav)) - speechSeconds)).toBeLessThan(0.2);
  });

  it('finds the pause between the sentences, in the audio and in the video', async () => {
    for (const input of [speech, video]) {
      const silences = await detectSilences(input);
      expect(silences).toHaveLength(1);
      const [pause] = silences;
      // espeak-ng ends each sentence with a short quiet tail, which joins the generated pause.
      expect(pause!.start).toBeGreaterThan(firstSentenceSeconds - 0.6);
      expect(pause!.start).toBeLessThanOrEqual(firstSentenceSeconds + 0.05);
      expect(pause!.end).toBeGreaterThanOrEqual(firstSentenceSeconds + PAUSE_SECONDS - 0.05);
      expect(pause!.end).toBeLessThan(firstSentenceSeconds + PAUSE_SECONDS + 0.3);
    }
  });

  it('closes a silence that lasts to the end of the input', async () => {
    const trailing = file('trailing.wav');
    await tool('sox', [file('first.wav'), file('pause.wav'), trailing]);
    const silences = await detectSilences(trailing);
    expect(silences).toHaveLength(1);
    expect(silences[0]!.end).toBeCloseTo(firstSentenceSeconds + PAUSE_SECONDS, 2);
  });

  it('honours the silence threshold and minimum length', async () => {
    expect(await detectSilences(speech, { minSeconds: PAUSE_SECONDS + 1 })).toEqual([]);
    const short = await detectSilences(speech, { minSeconds: 0.1 });
    expect(short.length).toBeGreaterThan(1);
    // At -10 dB quiet speech itself counts as silence, so stretches merge into longer ones.
    const loose = await detectSilences(speech, { noiseDb: -10, minSeconds: 0.1 });
    const total = (list: typeof loose) => list.reduce((sum, s) => sum + s.end - s.start, 0);
    expect(total(loose)).toBeGreaterThan(total(short));
  });

  it('throws MediaUnreadableError for corrupt media, without the file path', async () => {
    const corrupt = file('corrupt.mp4');
    await writeFile(corrupt, Buffer.alloc(8192, 0x3c));
    const attempts = [() => probeMedia(corrupt), () => detectSilences(corrupt), () => toMonoWav16k(corrupt, file('out.wav'))];
    for (const attempt of attempts) {
      const error = await attempt().then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(MediaUnreadableError);
      expect((error as Error).message).not.toContain(scratch.path);
    }
  });
});
