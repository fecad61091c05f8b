import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineTimeoutError } from '../../src/engines/errors.js';
import { NoSpeechEngineError, RemoteAsrError, transcribe, type RecognizedWord } from '../../src/engines/asr.js';
import { probeMedia, toMonoWav16k } from '../../src/engines/media.js';
import { useScratchDir } from './fixtures.js';
import { PAUSE_SECONDS, SENTENCES, speak, wordErrorRate } from './speech-fixtures.js';

interface FakeAsrServer {
  url: string;
  requests: Array<{ path: string; authorization?: string; fields: Record<string, string[]>; fileBytes: number }>;
  /** What the next requests get. */
  answer: { status: number; body: unknown };
  close: () => Promise<void>;
}

async function requestBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stand-in for an OpenAI-compatible transcription server on loopback: records each multipart request. */
async function startFakeAsrServer(): Promise<FakeAsrServer> {
  const fake: Omit<FakeAsrServer, 'url' | 'close'> = { requests: [], answer: { status: 200, body: {} } };
  const server: Server = createServer(async (req, res) => {
    const form = await new Response(await requestBytes(req), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    const fields: Record<string, string[]> = {};
    let fileBytes = 0;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') (fields[name] ??= []).push(value);
      else fileBytes = value.size;
    }
    fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, fields, fileBytes });
    res.writeHead(fake.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(fake.answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

function expectTimingsInOrder(words: readonly RecognizedWord[], durationSeconds: number): void {
  let previousEnd = 0;
  for (const word of words) {
    expect(word.start).toBeGreaterThanOrEqual(previousEnd - 1e-9);
    expect(word.end).toBeGreaterThan(word.start);
    expect(word.end).toBeLessThanOrEqual(durationSeconds + 0.02);
    expect(word.confidence).toBeGreaterThanOrEqual(0);
    expect(word.confidence).toBeLessThanOrEqual(1);
    previousEnd = word.end;
  }
}

describe('speech to text', () => {
  const scratch = useScratchDir();
  let wav: string;
  let durationSeconds: number;

  beforeAll(async () => {
    await speak(scratch.file('spoken.wav'));
    wav = scratch.file('speech-16k.wav');
    await toMonoWav16k(scratch.file('spoken.wav'), wav);
    durationSeconds = (await probeMedia(wav)).durationSeconds;
  });

  it('recognizes synthesized English with pocketsphinx: WER measured, timings in order inside the audio', async () => {
    const words = await transcribe(wav, 'en-US', {});
    const reference = SENTENCES.join(' ').split(' ');
    const hypothesis = words.map((w) => w.text.toLowerCase());
    const wer = wordErrorRate(reference, hypothesis);
    console.log(`pocketsphinx WER on espeak-ng speech: ${(wer * 100).toFixed(1)}% (${reference.length} words)\n  heard: ${hypothesis.join(' ')}`);
    // pocketsphinx's generic en-US model on synthetic speech: far from perfect, far from noise.
    expect(wer).toBeLessThanOrEqual(0.4);
    expect(hypothesis).not.toContain('<sil>');
    expect(hypothesis.some((w) => /[<>[\]()]/.test(w))).toBe(false);
    expectTimingsInOrder(words, durationSeconds);
    // Speech starts after the lead-in pause.
    expect(words[0]!.start).toBeGreaterThan(PAUSE_SECONDS - 0.3);
  });

  it('fails with NoSpeechEngineError for another language when no ASR_URL is configured', async () => {
    const error = await transcribe(wav, 'fr-FR', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoSpeechEngineError);
    expect((error as Error).message).toMatch(/^no speech engine for fr-FR: pocketsphinx reads en-US only; set ASR_URL/);
  });

  describe('OpenAI-compatible endpoint', () => {
    let fake: FakeAsrServer;
    beforeAll(async () => {
      fake = await startFakeAsrServer();
    });
    afterAll(() => fake.close());

    it('uploads the audio as multipart with word timestamps and reads the word timings', async () => {
      fake.answer = {
        status: 200,
        body: {
          task: 'transcribe',
          language: 'french',
          duration: 4.2,
          text: 'Bonjour à tous.',
          words: [
            { word: ' Bonjour', start: 0.5, end: 1.1, probability: 0.93 },
            { word: ' à', start: 1.1, end: 1.3 },
            { word: ' tous.', start: 1.3, end: 1.9 },
          ],
          segments: [{ id: 0, start: 0.4, end: 2, text: ' Bonjour à tous.', avg_logprob: -0.2 }],
        },
      };
      const words = await transcribe(wav, 'fr-FR', { ASR_URL: `${fake.url}/v1/audio/transcriptions`, ASR_API_KEY: 'key-1' });
      expect(words).toEqual([
        { text: 'Bonjour', start: 0.5, end: 1.1, confidence: 0.93 },
        // No word probability: the segment's mean token probability, exp(avg_logprob).
        { text: 'à', start: 1.1, end: 1.3, confidence: expect.closeTo(Math.exp(-0.2), 6) },
        { text: 'tous.', start: 1.3, end: 1.9, confidence: expect.closeTo(Math.exp(-0.2), 6) },
      ]);
      const request = fake.requests.at(-1)!;
      expect(request.path).toBe('/v1/audio/transcriptions');
      expect(request.authorization).toBe('Bearer key-1');
      expect(request.fields).toMatchObject({
        model: ['whisper-1'],
        language: ['fr'],
        response_format: ['verbose_json'],
        'timestamp_granularities[]': expect.arrayContaining(['word']),
      });
      expect(request.fileBytes).toBe((await stat(wav)).size);
    });

    it('sends English to ASR_URL too when one is configured, with the model ASR_MODEL names', async () => {
      fake.answer = { status: 200, body: { words: [{ word: ' Meeting', start: 1.5, end: 2, probability: 0.9 }] } };
      const words = await transcribe(wav, 'en-US', { ASR_URL: fake.url, ASR_MODEL: 'Systran/faster-whisper-small' });
      expect(words.map((w) => w.text)).toEqual(['Meeting']);
      expect(fake.requests.at(-1)!.fields).toMatchObject({ model: ['Systran/faster-whisper-small'], language: ['en'] });
    });

    it("reads whisper.cpp's answer: word timings inside the segments, as tokens joined into words", async () => {
      // The shape of whisper.cpp's server (examples/server) for response_format=verbose_json: no
      // top-level words; each segment lists its tokens, a leading space starting a new word.
      fake.answer = {
        status: 200,
        body: {
          task: 'transcribe',
          language: 'english',
          duration: 4.2,
          text: ' The weather is nice, today.',
          segments: [
            {
              id: 0,
              text: ' The weather is nice,',
              start: 0.4,
              end: 2.1,
              tokens: [440, 5503, 318, 3621, 11],
              words: [
                { word: ' The', start: 0.4, end: 0.6, t_dtw: -1, probability: 0.98 },
                { word: ' wea', start: 0.6, end: 0.8, t_dtw: -1, probability: 0.7 },
                { word: 'ther', start: 0.8, end: 1.1, t_dtw: -1, probability: 0.95 },
                { word: ' is', start: 1.1, end: 1.3, t_dtw: -1, probability: 0.99 },
                { word: ' nice', start: 1.3, end: 1.9, t_dtw: -1, probability: 0.97 },
                { word: ',', start: 1.9, end: 2.1, t_dtw: -1, probability: 0.9 },
              ],
              temperature: 0,
              avg_logprob: -0.1,
              no_speech_prob: 0.01,
            },
            { id: 1, text: ' today.', start: 2.5, end: 3, tokens: [1909], words: [{ word: ' today.', start: 2.5, end: 3, t_dtw: -1, probability: 0.96 }], temperature: 0, avg_logprob: -0.05, no_speech_prob: 0.01 },
          ],
        },
      };
      const words = await transcribe(wav, 'en-US', { ASR_URL: `${fake.url}/v1/audio/transcriptions` });
      expect(words).toEqual([
        { text: 'The', start: 0.4, end: 0.6, confidence: 0.98 },
        { text: 'weather', start: 0.6, end: 1.1, confidence: 0.7 },
        { text: 'is', start: 1.1, end: 1.3, confidence: 0.99 },
        { text: 'nice,', start: 1.3, end: 2.1, confidence: 0.9 },
        { text: 'today.', start: 2.5, end: 3, confidence: 0.96 },
      ]);
    });

    it('accepts the server base URL in ASR_URL, with or without /v1', async () => {
      fake.answer = { status: 200, body: { words: [] } };
      for (const base of [fake.url, `${fake.url}/v1/`]) {
        await transcribe(wav, 'de-DE', { ASR_URL: base });
        expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/audio/transcriptions', authorization: undefined, fields: { language: ['de'] } });
      }
    });

    it('reports error answers, answers without word timings and an unreachable server as RemoteAsrError', async () => {
      fake.answer = { status: 500, body: { error: { message: 'model overloaded' } } };
      await expect(transcribe(wav, 'es-ES', { ASR_URL: fake.url })).rejects.toThrow(/answered 500: .*model overloaded/);
      fake.answer = { status: 200, body: { text: 'hola' } };
      await expect(transcribe(wav, 'es-ES', { ASR_URL: fake.url })).rejects.toThrow(/no word timings/);
      const closed = await startFakeAsrServer();
      await closed.close();
      const error = await transcribe(wav, 'es-ES', { ASR_URL: closed.url }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteAsrError);
      expect((error as Error).message).toMatch(/unreachable: .*ECONNREFUSED/);
    });

    it('gives up on an endpoint that does not answer in time', async () => {
      const silent = createServer(() => {}); // never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const asrUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
        await expect(transcribe(wav, 'pt-PT', { ASR_URL: asrUrl }, { timeoutMs: 300 })).rejects.toBeInstanceOf(EngineTimeoutError);
      } finally {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });
  });
});
