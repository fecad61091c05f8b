import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../../../src/domain/enums.js';
import type { FileKind } from '../../../src/engines/file-type.js';
import { detectSilences } from '../../../src/engines/media.js';
import { ModelRejectedInputError, type ModelInput, type TranscriptResult } from '../../../src/models/model.js';
import { createTranscriptionModel } from '../../../src/models/transcription/transcription.js';
import { tool, useScratchDir } from '../../engines/fixtures.js';
import { SENTENCES, speak, wordErrorRate } from '../../engines/speech-fixtures.js';
import { threadModelInput } from '../document-fixtures.js';

function transcriptionInput(sourcePath: string, kind: FileKind, workDir: string, language?: string): ModelInput {
  return {
    ...threadModelInput(sourcePath, kind, workDir, { templateType: TemplateType.Transcripts, language }),
    saveOutput: async () => {
      throw new Error('the transcription model keeps no output files');
    },
  };
}

describe('transcription model', () => {
  const scratch = useScratchDir();
  const { file } = scratch;
  let video: string;
  let durationSeconds: number;

  beforeAll(async () => {
    await speak(file('spoken.wav'));
    durationSeconds = Number(await tool('soxi', ['-D', file('spoken.wav')]));
    // A video with the speech as its AAC sound track: the model takes the audio of any file.
    video = file('meeting.mp4');
    await tool('ffmpeg', [
      '-v', 'error', '-f', 'lavfi', '-i', 'color=c=navy:s=160x120:r=5', '-i', file('spoken.wav'),
      '-t', String(durationSeconds), '-c:v', 'libx264', '-c:a', 'aac', video,
    ]);
  });

  it('transcribes the speech of a video into one item per sentence, with timed words', async () => {
    const workDir = file('work-video');
    await mkdir(workDir);
    const result = (await createTranscriptionModel({})(transcriptionInput(video, 'video', workDir))) as TranscriptResult;

    expect(result.kind).toBe('transcript');
    expect(result.totalTimeInSeconds).toBeCloseTo(durationSeconds, 1);
    expect(result.speakers).toEqual([{ speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true }]);
    // The pauses between the sentences separate the items.
    expect(result.items).toHaveLength(SENTENCES.length);

    const silences = await detectSilences(video);
    let previousEnd = 0;
    for (const item of result.items) {
      expect(item.speakerId).toBe('speaker-1');
      expect(item.originalWords.length).toBeGreaterThan(0);
      expect(item.displayWords).toEqual(item.originalWords);
      expect(item.displayText).toBe(item.originalWords.map((w) => w.text).join(' '));
      expect(item.start).toBe(item.originalWords[0]!.offsetInSeconds);
      expect(item.duration).toBeCloseTo(item.end - item.start, 3);
      const meanConfidence = item.originalWords.reduce((sum, w) => sum + w.confidence, 0) / item.originalWords.length;
      expect(item.confidence).toBeCloseTo(meanConfidence, 9);
      // Absolute offsets, in order, inside the item and the recording, and no silence inside an item.
      for (const word of item.originalWords) {
        expect(word.offsetInSeconds).toBeGreaterThanOrEqual(previousEnd - 1e-6);
        expect(word.durationInSeconds).toBeGreaterThan(0);
        previousEnd = word.offsetInSeconds + word.durationInSeconds;
        expect(previousEnd).toBeLessThanOrEqual(item.end + 1e-6);
      }
      expect(item.end).toBeLessThanOrEqual(result.totalTimeInSeconds);
      expect(silences.some((s) => item.start < s.start && s.end < item.end)).toBe(false);
    }

    const heard = result.items.map((item) => item.displayText).join(' ');
    const wer = wordErrorRate(SENTENCES.join(' ').split(' '), heard.split(' '));
    console.log(`transcription model WER on espeak-ng speech in an mp4: ${(wer * 100).toFixed(1)}%\n  heard: ${heard}`);
    expect(wer).toBeLessThanOrEqual(0.4);
  });

  it('rejects a language without a speech engine, and files without sound', async () => {
    const workDir = file('work-rejected');
    await mkdir(workDir);
    const model = createTranscriptionModel({});
    const noEngine = await model(transcriptionInput(file('spoken.wav'), 'audio', workDir, 'fr-FR')).catch((e: unknown) => e);
    expect(noEngine).toBeInstanceOf(ModelRejectedInputError);
    expect((noEngine as Error).message).toMatch(/^no speech engine for fr-FR: pocketsphinx reads en-US only; set ASR_URL/);
    await expect(model(transcriptionInput(file('spoken.wav'), 'pdf', workDir))).rejects.toBeInstanceOf(ModelRejectedInputError);
  });

  describe('through an OpenAI-compatible endpoint', () => {
    let server: Server;
    let asrUrl: string;
    const uploads: number[] = [];

    beforeAll(async () => {
      // Answers every upload with one word one second into it.
      server = createServer((req, res) => {
        let bytes = 0;
        req.on('data', (chunk: Buffer) => (bytes += chunk.length));
        req.on('end', () => {
          uploads.push(bytes);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ words: [{ word: ' bonjour', start: 1, end: 1.5, probability: 0.8 }] }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      asrUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends a long recording in windows cut at silences and places the words at their time in the file', async () => {
      // 21 minutes: tones of 50 s between silences of 3 s.
      const recording = file('long.wav');
      await tool('ffmpeg', [
        '-v', 'error', '-f', 'lavfi', '-i', "aevalsrc='if(between(mod(t,53),1.5,51.5),0.5*sin(2*PI*440*t),0)':s=16000:d=1260",
        '-c:a', 'pcm_s16le', recording,
      ]);
      const workDir = file('work-long');
      await mkdir(workDir);
      const result = (await createTranscriptionModel({ ASR_URL: asrUrl })(transcriptionInput(recording, 'audio', workDir, 'fr-FR'))) as TranscriptResult;

      // Windows of at most 10 minutes, each cut in the middle of the last silence before its limit:
      // [0, 583], [583, 1166] and [1166, 1260].
      expect(uploads).toHaveLength(3);
      expect(result.items.map((item) => [item.start, item.end, item.displayText])).toEqual([
        [1, 1.5, 'bonjour'],
        [584, 584.5, 'bonjour'],
        [1167, 1167.5, 'bonjour'],
      ]);
      expect(result.totalTimeInSeconds).toBeCloseTo(1260, 1);
    });
  });
});
