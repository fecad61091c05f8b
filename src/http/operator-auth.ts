/**
 * Operator credentials from the configuration (METRICS_TOKEN, ADMIN_TOKEN, ADMIN_USER and
 * ADMIN_PASSWORD), for the operations endpoints; organizations' clients never reach them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from './caller.js';

/** Compared as digests: equal lengths for timingSafeEqual, and no timing on the secret's length. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = bearerToken(authorization);
  return presented !== undefined && sameSecret(presented, token);
}

export function basicMatches(authorization: string | undefined, user: string, password: string): boolean {
  const encoded = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i)?.[1];
  if (!encoded) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Both compared, whatever the first gives: no early answer on a wrong user name.
  const userOk = sameSecret(decoded.slice(0, colon), user);
  const passwordOk = sameSecret(decoded.slice(colon + 1), password);
  return userOk && passwordOk;
}
