/**
 * One error hierarchy for the whole service. Every error reaches the client as an RFC 7807
 * problem body through the single handler in http/error-handler.ts.
 */

import { SourceTooLargeError } from '../net/source-fetch.js';
import { SourceUnreachableError } from '../net/url-guard.js';
import { BlobNotFoundError } from '../storage/blob-store.js';

export interface FieldError {
  field: string;
  message: string;
}

/** RFC section each status is defined in, used as the problem `type`. */
const typeByStatus: Record<number, string> = {
  400: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
  401: 'https://tools.ietf.org/html/rfc7235#section-3.1',
  403: 'https://tools.ietf.org/html/rfc7231#section-6.5.3',
  404: 'https://tools.ietf.org/html/rfc7231#section-6.5.4',
  405: 'https://tools.ietf.org/html/rfc7231#section-6.5.5',
  406: 'https://tools.ietf.org/html/rfc7231#section-6.5.6',
  408: 'https://tools.ietf.org/html/rfc7231#section-6.5.7',
  409: 'https://tools.ietf.org/html/rfc7231#section-6.5.8',
  410: 'https://tools.ietf.org/html/rfc7231#section-6.5.9',
  412: 'https://tools.ietf.org/html/rfc7232#section-4.2',
  413: 'https://tools.ietf.org/html/rfc7231#section-6.5.11',
  414: 'https://tools.ietf.org/html/rfc7231#section-6.5.12',
  415: 'https://tools.ietf.org/html/rfc7231#section-6.5.13',
  422: 'https://tools.ietf.org/html/rfc4918#section-11.2',
  429: 'https://tools.ietf.org/html/rfc6585#section-4',
  431: 'https://tools.ietf.org/html/rfc6585#section-5',
  500: 'https://tools.ietf.org/html/rfc7231#section-6.6.1',
  503: 'https://tools.ietf.org/html/rfc7231#section-6.6.4',
};

export function problemType(status: number): string {
  return typeByStatus[status] ?? 'about:blank';
}

export const defaultTitles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface AppErrorOptions {
  title?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members of the body (e.g. the OAuth `error` code). */
  extensions?: Record<string, unknown>;
  /** The underlying failure: logged, never shown. */
  cause?: unknown;
}

export class AppError extends Error {
  readonly title: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(
    readonly status: number,
    readonly detail: string,
    options: AppErrorOptions = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = new.target.name;
    this.title = options.title ?? defaultTitles[status] ?? 'Error';
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }
}

/**
 * Runs `work`; client errors (`asAppError`) pass as they are, anything unexpected is replaced by
 * `internal(cause)`, an operation's own 500 (the error handler still answers an outage with 503).
 */
export async function withInternalError<T>(work: () => Promise<T>, internal: (cause: unknown) => AppError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asAppError(error) ?? internal(error);
  }
}

export class BadRequestError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(400, detail, options);
  }
}

/** A single invalid field, reported the same way as schema validation failures. */
export function invalidField(field: string, message: string): BadRequestError {
  return new BadRequestError(`${field}: ${message}`, { title: 'ValidationError', errors: [{ field, message }] });
}

export class UnauthorizedError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(401, detail, { ...options, headers: { 'www-authenticate': 'Bearer', ...options.headers } });
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(403, detail, options);
  }
}

export class NotFoundError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(404, detail, options);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(409, detail, options);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(413, detail, options);
  }
}

export class UnprocessableError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(422, detail, options);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(detail: string, options: AppErrorOptions = {}) {
    super(503, detail, options);
  }
}

/**
 * The HTTP answer to an error: an AppError as it is, and the errors of the layers under HTTP
 * (storage, the source download), which know nothing of statuses, mapped here once; undefined for
 * anything else (a bug or an outage, which the error handler tells apart).
 */
export function asAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof BlobNotFoundError) return new NotFoundError(error.message, { cause: error });
  if (error instanceof SourceTooLargeError) return new PayloadTooLargeError(error.message, { cause: error });
  if (error instanceof SourceUnreachableError) return new UnprocessableError(error.message, { extensions: { reason: error.reason }, cause: error });
  return undefined;
}
