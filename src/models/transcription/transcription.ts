import path from 'node:path';
import { NoSpeechEngineError, speechEngineFor, transcribe, type AsrConfig, type RecognizedWord } from '../../engines/asr.js';
import { detectSilences, probeMedia, toMonoWav16k, type Silence } from '../../engines/media.js';
import { cutAudio, planAudioSplit } from '../../engines/audio-split.js';
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

/**
 * The Transcripts model (DESIGN.md section 6): the audio track as 16 kHz mono, words with timings
 * and confidences from the speech engine of the language, grouped into one transcript item per
 * stretch of speech between silences, all attributed to the default speaker.
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
    const wav = path.join(input.workDir, 'audio.wav');
    await toMonoWav16k(input.sourcePath, wav);
    const { durationSeconds } = await probeMedia(wav);
    const silences = await detectSilences(wav);
    const words = await recognizeInWindows(wav, durationSeconds, silences, language, asr, input.workDir);
    return {
      kind: 'transcript',
      totalTimeInSeconds: roundTime(durationSeconds),
      items: itemsBetweenSilences(words, silences),
      speakers: [{ ...DEFAULT_SPEAKER }],
    };
  };
}

async function recognizeInWindows(
  wav: string,
  durationSeconds: number,
  silences: Silence[],
  language: string,
  asr: AsrConfig,
  workDir: string,
): Promise<RecognizedWord[]> {
  const windows = planAudioSplit(durationSeconds, silences, WINDOW_MINUTES);
  const words: RecognizedWord[] = [];
  for (const [index, window] of windows.entries()) {
    let windowWav = wav;
    if (windows.length > 1) {
      windowWav = path.join(workDir, `window-${index + 1}.wav`);
      await cutAudio(wav, window.start, window.end, windowWav);
    }
    const timeoutMs = Math.max(MIN_RECOGNITION_TIMEOUT_MS, (window.end - window.start) * RECOGNITION_TIMEOUT_PER_AUDIO_SECOND_MS);
    for (const word of await transcribe(windowWav, language, asr, { timeoutMs })) {
      words.push({ ...word, start: word.start + window.start, end: word.end + window.start });
    }
  }
  return words;
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
