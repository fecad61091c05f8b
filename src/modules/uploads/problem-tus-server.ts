import { AsyncLocalStorage } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import { Server, type CancellationContext } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemBody, type ProblemBody } from '../../http/error-handler.js';
import { defaultTitles } from '../../http/problem.js';

/** The detail of a 500: the TUS server's own text may carry internal error messages. */
const INTERNAL_DETAIL = 'An unexpected error occurred; quote the traceId when reporting it';

/**
 * The TUS server answers 501 when a client asks for an extension the store does not offer (only
 * Upload-Concat, concatenation, with our stores; Tus-Extension never lists it). That is the
 * client's choice, not a failure of ours: a 400 like every other refused request.
 */
const UNSUPPORTED_EXTENSION = 501;

/** The status and problem body every route answers errors with, for an error the TUS server wrote as text. */
function tusProblem(request: FastifyRequest, tusStatus: number, tusText: string): ProblemBody {
  const where = { instance: request.url.split('?')[0] ?? null, traceId: String(request.id) };
  if (tusStatus === UNSUPPORTED_EXTENSION) return problemBody(400, tusText.trim(), where, { title: 'UnsupportedExtension' });
  const detail = tusStatus === 500 ? INTERNAL_DETAIL : tusText.trim() || (STATUS_CODES[tusStatus] ?? 'Error');
  return problemBody(tusStatus, detail, where, { title: defaultTitles[tusStatus] ?? STATUS_CODES[tusStatus] });
}

/**
 * The TUS server answering its errors as problem bodies. @tus/server writes every error response
 * (412 without Tus-Resumable, 400 on an invalid header, and whatever its handlers throw: 403, 404,
 * 409, 410, 413, 500, 501) through `Server.write` as text/plain; this subclass rewrites them there
 * (the 501 of an unsupported extension as a 400), keeping the headers the TUS server has set
 * (Tus-Resumable, CORS). Its `onResponseError` hook
 * cannot do it: it sees neither the header checks nor the response's content type. `write` has no
 * request, so the Fastify request rides along in an AsyncLocalStorage.
 */
export class ProblemTusServer extends Server {
  readonly #requests = new AsyncLocalStorage<FastifyRequest>();

  /** Answers a Fastify request that our checks have let through (the reply is hijacked). */
  async handleRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    // A hijacked reply skips the onSend hook that sets it; traceIds must be findable here too.
    reply.raw.setHeader('x-request-id', request.id);
    await this.#requests.run(request, () => this.handle(request.raw, reply.raw));
  }

  override async write(context: CancellationContext, headers: Headers, status: number, body = '') {
    const request = this.#requests.getStore();
    if (status < 400 || !request) return super.write(context, headers, status, body);
    const problem = tusProblem(request, status, body);
    headers.set('Content-Type', PROBLEM_CONTENT_TYPE);
    return super.write(context, headers, problem.status, JSON.stringify(problem));
  }
}
