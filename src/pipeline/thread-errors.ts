import { NoSpeechEngineError, RemoteAsrError } from '../engines/asr.js';
import {
  EngineError,
  EngineFailedError,
  EngineMissingError,
  EngineTimeoutError,
  ImageUnreadableError,
  InputUnreadableError,
  MediaUnreadableError,
  PdfUnreadableError,
  UnsupportedLanguageError,
} from '../engines/errors.js';
import { ModelRejectedInputError } from '../models/model.js';
import { UnsupportedFileError } from './source-inspection.js';
import { StaleJobError } from './task-transitions.js';

/**
 * Errors cross between the engine threads and the worker's main thread as plain data: structured
 * cloning keeps an Error's message but not its class, and the pipeline decides by class
 * (ModelRejectedInputError: no retry; UnsupportedFileError and InputUnreadableError: their own
 * task statuses; a missing file by its `code`). Each side names the class, the other rebuilds it.
 */
const CLASSES = {
  ModelRejectedInputError,
  UnsupportedFileError,
  StaleJobError,
  EngineError,
  InputUnreadableError,
  PdfUnreadableError,
  ImageUnreadableError,
  MediaUnreadableError,
  EngineMissingError,
  EngineTimeoutError,
  EngineFailedError,
  UnsupportedLanguageError,
  NoSpeechEngineError,
  RemoteAsrError,
} as const satisfies Record<string, new (...args: never[]) => Error>;

type ClassName = keyof typeof CLASSES;

export interface EncodedError {
  /** One of CLASSES, or absent for any other error (rebuilt as a plain Error). */
  className?: ClassName;
  name: string;
  message: string;
  stack?: string;
  /** The error's own data fields (code, path, binary, exitCode, ...): strings, numbers, booleans and null only. */
  fields: Record<string, string | number | boolean | null>;
}

/** The most specific class of CLASSES the error is an instance of. */
function classOf(err: Error): ClassName | undefined {
  let proto: object | null = Object.getPrototypeOf(err);
  while (proto && proto !== Error.prototype) {
    const name = (Object.entries(CLASSES) as Array<[ClassName, (typeof CLASSES)[ClassName]]>).find(([, cls]) => cls.prototype === proto)?.[0];
    if (name) return name;
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

export function encodeError(err: unknown): EncodedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: EncodedError['fields'] = {};
  for (const [key, value] of Object.entries(err)) {
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  const className = classOf(err);
  return { ...(className ? { className } : {}), name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}), fields };
}

/**
 * The error again, of its class when it has one of CLASSES (given that prototype rather than
 * constructed, since constructors' parameters differ from class to class), with its message, the
 * stack of where it was thrown, and its fields.
 */
export function decodeError(encoded: EncodedError): Error {
  const err = new Error(encoded.message);
  if (encoded.className) Object.setPrototypeOf(err, CLASSES[encoded.className].prototype);
  if (encoded.stack) err.stack = encoded.stack;
  return Object.assign(err, encoded.fields, { name: encoded.name });
}
