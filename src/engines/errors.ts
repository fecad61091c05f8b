/**
 * Failures of the engine wrappers. The pipeline maps them to task statuses in one place, so every
 * wrapper throws one of these instead of whatever its tool or library happened to raise.
 */
export class EngineError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The input file is corrupt, truncated, encrypted or not what its type claims. */
export class InputUnreadableError extends EngineError {}

export class PdfUnreadableError extends InputUnreadableError {}

export class ImageUnreadableError extends InputUnreadableError {}

export class MediaUnreadableError extends InputUnreadableError {}

/**
 * A system binary the engine needs is not installed (not on PATH). Retrying cannot install it:
 * the pipeline fails the task at once, with this message (and its `remedy`, what to install or
 * set) as the reason users read.
 */
export class EngineMissingError extends EngineError {
  constructor(
    readonly binary: string,
    readonly remedy?: string,
  ) {
    super(`${binary} is not installed${remedy ? `: ${remedy}` : ' (not found on PATH)'}`);
  }
}

export class EngineTimeoutError extends EngineError {
  constructor(
    readonly binary: string,
    readonly timeoutMs: number,
  ) {
    super(`${binary} did not finish within ${timeoutMs} ms`);
  }
}

/** A system binary exited with an error; `stderr` keeps its own explanation. */
export class EngineFailedError extends EngineError {
  constructor(
    readonly binary: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${binary} failed (exit ${exitCode ?? 'signal'}): ${lastLines(stderr, 5)}`);
  }
}

export class UnsupportedLanguageError extends EngineError {
  constructor(readonly language: string) {
    super(`no OCR model installed for language "${language}"`);
  }
}

/** The message of anything thrown, for wrapping library errors into engine errors. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}
