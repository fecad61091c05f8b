import { createWriteStream } from 'node:fs';
import { access, constants, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { Config } from '../config.js';
import { wavHeader } from './audio-decode.js';
import { EngineError, EngineMissingError, EngineTimeoutError, errorMessage, UnsupportedLanguageError } from './errors.js';
import { openFifoFeed } from './fifo-feed.js';
import { findOnPath } from './find-on-path.js';
import { runProcess } from './process.js';

/** A recognized word; times in seconds from the start of the audio given to the recognizer. */
export interface RecognizedWord {
  text: string;
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
}

export type AsrConfig = Pick<Config, 'ASR_URL' | 'ASR_API_KEY'> & Partial<Pick<Config, 'ASR_MODEL'>>;

export interface TranscribeOptions {
  timeoutMs?: number;
}

/**
 * No speech engine for the language: no ASR_URL is configured, and pocketsphinx (en-US only) is
 * not installed or does not know it. Retrying cannot change that: the task fails at once.
 */
export class NoSpeechEngineError extends UnsupportedLanguageError {
  constructor(
    language: string,
    readonly remedy: string,
  ) {
    super(language);
    this.message = `no speech engine for ${language}: ${remedy}`;
  }
}

/** The OpenAI-compatible endpoint answered with an error, or not at all. */
export class RemoteAsrError extends EngineError {}

// The Debian pocketsphinx-en-us model, passed explicitly rather than relying on compiled-in defaults.
const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';
// pocketsphinx counts in frames of 10 ms (its default -frate 100).
const FRAME_SECONDS = 0.01;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** Sent as `model` unless ASR_MODEL names one: OpenAI's name, which whisper.cpp's server ignores. */
const DEFAULT_REMOTE_MODEL = 'whisper-1';

const POCKETSPHINX = 'pocketsphinx_continuous';
const POCKETSPHINX_LANGUAGE = 'en-us';

let pocketsphinxLookup: Promise<string | null> | undefined;

/**
/**
 * pocketsphinx_continuous, when it and its en-US model are installed; null otherwise. Looked up
 * once per thread.
 */
export function locatePocketsphinx(): Promise<string | null> {
  pocketsphinxLookup ??= (async () => {
    const binary = await findOnPath(POCKETSPHINX);
    if (!binary) return null;
    try {
      await access(POCKETSPHINX_MODEL, constants.R_OK);
      return binary;
    } catch {
      return null;
    }
  })();
  return pocketsphinxLookup;
}

export type SpeechEngine = 'pocketsphinx' | 'remote';

/**
 * The engine that recognizes `language`: the OpenAI-compatible endpoint of ASR_URL for every
 * language when one is configured (a Whisper-class model reads English far better than
 * pocketsphinx), else pocketsphinx for en-US where it is installed; NoSpeechEngineError, saying
 * what to install or set, when neither can.
 */
export async function speechEngineFor(language: string, config: AsrConfig): Promise<SpeechEngine> {
  if (config.ASR_URL) return 'remote';
  const english = language.toLowerCase() === POCKETSPHINX_LANGUAGE;
  if (english && (await locatePocketsphinx())) return 'pocketsphinx';
  throw new NoSpeechEngineError(
    language,
    english
      ? 'pocketsphinx is not installed (install pocketsphinx with its en-US model, e.g. the pocketsphinx and pocketsphinx-en-us packages) and ASR_URL (an OpenAI-compatible transcription endpoint) is not set'
      : 'pocketsphinx reads en-US only; set ASR_URL to an OpenAI-compatible transcription endpoint that knows this language',
  );
}

/**
 * Words of a 16 kHz mono WAV, from the engine of the language (speechEngineFor);
 * NoSpeechEngineError when there is none.
 */
export async function transcribe(wavPath: string, language: string, config: AsrConfig, options: TranscribeOptions = {}): Promise<RecognizedWord[]> {
  if ((await speechEngineFor(language, config)) === 'pocketsphinx') return recognizeWithPocketsphinx({ wavPath }, options);
  return recognizeRemotely(new Blob([await readFile(wavPath)], { type: 'audio/wav' }), language, remoteEndpoint(config), options);
}

/** A WAV as it is decoded (audio-decode.ts): the header ffmpeg wrote, then 16 kHz mono 16-bit samples. */
export interface StreamedWav {
  header: Uint8Array;
  samples: AsyncIterable<Uint8Array>;
}

/**
 * Words of a WAV while it is decoded, from the engine of the language: pocketsphinx reads it as it
 * comes, a remote endpoint gets it whole once it has all come. A failure of the samples' stream
 * fails the recognition.
 */
export async function transcribeStreamedWav(wav: StreamedWav, language: string, config: AsrConfig, options: TranscribeOptions = {}): Promise<RecognizedWord[]> {
  if ((await speechEngineFor(language, config)) === 'pocketsphinx') return recognizeWithPocketsphinx(wav, options);
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for await (const part of wav.samples) {
    parts.push(part);
    bytes += part.length;
  }
  // A header of the known sizes: the streamed one leaves them open.
  return recognizeRemotely(new Blob([wavHeader(bytes), ...parts], { type: 'audio/wav' }), language, remoteEndpoint(config), options);
}

function remoteEndpoint(config: AsrConfig): RemoteAsrEndpoint {
  return { url: config.ASR_URL!, apiKey: config.ASR_API_KEY, model: config.ASR_MODEL ?? DEFAULT_REMOTE_MODEL };
}

async function recognizeWithPocketsphinx(audio: { wavPath: string } | StreamedWav, options: TranscribeOptions = {}): Promise<RecognizedWord[]> {
  if ('wavPath' in audio) return parsePocketsphinxTimes(await runPocketsphinx(audio.wavPath, options));
  // Named .wav, the pipe is read as a WAV file is: pocketsphinx skips 44 bytes of header and reads
  // the rest as samples, ffmpeg's LIST chunk included (as it always has from ffmpeg's files).
  const fifo = await openFifoFeed('audio.wav').catch((error: unknown) => {
    if (error instanceof EngineMissingError) return undefined;
    throw error;
  });
  if (!fifo) return recognizeFromFile(audio, options);
  const failed = new AbortController();
  try {
    const recognised = runPocketsphinx(fifo.path, { ...options, signal: failed.signal });
    const fed = fifo.feed(withHeader(audio)).catch((error: unknown) => failed.abort(error));
    const output = await recognised;
    // A reader that has ended no longer drains the pipe, and a feed waiting for room would wait
    // for ever: the pipe closes first, which ends the feed.
    await fifo.close();
    await fed;
    return parsePocketsphinxTimes(output);
  } finally {
    await fifo.close();
  }
}

/** Without mkfifo (coreutils): the WAV is written out whole, then read. */
async function recognizeFromFile(audio: StreamedWav, options: TranscribeOptions): Promise<RecognizedWord[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'asr-'));
  try {
    const wavPath = path.join(dir, 'audio.wav');
    await pipeline(Readable.from(withHeader(audio)), createWriteStream(wavPath));
    return parsePocketsphinxTimes(await runPocketsphinx(wavPath, options));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function* withHeader(wav: StreamedWav): AsyncIterable<Uint8Array> {
  yield wav.header;
  yield* wav.samples;
}

async function runPocketsphinx(infile: string, options: TranscribeOptions & { signal?: AbortSignal }): Promise<string> {
  const { stdout } = await runProcess(
    POCKETSPHINX,
    [
      '-infile', infile,
      '-time', 'yes',
      '-hmm', path.join(POCKETSPHINX_MODEL, 'en-us'),
      '-lm', path.join(POCKETSPHINX_MODEL, 'en-us.lm.bin'),
      '-dict', path.join(POCKETSPHINX_MODEL, 'cmudict-en-us.dict'),
    ],
    { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) },
  );
  return stdout.toString('utf8');
}

// `-time yes` prints each utterance's hypothesis, then one "word start end posterior" line per
// segment, times from the start of the file. Only the segment lines match this.
const SEGMENT_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?(?:e-?\d+)?)$/;
// Sentence marks, silences and noise models (<s>, </s>, <sil>, [NOISE], ++BREATH++) are not words.
const FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

function parsePocketsphinxTimes(output: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  for (const line of output.split('\n')) {
    const match = SEGMENT_LINE.exec(line.trim());
    if (!match || FILLER.test(match[1]!)) continue;
    words.push({
      // "the(2)" is the dictionary's second pronunciation of "the".
      text: match[1]!.replace(/\(\d+\)$/, ''),
      start: Number(match[2]),
      // The printed end is the word's last frame; the word lasts until that frame is over.
      end: Number(match[3]) + FRAME_SECONDS,
      confidence: Math.min(Math.max(Number(match[4]), 0), 1),
    });
  }
  return words;
}

interface RemoteAsrEndpoint {
  url: string;
  apiKey?: string;
  model: string;
}

const timedWord = z.object({ word: z.string(), start: z.number(), end: z.number(), probability: z.number().optional() });
type TimedWord = z.infer<typeof timedWord>;

/**
 * `verbose_json` of /v1/audio/transcriptions: words with times, probabilities where the server
 * gives them. OpenAI and faster-whisper servers list the words at the top level; whisper.cpp's
 * server lists them inside each segment, as the model's tokens (" Hel", "lo", ",").
 */
const verboseTranscription = z.object({
  words: z.array(timedWord).optional(),
  segments: z
    .array(z.object({ start: z.number(), end: z.number(), avg_logprob: z.number().optional(), words: z.array(timedWord).optional().nullable() }))
    .optional(),
});
type Segment = NonNullable<z.infer<typeof verboseTranscription>['segments']>[number];

async function recognizeRemotely(
  wav: Blob,
  language: string,
  endpoint: RemoteAsrEndpoint,
  options: TranscribeOptions = {},
): Promise<RecognizedWord[]> {
  const url = transcriptionEndpoint(endpoint.url);
  const form = new FormData();
  form.set('file', wav, 'audio.wav');
  form.set('model', endpoint.model);
  // The API takes ISO 639-1 codes: "fr", not "fr-FR".
  form.set('language', language.split(/[-_]/)[0]!.toLowerCase());
  form.set('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  // Segments carry avg_logprob: the confidence of servers that give no word probabilities.
  form.append('timestamp_granularities[]', 'segment');

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: form,
      headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await response.text();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new EngineTimeoutError(`transcription endpoint ${url.host}`, timeoutMs);
    throw new RemoteAsrError(`transcription endpoint ${url.host} unreachable: ${errorMessage((error as Error).cause ?? error)}`, { cause: error });
  }
  if (!response.ok) throw new RemoteAsrError(`transcription endpoint ${url.host} answered ${response.status}: ${body.slice(0, 300)}`);
  const parsed = verboseTranscription.safeParse(parseJson(body, url));
  if (!parsed.success) throw new RemoteAsrError(`unexpected answer of transcription endpoint ${url.host}: ${parsed.error.message}`);
  const { segments = [] } = parsed.data;
  const words = parsed.data.words ?? wordsOfSegments(segments);
  if (!words) throw new RemoteAsrError(`transcription endpoint ${url.host} returned no word timings`);
  return words
    .map((w) => ({
      text: w.word.trim(),
      start: w.start,
      end: Math.max(w.end, w.start),
      confidence: Math.min(Math.max(w.probability ?? segmentConfidence(segments, w.start, w.end), 0), 1),
    }))
    .filter((w) => w.text !== '');
}

/**
 * The words of whisper.cpp's segments, whose entries are tokens: a token opening with a space
 * starts a word, the others (the rest of a word, its punctuation) end the word before them. A
 * word's probability is its least sure token's. Undefined when no segment lists its words.
 */
function wordsOfSegments(segments: readonly Segment[]): TimedWord[] | undefined {
  if (!segments.some((segment) => segment.words)) return undefined;
  const words: TimedWord[] = [];
  for (const segment of segments) {
    let current: TimedWord | undefined;
    for (const token of segment.words ?? []) {
      if (current && !/^\s/.test(token.word)) {
        current.word += token.word;
        current.end = Math.max(current.end, token.end);
        if (token.probability !== undefined) current.probability = Math.min(current.probability ?? 1, token.probability);
        continue;
      }
      current = { ...token };
      words.push(current);
    }
  }
  return words;
}

/**
 * The transcription URL of ASR_URL, which may name the endpoint itself or the server's base
 * ("http://host:8000" or "http://host:8000/v1").
 */
function transcriptionEndpoint(asrUrl: string): URL {
  const url = new URL(asrUrl);
  const base = url.pathname.replace(/\/+$/, '');
  if (!base.endsWith('/audio/transcriptions')) url.pathname = `${base.endsWith('/v1') ? base : `${base}/v1`}/audio/transcriptions`;
  return url;
}

/**
 * exp(avg_logprob) of the segment holding the word: the mean token probability. A server that
 * reports neither gives 0, so reviewers treat the words as unverified rather than certain.
 */
function segmentConfidence(segments: Segment[], start: number, end: number): number {
  const middle = (start + end) / 2;
  const segment = segments.find((s) => s.start <= middle && middle <= s.end);
  return segment?.avg_logprob === undefined ? 0 : Math.exp(segment.avg_logprob);
}

function parseJson(text: string, url: URL): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RemoteAsrError(`transcription endpoint ${url.host} answered with something other than JSON: ${text.slice(0, 100)}`);
  }
}
