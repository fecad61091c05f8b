/**
 * Access to client-supplied source URLs: a quick reachability check when a task is created and
 * the download during pre-processing. Every hop of a redirect chain passes the SSRF guard again
 * and is connected to the address the guard vetted; every operation has one overall deadline.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../storage/blob-store.js';
import { SourceUnreachableError, assertPublicHttpUrl, pinnedLookup, type UrlGuardOptions } from './url-guard.js';

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REQUEST_HEADERS = {
  'user-agent': 'docproc-source-fetch',
  accept: '*/*',
  // The bytes are stored and sniffed as they are: no transfer compression to undo.
  'accept-encoding': 'identity',
};

export interface SourceFetchOptions extends Pick<UrlGuardOptions, 'allowPrivate'> {
  /** One deadline for the whole operation: DNS, every redirect hop and the body. */
  timeoutMs: number;
}

export interface DownloadOptions extends SourceFetchOptions {
  maxBytes: number;
}

export interface SourceCheck {
  ok: true;
  finalUrl: string;
  contentLength?: number;
  contentType?: string;
}

export interface DownloadResult {
  bytesWritten: number;
  finalUrl: string;
  /** What the server claims; informational only, the file type is sniffed from the content. */
  contentType?: string;
}

/** A stream to write to, or a blob to store (atomically: a failed download leaves no blob). */
export type DownloadDestination = Writable | { store: BlobStore; key: string };

/** The download passed the size limit; the HTTP layer answers it with 413 (http/problem.ts `asAppError`). */
export class SourceTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The source file is larger than the limit of ${maxBytes} bytes.`);
    this.name = 'SourceTooLargeError';
  }
}

/** The server answered the download with a status other than 2xx. */
export class SourceDownloadError extends SourceUnreachableError {
  constructor(readonly sourceStatus: number) {
    super(`http-${sourceStatus}`, `The source URL answered with HTTP status ${sourceStatus}.`);
  }
}

/**
 * Runs `work` with a signal aborted after `timeoutMs`; whatever fails once the deadline has
 * passed is reported as a timeout, since the abort is what made it fail.
 */
async function withDeadline<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new SourceUnreachableError('timeout', `The source URL did not respond within ${timeoutMs} ms.`)),
    timeoutMs,
  );
  try {
    return await work(controller.signal);
  } catch (err) {
    throw controller.signal.aborted ? controller.signal.reason : err;
  } finally {
    clearTimeout(timer);
  }
}

interface Hop extends Required<UrlGuardOptions> {
  method: 'GET' | 'HEAD';
  headers?: Record<string, string>;
}

interface Answer {
  response: IncomingMessage;
  /** The URL that answered, as parsed by the guard. */
  url: URL;
}

/** One request to the vetted address; resolves with the response head, its body unread. */
async function send(url: string | URL, hop: Hop): Promise<Answer> {
  const vetted = await assertPublicHttpUrl(url, hop);
  const client = vetted.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(vetted.url, {
      method: hop.method,
      headers: { ...REQUEST_HEADERS, ...hop.headers },
      lookup: pinnedLookup(vetted),
      // A pooled socket may be connected to an address vetted for another request.
      agent: false,
      // Aborting destroys the socket, which also cuts off a response body still streaming.
      signal: hop.signal,
    });
    request.once('response', (response) => resolve({ response, url: vetted.url }));
    // Stays attached after the response: a later socket error must not crash the process.
    request.on('error', (err) =>
      reject(hop.signal.aborted ? err : new SourceUnreachableError('network', `The source URL could not be reached: ${err.message}`, { cause: err })),
    );
    request.end();
  });
}

/** Requests `url`, following up to MAX_REDIRECTS redirects; resolves with the first non-redirect answer. */
async function requestFollowingRedirects(url: string, hop: Hop): Promise<Answer> {
  let next: string | URL = url;
  let method = hop.method;
  for (let redirects = 0; ; redirects++) {
    const answer = await send(next, { ...hop, method });
    const { statusCode = 0, headers } = answer.response;
    if (!REDIRECT_STATUSES.has(statusCode) || !headers.location) return answer;
    // The redirect's body is never needed; dropping the connection is cheaper than reading it.
    answer.response.destroy();
    if (redirects === MAX_REDIRECTS) {
      throw new SourceUnreachableError('too-many-redirects', `The source URL redirects more than ${MAX_REDIRECTS} times.`);
    }
    if (!URL.canParse(headers.location, answer.url.href)) {
      throw new SourceUnreachableError('invalid-url', 'The source URL redirects to an invalid location.');
    }
    next = new URL(headers.location, answer.url);
    if (statusCode === 303 && method !== 'HEAD') method = 'GET';
  }
}

function isSuccess(response: IncomingMessage): boolean {
  const status = response.statusCode ?? 0;
  return status >= 200 && status < 300;
}

function statusError(response: IncomingMessage): SourceUnreachableError {
  return new SourceUnreachableError(`http-${response.statusCode ?? 0}`, `The source URL answered with HTTP status ${response.statusCode}.`);
}

/** The size of the whole resource: a ranged answer carries it in Content-Range, a full one in Content-Length. */
function resourceLength(response: IncomingMessage): number | undefined {
  const total = response.statusCode === 206 ? /\/(\d+)$/.exec(response.headers['content-range'] ?? '')?.[1] : response.headers['content-length'];
  return total !== undefined && /^\d+$/.test(total) ? Number(total) : undefined;
}

function sourceCheckOf({ response, url }: Answer): SourceCheck {
  const contentLength = resourceLength(response);
  const contentType = contentTypeOf(response.headers);
  return {
    ok: true,
    finalUrl: url.toString(),
    ...(contentLength !== undefined ? { contentLength } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
  };
}

function contentTypeOf(headers: IncomingHttpHeaders): string | undefined {
  return headers['content-type'] || undefined;
}

/** Servers that refuse HEAD say so with these (or by failing the request). */
const HEAD_REFUSED_STATUSES = new Set([405, 501]);

/**
 * Checks that `url` can be downloaded: HEAD, or a one-byte ranged GET where HEAD is refused.
 * Throws SourceUnreachableError with the reason otherwise.
 */
export async function checkSourceReachable(url: string, options: SourceFetchOptions): Promise<SourceCheck> {
  return withDeadline(options.timeoutMs, async (signal) => {
    const hop = { allowPrivate: options.allowPrivate, signal };
    const head = await requestFollowingRedirects(url, { ...hop, method: 'HEAD' }).catch((err: unknown) => {
      // A failed connection may be a server that mishandles HEAD; anything else is final.
      if (err instanceof SourceUnreachableError && err.reason === 'network') return undefined;
      throw err;
    });
    const answer =
      head && !HEAD_REFUSED_STATUSES.has(head.response.statusCode ?? 0)
        ? head
        : await requestFollowingRedirects(url, { ...hop, method: 'GET', headers: { range: 'bytes=0-0' } });
    // Only the head is needed, and a server ignoring the range would send the whole file.
    answer.response.destroy();
    if (!isSuccess(answer.response)) throw statusError(answer.response);
    return sourceCheckOf(answer);
  });
}

/**
 * Downloads `url` into `destination`, refusing more than `maxBytes` (SourceTooLargeError) and
 * anything taking longer than `timeoutMs`; a non-2xx answer is a SourceDownloadError.
 */
export async function downloadSource(
  url: string,
  destination: DownloadDestination,
  options: DownloadOptions,
): Promise<DownloadResult> {
  return withDeadline(options.timeoutMs, async (signal) => {
    const { response, url: finalUrl } = await requestFollowingRedirects(url, { allowPrivate: options.allowPrivate, signal, method: 'GET' });
    if (!isSuccess(response)) {
      response.destroy();
      throw new SourceDownloadError(response.statusCode ?? 0);
    }
    const announced = resourceLength(response);
    if (announced !== undefined && announced > options.maxBytes) {
      response.destroy();
      throw new SourceTooLargeError(options.maxBytes);
    }

    let bytesWritten = 0;
    // Counted as it streams: Content-Length may be absent or wrong.
    async function* limited(): AsyncGenerator<Buffer> {
      try {
        for await (const chunk of response as AsyncIterable<Buffer>) {
          bytesWritten += chunk.length;
          if (bytesWritten > options.maxBytes) throw new SourceTooLargeError(options.maxBytes);
          yield chunk;
        }
      } catch (err) {
        if (err instanceof SourceTooLargeError || signal.aborted) throw err;
        throw new SourceUnreachableError('network', 'The source URL closed the connection before the file was complete.', { cause: err });
      }
    }
    const body = Readable.from(limited());
    if ('store' in destination) await destination.store.put(destination.key, body);
    else await pipeline(body, destination);

    const contentType = contentTypeOf(response.headers);
    return { bytesWritten, finalUrl: finalUrl.toString(), ...(contentType !== undefined ? { contentType } : {}) };
  });
}
