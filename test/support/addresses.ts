import { randomUUID } from 'node:crypto';

/**
 * A client address no other test uses. Failed-attempt counters are kept per address in a Redis
 * shared by every test file (and every run within the minute): a test that counts them sends
 * from addresses of its own.
 */
export function freshAddress(): string {
  const bytes = randomUUID().replace(/-/g, '').slice(0, 6);
  return `10.${parseInt(bytes.slice(0, 2), 16)}.${parseInt(bytes.slice(2, 4), 16)}.${parseInt(bytes.slice(4, 6), 16)}`;
}
