/**
 * A real webhook receiver on loopback: records every request it gets and answers 200, or what a
 * test scripted for a path (fail the first n, fail always, redirect). Signatures are verified by
 * the tests with the Standard Webhooks reference library (`standardwebhooks`), as an integrator would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { webhookEventPayload, type WebhookEventPayload } from '../../src/modules/webhooks/webhooks.schemas.js';
import { waitFor } from './processes.js';

export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

type Answer = { status: number; body?: string; headers?: Record<string, string> };

export interface WebhookReceiver {
  url: (path: string) => string;
  received: ReceivedRequest[];
  /** Requests to `path`, in arrival order. */
  at: (path: string) => ReceivedRequest[];
  /** The next answers to `path`, one per request; afterwards 200. */
  script: (path: string, answers: Answer[]) => void;
  /** Every request to `path` gets `answer` until changed (null: back to 200). */
  always: (path: string, answer: Answer | null) => void;
  /** Waits until `path` got `count` requests (or more); returns them. */
  waitForRequests: (path: string, count: number) => Promise<ReceivedRequest[]>;
  close: () => Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const scripted = new Map<string, Answer[]>();
  const fixed = new Map<string, Answer>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const answer = scripted.get(path)?.shift() ?? fixed.get(path) ?? { status: 200, body: 'ok' };
      received.push({ path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    at,
    script: (path, answers) => void scripted.set(path, [...answers]),
    always: (path, answer) => void (answer ? fixed.set(path, answer) : fixed.delete(path)),
    waitForRequests: (path, count) =>
      waitFor(async () => (at(path).length >= count ? at(path) : undefined), `${count} webhook requests to ${path} (got ${at(path).length})`, 600, 100),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Verifies a request as a receiver does, with the reference library (signature, timestamp within
 * its tolerance), and returns the event, checked against the documented schema.
 */
export function verifiedEvent(request: ReceivedRequest, secret: string): WebhookEventPayload {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  const event = new Webhook(secret).verify(request.body, headers);
  return webhookEventPayload.parse(event);
}
