import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The two answer shapes of Whisper servers for `response_format=verbose_json`. */
export type WhisperDialect = 'faster-whisper' | 'whisper.cpp';

export interface WhisperStandIn {
  /** The server's base URL, what an operator puts in ASR_URL. */
  url: string;
  /** The shape of the next answers. */
  dialect: WhisperDialect;
  /** The form fields of each transcription request (the audio as its byte count). */
  requests: Array<{ path: string; fields: Record<string, string[]>; audioBytes: number }>;
  close: () => Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Seconds of a 16 kHz mono 16-bit WAV (what the service sends) from its size, header aside. */
function wavSeconds(bytes: number): number {
  return Math.max(bytes - 44, 0) / (16_000 * 2);
}

/**
 * The verbose_json answer of each dialect for `text` spoken evenly over `seconds`:
 * faster-whisper servers (and OpenAI) list the words at the top level beside the segments;
 * whisper.cpp's server lists them inside the one segment, as tokens (each word's tail a token
 * of its own, without the leading space).
 */
function verboseJson(dialect: WhisperDialect, text: string, seconds: number) {
  const spoken = text.split(' ');
  const step = seconds / spoken.length;
  const words = spoken.map((word, i) => ({ word: ` ${word}`, start: i * step, end: (i + 1) * step, probability: 0.9 }));
  const segment = { id: 0, start: 0, end: seconds, text: ` ${text}`, tokens: spoken.map((_, i) => 1000 + i), temperature: 0, avg_logprob: -0.1, no_speech_prob: 0.01 };
  if (dialect === 'faster-whisper') {
    return { task: 'transcribe', language: 'en', duration: seconds, text, words, segments: [{ ...segment, seek: 0, compression_ratio: 1.2, words }] };
  }
  const tokens = words.flatMap((w) => {
    const middle = (w.start + w.end) / 2;
    return w.word.length > 3
      ? [{ ...w, word: w.word.slice(0, 3), end: middle, t_dtw: -1 }, { ...w, word: w.word.slice(3), start: middle, t_dtw: -1 }]
      : [{ ...w, t_dtw: -1 }];
  });
  return { task: 'transcribe', language: 'english', duration: seconds, text, segments: [{ ...segment, words: tokens }] };
}

/**
 * A stand-in for a Whisper server on loopback that speaks its HTTP API: POST
 * /v1/audio/transcriptions with the audio as multipart `file`, answering `text` as verbose_json
 * in the chosen dialect, spread over the length of the audio it was sent.
 */
export async function startWhisperStandIn(dialect: WhisperDialect, text: string): Promise<WhisperStandIn> {
  const requests: WhisperStandIn['requests'] = [];
  const standIn = { dialect, requests };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
      return;
    }
    const form = await new Response(await bodyOf(req), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    const fields: Record<string, string[]> = {};
    let audioBytes = 0;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') (fields[name] ??= []).push(value);
      else if (name === 'file') audioBytes = value.size;
    }
    requests.push({ path: req.url, fields, audioBytes });
    if (!audioBytes || fields.response_format?.[0] !== 'verbose_json') {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'file and response_format=verbose_json expected' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verboseJson(standIn.dialect, text, wavSeconds(audioBytes))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
