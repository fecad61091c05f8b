import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Asserts an RFC 7807 problem response with our traceId, and returns its body. */
export function expectProblem(res: LightMyRequestResponse, status: number, title?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  expect(body.traceId).toBe(res.headers['x-request-id']);
  if (title !== undefined) expect(body.title).toBe(title);
  return body;
}
