/**
 * The OpenAPI fuzz suite (test/fuzz.test.ts) at any size: FUZZ_RUNS cases split over every
 * operation, a fresh seed unless FUZZ_SEED is given (printed first, to replay a failure), and a
 * report of the answers by operation and status. Failures print the request and the command that
 * replays them.
 *
 *   npm run fuzz                               20000 cases, random seed
 *   FUZZ_RUNS=100000 FUZZ_SEED=42 npm run fuzz
 *   FUZZ_ONLY=speakers npm run fuzz            only operations whose key contains it
 *   FUZZ_ONLY='GET /health' FUZZ_CASE=17 ...   replay one case of a report (with its seed and runs)
 *
 * Uses DATABASE_URL / REDIS_URL like `npm test` (else the embedded ones).
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const seed = process.env.FUZZ_SEED || String(randomInt(2 ** 31 - 1));
const runs = process.env.FUZZ_RUNS || '20000';
process.stdout.write(`fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${runs}${process.env.FUZZ_ONLY ? ` FUZZ_ONLY='${process.env.FUZZ_ONLY}'` : ''}\n`);

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const result = spawnSync(process.execPath, [vitest, 'run', 'test/fuzz.test.ts'], {
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs, FUZZ_REPORT: '1' },
});
process.exit(result.status ?? 1);
