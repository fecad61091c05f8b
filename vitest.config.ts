import { defineConfig } from 'vitest/config';

/**
 * The pure layer: models, engines and planning rules on files and in-memory values, no Postgres,
 * Redis or S3 (`npm run test:unit`: no global set-up, nothing to start; most of its time is the
 * real OCR engines). Everything else is an integration test through HTTP against the real
 * services, behind the global set-up.
 */
const UNIT = [
  'test/models/**/*.test.ts',
  'test/engines/**/*.test.ts',
  'test/net/url-guard.test.ts',
  'test/page-range.test.ts',
  'test/semaphore.test.ts',
  'test/import-cycles.test.ts',
  'test/prisma-in-repositories.test.ts',
  'test/docs-links.test.ts',
  'test/bench/public-invoices.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more parallel files would only contend for CPU with Postgres and the engines.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: UNIT, globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
