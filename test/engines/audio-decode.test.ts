import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decodeAudio, PCM_BYTES_PER_SECOND, pcmOffset } from '../../src/engines/audio-decode.js';
import { MediaUnreadableError } from '../../src/engines/errors.js';
import { detectSilences, toMonoWav16k } from '../../src/engines/media.js';
import { tool, useScratchDir } from './fixtures.js';
import { speak } from './speech-fixtures.js';

async function collect(samples: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of samples) parts.push(part);
  return Buffer.concat(parts);
}

describe('decoding audio once for the recogniser and the silences', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  it('gives the samples and silences of a 16 kHz WAV conversion, read while decoding', async () => {
    await speak(file('spoken.wav'));
    // Stereo AAC at 44.1 kHz: the decode resamples and mixes down, as the WAV conversion does.
    await tool('ffmpeg', ['-v', 'error', '-i', file('spoken.wav'), '-ac', '2', '-ar', '44100', '-c:a', 'aac', file('spoken.m4a')]);
    await toMonoWav16k(file('spoken.m4a'), file('converted.wav'));
    const converted = await readFile(file('converted.wav'));
    const expectedSamples = converted.subarray(converted.indexOf('data') + 8);

    const audio = decodeAudio(file('spoken.m4a'), file('decoded.wav'));
    // Read from the start while the decode goes on, and a stretch of it after.
    const whole = await collect(audio.samples());
    const { durationSeconds, silences } = await audio.finished;
    expect(whole.equals(expectedSamples)).toBe(true);
    expect(durationSeconds).toBeCloseTo(expectedSamples.length / PCM_BYTES_PER_SECOND, 6);
    expect(silences).toEqual(await detectSilences(file('converted.wav')));
    expect(silences.length).toBeGreaterThan(0);
    const stretch = await collect(audio.samples(pcmOffset(1), pcmOffset(2.5)));
    expect(stretch.equals(expectedSamples.subarray(pcmOffset(1), pcmOffset(2.5)))).toBe(true);
    // The header is ffmpeg's own, ending at its data chunk.
    const header = await audio.header;
    expect(header.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(header.subarray(-8, -4).toString('ascii')).toBe('data');
  });

  it('fails its readers with MediaUnreadableError on a file that is not audio', async () => {
    await writeFile(file('broken.mp3'), Buffer.from('ID3 this is not audio at all'.repeat(50)));
    const audio = decodeAudio(file('broken.mp3'), file('broken.wav'));
    await expect(collect(audio.samples())).rejects.toBeInstanceOf(MediaUnreadableError);
    await expect(audio.finished).rejects.toBeInstanceOf(MediaUnreadableError);
  });
});
