import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';

export const TOKEN_ALG = 'ES256';

export interface SigningKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  kid: string;
  /** The public half as published at /.well-known/jwks.json. */
  publicJwk: JWK;
}

async function fromPrivatePem(pem: string): Promise<SigningKeys> {
  const privateKey = await importPKCS8(pem, TOKEN_ALG, { extractable: true });
  const { d: _private, ...publicJwk } = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const { importJWK } = await import('jose');
  const publicKey = (await importJWK({ ...publicJwk, alg: TOKEN_ALG }, TOKEN_ALG)) as CryptoKey;
  return { privateKey, publicKey, kid, publicJwk: { ...publicJwk, kid, alg: TOKEN_ALG, use: 'sig' } };
}

export async function generatePrivatePem(): Promise<string> {
  const { privateKey } = await generateKeyPair(TOKEN_ALG, { extractable: true });
  return exportPKCS8(privateKey);
}

/**
 * The token signing key: JWT_PRIVATE_KEY when set (every api instance must share it), otherwise
 * one generated once into the data directory so tokens survive restarts of a single machine.
 */
export async function loadSigningKeys(options: { privateKeyPem?: string; dataDir?: string }): Promise<SigningKeys> {
  if (options.privateKeyPem) return fromPrivatePem(options.privateKeyPem.replace(/\\n/g, '\n'));
  if (!options.dataDir) return fromPrivatePem(await generatePrivatePem());
  const file = path.join(options.dataDir, 'jwt-private-key.pem');
  try {
    return await fromPrivatePem(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const pem = await generatePrivatePem();
  await mkdir(options.dataDir, { recursive: true });
  // 'wx' so that two processes starting together cannot both write a key: the loser re-reads.
  await writeFile(file, pem, { mode: 0o600, flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return fromPrivatePem(await readFile(file, 'utf8'));
}
