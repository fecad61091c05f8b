import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * PDF parsing and rendering hold the thread they run on for a whole page: the api (every route,
 * the review page images included) and the worker's main thread must never load pdf.js, which only
 * the engine threads do. Loading pdf.js's worker module (pdf.ts does) sets globalThis.pdfjsWorker.
 */
describe('the event loops of the api and the worker', () => {
  it('load no pdf.js: PDF work happens in engine threads and child processes only', async () => {
    const probe = (modules: string[]) =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', `${modules.map((m) => `await import('./${m}');`).join(' ')} process.stdout.write(String('pdfjsWorker' in globalThis));`],
        { cwd: repoRoot },
      );
    const [served, control] = await Promise.all([
      probe(['src/app.ts', 'src/runtime/services.ts', 'src/pipeline/worker.ts', 'src/modules/review/review.routes.ts']),
      probe(['src/engines/pdf.ts']),
    ]);
    // The control proves the probe sees pdf.js when it is loaded.
    expect([served.stdout, control.stdout]).toEqual(['false', 'true']);
  });
});
