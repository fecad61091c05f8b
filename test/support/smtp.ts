import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  /** For SMTP_URL. */
  url: string;
  /** Waits for a message to that address. */
  waitFor: (to: string, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

/** An in-process SMTP server on a free port of 127.0.0.1 that keeps every message it receives. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    waitFor: async (to, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => m.to.includes(to));
        if (mail) return mail;
        if (Date.now() > deadline) expect.fail(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The accept link of an invitation message: plain text as the mailer built it, or a raw MIME
 * message as SMTP carried it (`quotedPrintable`: soft breaks and =XX escapes undone first). Plain
 * text must not be decoded: a token may itself contain "=7A"-like sequences after "token".
 */
export function acceptLinkOf(text: string, options: { quotedPrintable?: boolean } = {}): URL {
  const decoded = options.quotedPrintable
    ? text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
  const match = decoded.match(/https?:\/\/\S+\/invitations\/accept\?token=[\w-]+/);
  if (!match) expect.fail(`no accept link in:\n${text}`);
  return new URL(match[0]);
}
