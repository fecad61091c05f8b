import { execFile } from 'node:child_process';
import { repoRoot } from './processes.js';

/** Node's words when a worker thread allocates past its heap limit's allowance and takes the process with it. */
const HEAP_LIMIT_ABORT = /Reached heap limit/;

/**
 * Runs a test script that starves an engine thread of heap (test/support/starved-*.ts) in a process
 * of its own, and returns the JSON line it prints. Node ends such a thread at the next point where
 * JavaScript can be interrupted; when the thread allocates past the limit's allowance before that
 * (rare: seen about once in a hundred runs on a loaded machine, nodejs/node#47224), Node aborts the
 * whole process. That abort is Node's, not the pipeline's, so it is run once more then; a second
 * abort fails the test.
 */
export async function runStarvedScript<T>(script: string, args: string[] = []): Promise<T> {
  for (let run = 1; ; run += 1) {
    const ended = await new Promise<{ stdout: string; stderr: string; failed: boolean }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, failed: err !== null }),
      );
    });
    if (!ended.failed) return JSON.parse(ended.stdout.trim().split('\n').at(-1)!) as T;
    if (run === 1 && HEAP_LIMIT_ABORT.test(ended.stderr)) continue;
    throw new Error(`${script} failed:\n${ended.stderr}`);
  }
}
