/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signature is the base64
 * HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` keyed with the secret's bytes
 * (`whsec_` + base64), sent as `v1,<signature>`; several are space-separated (a rotation's grace).
 * Receivers verify with any Standard Webhooks library; the tests use the reference one.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: within the 24 to 64 the specification asks for. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt, signed with every secret given (current first). */
export function signDelivery(secrets: readonly string[], messageId: string, sentAt: Date, body: string): SignedHeaders {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`);
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
