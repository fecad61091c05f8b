import path from 'node:path';
import { NoSpeechEngineError, speechEngineFor, transcribeStreamedWav, type AsrConfig, type RecognizedWord } from '../../engines/asr.js';
import { decodeAudio, pcmOffset, PCM_BYTES_PER_SECOND, type DecodedAudio } from '../../engines/audio-decode.js';
import type { Silence } from '../../engines/media.js';
import { planAudioSplit } from '../../engines/audio-split.js';
import { ModelRejectedInputError, type Model, type TranscriptItem, type TranscriptWord } from '../model.js';

const DEFAULT_LANGUAGE = 'en-US';
/** The one speaker the model reports: it does not tell voices apart. */
const DEFAULT_SPEAKER = { speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true };
/**
 * Longer recordings go to the recognizer in windows of at most this length, cut at the last
 * silence before it (at the limit itself in sound that never pauses): it bounds each run, and
 * 10 minutes of 16 kHz WAV (19 MB) stays under the 25 MB upload limit of OpenAI-compatible
 * endpoints.
 */
const WINDOW_MINUTES = 10;
/** A pause between two words that starts a new item even where noise hid it from silencedetect. */
const MIN_PAUSE_SECONDS = 0.5;
// Generous: pocketsphinx runs at about 0.3x real time on one core.
const RECOGNITION_TIMEOUT_PER_AUDIO_SECOND_MS = 3_000;
const MIN_RECOGNITION_TIMEOUT_MS = 60_000;
/** A window's bytes of samples (audio-decode.ts). */
const WINDOW_BYTES = WINDOW_MINUTES * 60 * PCM_BYTES_PER_SECOND;

/** The recording runs on past the first window: it is recognised window by window once decoded. */
class LongerThanAWindow extends Error {}

/**
 * The Transcripts model (DESIGN.md section 6): the audio track as 16 kHz mono, words with timings
 * and confidences from the speech engine of the language, grouped into one transcript item per
 * stretch of speech between silences, all attributed to the default speaker. The audio is decoded
 * once (audio-decode.ts): the recogniser reads the samples while they are decoded, and the
 * silences for the windows and the items come from the same pass.
 */
export function createTranscriptionModel(asr: AsrConfig): Model {
  return async (input) => {
    if (input.kind !== 'audio' && input.kind !== 'video') {
      throw new ModelRejectedInputError(`Transcription takes audio or video files, not ${input.kind}`);
    }
    const language = input.language ?? DEFAULT_LANGUAGE;
    try {
      // Before any decoding: a recording no engine can recognize fails at once.
      await speechEngineFor(language, asr);
    } catch (error) {
      if (error instanceof NoSpeechEngineError) throw new ModelRejectedInputError(error.message);
      throw error;
    }
    const audio = decodeAudio(input.sourcePath, path.join(input.workDir, 'audio.wav'));
    let recognised: Awaited<ReturnType<typeof recognizeInWindows>>;
    try {
      recognised = await recognizeInWindows(audio, language, asr);
    } finally {
      audio.stop(); // a failed recognition leaves no decode running
    }
    const { words, durationSeconds, silences } = recognised;
    return {
      kind: 'transcript',
      totalTimeInSeconds: roundTime(durationSeconds),
      items: itemsBetweenSilences(words, silences),
      speakers: [{ ...DEFAULT_SPEAKER }],
    };
  };
}

/**
 * The recording's words and, from the same decode, its duration and silences. The recogniser
 * starts on the samples as they are decoded; a recording that turns out longer than a window is
 * then recognised window by window once decoded (planAudioSplit, on its silences), each window
 * read from the decoded samples: the first, streamed run is abandoned early, the decode being
 * far faster than the recognition.
 */
async function recognizeInWindows(
  audio: DecodedAudio,
  language: string,
  asr: AsrConfig,
): Promise<{ words: RecognizedWord[]; durationSeconds: number; silences: Silence[] }> {
  try {
    // Its duration unknown while it is decoded, the streamed run gets the timeout of a full window.
    const wav = { header: await audio.header, samples: withinAWindow(audio.samples()) };
    const words = await transcribeStreamedWav(wav, language, asr, { timeoutMs: recognitionTimeoutMs(WINDOW_MINUTES * 60) });
    return { words, ...(await audio.finished) };
  } catch (error) {
    if (!(error instanceof LongerThanAWindow)) throw error;
  }
  const { durationSeconds, silences } = await audio.finished;
  const words: RecognizedWord[] = [];
  for (const window of planAudioSplit(durationSeconds, silences, WINDOW_MINUTES)) {
    const wav = { header: await audio.header, samples: audio.samples(pcmOffset(window.start), pcmOffset(window.end)) };
    for (const word of await transcribeStreamedWav(wav, language, asr, { timeoutMs: recognitionTimeoutMs(window.end - window.start) })) {
      words.push({ ...word, start: word.start + window.start, end: word.end + window.start });
    }
  }
  return { words, durationSeconds, silences };
}

/** The samples while they fit in one window; LongerThanAWindow once they do not. */
async function* withinAWindow(samples: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  let bytes = 0;
  for await (const part of samples) {
    bytes += part.length;
    if (bytes > WINDOW_BYTES) throw new LongerThanAWindow();
    yield part;
  }
}

function recognitionTimeoutMs(seconds: number): number {
  return Math.max(MIN_RECOGNITION_TIMEOUT_MS, seconds * RECOGNITION_TIMEOUT_PER_AUDIO_SECOND_MS);
}

/** Words grouped into items: a new item starts after a detected silence or a pause between words. */
function itemsBetweenSilences(words: readonly RecognizedWord[], silences: readonly Silence[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  let current: RecognizedWord[] = [];
  let nextSilence = 0;
  for (const word of words) {
    const middle = (word.start + word.end) / 2;
    let crossedSilence = false;
    while (nextSilence < silences.length && midpoint(silences[nextSilence]!) <= middle) {
      nextSilence += 1;
      crossedSilence = true;
    }
    const previous = current.at(-1);
    if (previous && (crossedSilence || word.start - previous.end >= MIN_PAUSE_SECONDS)) {
      items.push(toItem(current));
      current = [];
    }
    current.push(word);
  }
  if (current.length) items.push(toItem(current));
  return items;
}

function toItem(words: readonly RecognizedWord[]): TranscriptItem {
  const originalWords = words.map(toTranscriptWord);
  const start = originalWords[0]!.offsetInSeconds;
  const last = originalWords.at(-1)!;
  const end = roundTime(last.offsetInSeconds + last.durationInSeconds);
  return {
    speakerId: DEFAULT_SPEAKER.speakerId,
    start,
    end,
    duration: roundTime(end - start),
    confidence: words.reduce((sum, w) => sum + w.confidence, 0) / words.length,
    displayText: originalWords.map((w) => w.text).join(' '),
    // Reviewers edit the display words; the original words keep what the engine heard.
    displayWords: originalWords.map((w) => ({ ...w })),
    originalWords,
  };
}

function toTranscriptWord(word: RecognizedWord): TranscriptWord {
  const offsetInSeconds = roundTime(word.start);
  return {
    text: word.text,
    offsetInSeconds,
    durationInSeconds: roundTime(roundTime(word.end) - offsetInSeconds),
    confidence: word.confidence,
  };
}

function midpoint(silence: Silence): number {
  return (silence.start + silence.end) / 2;
}

/** Milliseconds: finer than any engine's timing, and free of binary fractions like 1.2300000000000002. */
function roundTime(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
