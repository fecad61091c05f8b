/**
 * Time-limited download links for stored files: the link itself is the credential, so it can be
 * handed to a browser or another system without a bearer token. Every api instance must share
 * the secret (FILE_URL_SECRET), or links signed by one instance fail on another.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { assertValidBlobKey } from './blob-store.js';

export const FILE_DOWNLOAD_PATH = '/files/download';

export interface SignFileUrlInput {
  baseUrl: string;
  key: string;
  expiresAt: Date;
  secret: string;
  /** Name the download is saved under; signed too, so it cannot be swapped. */
  filename?: string;
}

/** The query of a signed link as a router hands it over; anything but single strings is invalid. */
export type SignedFileQuery = Partial<Record<'expires' | 'sig' | 'filename', unknown>>;

export type SignedFileVerdict = 'ok' | 'expired' | 'invalid';

/** `filename` is '' when the link names none. */
function signature(secret: string, key: string, expires: string, filename: string): string {
  // JSON keeps the fields apart whatever characters a filename holds.
  const message = JSON.stringify([key, expires, filename]);
  return createHmac('sha256', secret).update(message).digest('base64url');
}

export function signFileUrl({ baseUrl, key, expiresAt, secret, filename }: SignFileUrlInput): string {
  assertValidBlobKey(key);
  // Rounded down: a link never outlives the requested expiry.
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  const query = new URLSearchParams({ expires });
  if (filename) query.set('filename', filename);
  query.set('sig', signature(secret, key, expires, filename ?? ''));
  // Key characters are all URL-safe, so the key is the path as it is.
  return `${baseUrl.replace(/\/+$/, '')}${FILE_DOWNLOAD_PATH}/${key}?${query.toString()}`;
}

/** Checks a signed link; the signature is checked before the expiry, so a forged link is always `invalid`. */
export function verifySignedFile(
  key: string,
  query: SignedFileQuery,
  secret: string,
  now: Date = new Date(),
): SignedFileVerdict {
  const { expires, sig, filename = '' } = query;
  if (typeof expires !== 'string' || !/^\d{1,15}$/.test(expires) || typeof sig !== 'string' || typeof filename !== 'string') {
    return 'invalid';
  }
  const expected = Buffer.from(signature(secret, key, expires, filename));
  const given = Buffer.from(sig);
  // timingSafeEqual needs equal lengths; the length of a signature is no secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return now.getTime() >= Number(expires) * 1000 ? 'expired' : 'ok';
}

const SECRET_FILE = 'file-url-secret';

/**
 * FILE_URL_SECRET when set (required when several machines serve links), otherwise a secret
 * generated once into DATA_DIR so links survive restarts of a single machine.
 */
export async function loadFileUrlSecret(config: Pick<Config, 'FILE_URL_SECRET' | 'DATA_DIR'>): Promise<string> {
  if (config.FILE_URL_SECRET) return config.FILE_URL_SECRET;
  const file = path.join(config.DATA_DIR, SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing !== undefined) return existing;

  await mkdir(config.DATA_DIR, { recursive: true });
  // Written completely under a private name first, then linked into place: link fails when the
  // file exists, so of two processes starting together one wins and the other reads its secret,
  // and nobody can read a half-written file.
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(temp, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  } finally {
    await unlink(temp);
  }
  const secret = await readSecretFile(file);
  if (secret === undefined) throw new Error(`${file} disappeared while it was being created.`);
  return secret;
}

async function readSecretFile(file: string): Promise<string | undefined> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const secret = content.trim();
  // The same floor the config puts on FILE_URL_SECRET.
  if (secret.length < 32) throw new Error(`${file} holds no usable secret (at least 32 characters expected).`);
  return secret;
}
