import { spawn } from 'node:child_process';
import { EngineFailedError, EngineMissingError, EngineTimeoutError } from './errors.js';

export interface RunOptions {
  /** Written to the child's stdin, which is then closed. */
  input?: Uint8Array;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Ends the child when aborted; the run then fails with the signal's reason. */
  signal?: AbortSignal;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** Runs a system binary to completion; throws EngineMissingError, EngineTimeoutError or EngineFailedError. */
export function runProcess(binary: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env: options.env ?? process.env, stdio: 'pipe' });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    const { signal } = options;
    const stop = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', stop, { once: true });

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A child that exits before reading all its input makes the write fail with EPIPE; the exit
    // status explains the failure better, so the write error itself is not reported. The same
    // goes for an error on its output pipes: 'close' still reports how the child ended, and an
    // 'error' event with no listener would end the whole worker process.
    for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe.on('error', () => {});
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new EngineMissingError(binary) : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      const stderrText = Buffer.concat(stderr).toString('utf8');
      if (signal?.aborted) reject(signal.reason);
      else if (timedOut) reject(new EngineTimeoutError(binary, options.timeoutMs));
      else if (code !== 0) reject(new EngineFailedError(binary, code, stderrText));
      else resolve({ stdout: Buffer.concat(stdout), stderr: stderrText });
    });
    child.stdin.end(options.input);
  });
}
