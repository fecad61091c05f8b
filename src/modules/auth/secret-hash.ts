import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Semaphore } from './semaphore.js';

/**
 * Client secrets and user passwords are stored only as scrypt hashes (a deliberately slow,
 * memory-hard KDF built into Node: no native addon to install).
 * Format: scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>, so parameters can be raised later.
 */
const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/**
 * scrypt runs on libuv's thread pool (4 threads by default), a core and 16 MB each for ~50 ms.
 * Unbounded, a burst of guesses at the token or login endpoint takes every pool thread (file
 * and DNS work queue behind it) and every core from everyone else's requests. At most half the
 * cores, and at most two pool threads, derive at once; the rest wait in order.
 */
const MAX_CONCURRENT_DERIVATIONS = Math.max(1, Math.min(2, Math.floor(availableParallelism() / 2)));
const derivations = new Semaphore(MAX_CONCURRENT_DERIVATIONS);

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return derivations.run(
    () =>
      new Promise((resolve, reject) =>
        scrypt(secret, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let throwaway: Promise<string> | undefined;

/**
 * Checks `secret` against `stored`, or when there is nothing stored (unknown client or user)
 * against a throwaway hash and fails: the same work either way, so the response time does not
 * reveal which accounts exist.
 */
export async function verifySecretIfAny(secret: string, stored: string | null | undefined): Promise<boolean> {
  if (stored) return verifySecret(secret, stored);
  await verifySecret(secret, await (throwaway ??= hashSecret(randomToken())));
  return false;
}

/** A random, URL-safe credential (client ids, secrets, invitation tokens). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
