import http, { type IncomingHttpHeaders } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';

export interface RawRequest {
  method: string;
  /** Sent byte for byte: no client normalizes `..`, `//`, `#` or escapes away. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** What expectProblem reads of a response. */
export type RawResponse = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'json'>;

/**
 * A request over a real socket to a listening server, for request targets that app.inject and
 * fetch would normalize before sending (`/files/a/../b`, `/files/a#/b`).
 */
export function rawRequest(base: string, { method, path, headers = {}, body }: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers as IncomingHttpHeaders & LightMyRequestResponse['headers'],
          body: text,
          json: () => JSON.parse(text),
        });
      });
    });
    req.end(body);
  });
}
