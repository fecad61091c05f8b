import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemBody, sendProblem } from './error-handler.js';

/**
 * Errors answered before a request reaches a route (or the error handler): they get the same
 * problem body as every other error. Three sources: Fastify's router (frameworkErrors), Node's
 * HTTP parser (clientErrorHandler) and the drain at shutdown (installDrainRefusal).
 */

/** Retry-After of the 503 during a drain: another instance (or this one restarted) takes over. */
const DRAIN_RETRY_AFTER_SECONDS = 1;

/** Fastify's `frameworkErrors` option: a path the router cannot decode or match. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      sendProblem(request, reply, 400, 'The request path is not valid percent-encoded UTF-8');
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      sendProblem(request, reply, 414, 'A segment of the request path is too long');
      return;
    default:
      request.log.error({ err: error }, 'router error');
      sendProblem(request, reply, 500, 'An unexpected error occurred; quote the traceId when reporting it');
  }
}

/** What Node's parser reports (the `code` of a 'clientError'), as a status and a sentence. */
function classify(code: string | undefined): { status: number; detail: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'The request was not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'The request headers are too large' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, detail: 'Unknown HTTP method' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, detail: 'Invalid Content-Length header' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, detail: 'Invalid Transfer-Encoding or chunked body' };
    default:
      return { status: 400, detail: 'Malformed HTTP request' };
  }
}

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError'): the request could not be parsed, so
 * there is no Fastify request to answer through; the problem body is written to the socket.
 */
export function clientErrorHandler(log?: FastifyBaseLogger): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, detail } = classify(error.code);
    const traceId = randomUUID();
    log?.debug({ err: error, traceId }, 'client error');
    // Once a response has started on this connection, another one cannot be written into it.
    const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || started) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(problemBody(status, detail, { instance: null, traceId }));
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${traceId}`,
      'Connection: close',
    ].join('\r\n');
    socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Starts the drain before the app closes: every request from now on is refused as during the
     * close, while the listener stays open (see installDrainRefusal).
     */
    drain: () => void;
  }
}

/**
 * While the app drains and closes, requests still arriving are refused with a 503 problem and
 * Retry-After (Fastify's own return503OnClosing answers neither), and the connection is closed so
 * the client reconnects elsewhere. A shutdown calls `drain()` a while before `close()`: closing the
 * listener resets the connections it has not taken yet and those that have not sent their request
 * yet, so requests arriving with the signal would get a reset, from which a client cannot tell
 * whether anything was done. While draining, they get the 503 instead.
 */
export function installDrainRefusal(app: FastifyInstance): void {
  let draining = false;
  app.decorate('drain', () => {
    draining = true;
  });
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    reply.header('connection', 'close');
    return sendProblem(request, reply, 503, 'The server is shutting down; retry the request', {
      headers: { 'retry-after': String(DRAIN_RETRY_AFTER_SECONDS) },
    });
  });
}
