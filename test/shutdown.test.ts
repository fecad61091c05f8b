/**
 * The api process on SIGTERM: a client whose request arrives while it shuts down gets an answer,
 * never a connection reset (from which it could not tell whether the request was carried out).
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { exited, freePort, repoRoot, startRole, waitFor } from './support/processes.js';

const dataDir = await mkdtemp(path.join(repoRoot, '.data', 'shutdown-'));
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

type Outcome = { status: number; retryAfter?: string; contentType?: string; body: string } | { error: string };

/** One GET on a connection of its own (no keep-alive pool): its answer, or the socket's error. */
function getOnce(url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'], contentType: response.headers['content-type'], body }),
      );
      response.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    request.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

describe('SIGTERM of the api process', { timeout: 120_000 }, () => {
  it('answers every request of a burst arriving with the signal, normally or 503 with Retry-After: no connection reset', async () => {
    const port = await freePort();
    const api = startRole(['serve'], {
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: inject('redisUrl'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), `the api to listen\n${api.output()}`);
      // A burst of requests on fresh connections, the signal in its midst: 32 over about 30 ms.
      const burst: Array<Promise<Outcome>> = [];
      for (let i = 0; i < 32; i += 1) {
        if (i === 4) api.kill('SIGTERM');
        burst.push(getOnce(`${base}/health`));
        await new Promise((r) => setTimeout(r, 1));
      }
      const outcomes = await Promise.all(burst);
      const failed = outcomes.filter((o) => 'error' in o);
      expect(failed, `requests without an answer: ${JSON.stringify(failed)}`).toEqual([]);
      const answers = outcomes as Array<Extract<Outcome, { status: number }>>;
      for (const answer of answers) {
        if (answer.status === 200) continue;
        expect(answer.status, answer.body).toBe(503);
        expect(answer.retryAfter, 'Retry-After').toMatch(/^\d+$/);
        expect(answer.contentType).toContain('application/problem+json');
        expect(JSON.parse(answer.body)).toMatchObject({ status: 503 });
      }
      // The burst came after the signal for the most part: the drain answered some of it.
      expect(answers.filter((a) => a.status === 503).length, 'requests refused by the drain').toBeGreaterThan(0);
      expect(await exited(api)).toBe(0);
    } finally {
      if (api.exitCode === null && api.signalCode === null) api.kill('SIGKILL');
    }
  });
});
