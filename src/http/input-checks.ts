import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidField } from './problem.js';

/**
 * Rules for every route, present and future, checked on the parsed input before validation
 * (hence before any database work or streaming of an answer):
 * - Postgres text and jsonb cannot hold U+0000 (errors 22021, 22P05): a NUL anywhere would fail
 *   deep in a query, or halfway through a streamed answer;
 * - text must be well-formed UTF-16: jsonb refuses a lone surrogate (\uD800 without its pair),
 *   and text columns would store it as U+FFFD while the answer echoed it raw;
 * - no API input nests deeper than MAX_INPUT_DEPTH: deeper JSON is hostile, and recursive code
 *   further on (validation, serialization) would overflow the stack on it.
 */
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must be well-formed Unicode (a lone surrogate code unit is not a character)';
export const MAX_INPUT_DEPTH = 32;
const DEPTH_MESSAGE = `must not nest objects or arrays more than ${MAX_INPUT_DEPTH} levels deep`;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  // Object.prototype, none, or (parsed query strings) an empty object that has none itself.
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return undefined;
}

export interface InputProblem {
  /** Where: the keys and indexes leading to the offending value (empty for the input itself). */
  path: string[];
  message: string;
}

/**
 * The first NUL (in a string, array item, object key or value) or the first nesting past
 * MAX_INPUT_DEPTH in `value`, walked without recursion so no input can exhaust the stack.
 * Streams and buffers (uploads) are not input text and are not entered.
 */
export function findInputProblem(value: unknown): InputProblem | undefined {
  const pending: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: item, path } = pending.pop()!;
    if (typeof item === 'string') {
      const message = textProblem(item);
      if (message) return { path, message };
      continue;
    }
    const children = Array.isArray(item)
      ? item.map((child, index) => [String(index), child] as const)
      : isPlainObject(item)
        ? Object.entries(item)
        : undefined;
    if (!children) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, message: DEPTH_MESSAGE };
    for (const [key, child] of children) {
      const message = textProblem(key);
      if (message) return { path: [...path, key.replaceAll('\u0000', '\\u0000').replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD')], message };
      pending.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/** A 400 naming the field, as schema validation names it (`context.url`, `externalId`). */
export function assertAcceptableInput(value: unknown, fallbackField: string): void {
  const problem = findInputProblem(value);
  if (problem) throw invalidField(problem.path.length ? problem.path.join('.') : fallbackField, problem.message);
}

export function installInputChecks(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    assertAcceptableInput(request.params, 'path');
    assertAcceptableInput(request.query, 'query');
    assertAcceptableInput(request.body, 'body');
  });
}
