import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves once the message is handed over (SMTP accepted it, or the .eml file is written). */
  send: (message: MailMessage) => Promise<void>;
}

/**
 * SMTP when SMTP_URL is set. Without it (dev) every message is rendered to a .eml file in
 * DATA_DIR/outbox, so invitations can be opened and their links followed without a mail server.
 * No pooled connections: each send opens and closes its own, so there is nothing to close.
 */
export function createMailer(config: Config): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    // Each send rejects with its own failure; an 'error' the transport emits besides (an OAuth2
    // token refresh failing) has no listener otherwise and would end the worker process.
    transport.on('error', () => undefined);
    return {
      send: async (message) => {
        await transport.sendMail({ from: config.MAIL_FROM, ...message });
      },
    };
  }
  const outbox = path.resolve(config.DATA_DIR, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
      await mkdir(outbox, { recursive: true });
      // Sortable by time; the Message-ID keeps two messages of the same millisecond apart.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`;
      await writeFile(path.join(outbox, name), info.message as Buffer);
    },
  };
}
