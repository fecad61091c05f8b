/**
 * Authorization headers an attacker or a broken client sends, derived from a genuine token so the
 * claims look right: unsigned (alg none), signed by another key, HMAC-signed with the public key,
 * expired, not yet valid, for another issuer or audience, payload swapped under the original
 * signature, plain garbage, and tokens signed with the service's own key whose claims have a shape
 * it never issues (forgedClaims).
 */
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import type { SigningKeys } from '../../src/credentials/signing-keys.js';

export interface ForgedCredential {
  label: string;
  /** The headers to send instead of the genuine Authorization (empty: none at all). */
  headers: Record<string, string>;
}

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function bearer(label: string, token: string): ForgedCredential {
  return { label, headers: { authorization: `Bearer ${token}` } };
}

/** A token with the genuine one's header and claims, changed by `change`, signed with `key` (alg ES256). */
async function resign(genuine: string, key: CryptoKey | Uint8Array, alg: string, change: (claims: JWTPayload) => JWTPayload): Promise<string> {
  const header = decodeProtectedHeader(genuine);
  return new SignJWT(change({ ...decodeJwt(genuine) }))
    .setProtectedHeader({ ...header, alg })
    .sign(key);
}

/** Headers that must all be refused with 401 (or 403) wherever `genuine` is accepted. */
export async function forgeCredentials(keys: SigningKeys, genuine: string): Promise<ForgedCredential[]> {
  const [header, payload] = genuine.split('.') as [string, string, string];
  const claims = decodeJwt(genuine);
  const now = Math.floor(Date.now() / 1000);
  const stranger = await generateKeyPair('ES256');
  const publicKeyBytes = new TextEncoder().encode(JSON.stringify(keys.publicJwk));
  const otherTenant = typeof claims.tid === 'number' ? claims.tid + 1 : 1;
  return [
    { label: 'no Authorization header', headers: {} },
    { label: 'scheme only', headers: { authorization: 'Bearer' } },
    { label: 'empty token', headers: { authorization: 'Bearer ' } },
    { label: 'Basic scheme', headers: { authorization: `Basic ${Buffer.from('client:secret').toString('base64')}` } },
    { label: 'token without scheme', headers: { authorization: genuine } },
    { label: 'two tokens', headers: { authorization: `Bearer ${genuine} ${genuine}` } },
    bearer('not a JWT', 'not-a-jwt'),
    bearer('three empty parts', '..'),
    bearer('garbage parts', 'a.b.c'),
    bearer('64 KB token', 'A'.repeat(65_536)),
    bearer('token with a byte appended', `${genuine}x`),
    bearer('signature removed', `${header}.${payload}.`),
    bearer('alg none', `${b64url({ alg: 'none', typ: decodeProtectedHeader(genuine).typ })}.${payload}.`),
    bearer('header not JSON', `${b64url('{{{')}.${payload}.${genuine.split('.')[2]}`),
    bearer('payload not JSON', `${header}.${b64url('[[[')}.${genuine.split('.')[2]}`),
    bearer('another organization in the payload, original signature', `${header}.${b64url({ ...claims, tid: otherTenant })}.${genuine.split('.')[2]}`),
    bearer('signed by another key', await resign(genuine, stranger.privateKey, 'ES256', (c) => c)),
    bearer('HS256 with the public key as secret', await resign(genuine, publicKeyBytes, 'HS256', (c) => c)),
    bearer('expired', await resign(genuine, keys.privateKey, 'ES256', (c) => ({ ...c, iat: now - 7200, exp: now - 3600 }))),
    bearer('not valid yet', await resign(genuine, keys.privateKey, 'ES256', (c) => ({ ...c, nbf: now + 3600 }))),
    bearer('another issuer', await resign(genuine, keys.privateKey, 'ES256', (c) => ({ ...c, iss: 'someone-else' }))),
    bearer('another audience', await resign(genuine, keys.privateKey, 'ES256', (c) => ({ ...c, aud: 'somewhere-else' }))),
    ...(await forgeClaims(keys, genuine)),
  ];
}

/** 2^53 + 2: a JSON number JavaScript reads exactly, far past any int4 id. */
const BEYOND_SAFE_INTEGERS = 2 ** 53 + 2;

/** Values of the wrong shape for a claim the genuine token carries as a number (an id, a version). */
function badNumbers(value: number): Array<[string, unknown]> {
  return [
    ['2^31 (past int4)', 2 ** 31],
    ['2^53+2', BEYOND_SAFE_INTEGERS],
    ['1e300', 1e300],
    ['1.5', 1.5],
    ['its value plus 0.5', value + 0.5],
    ['negative', -value],
    ['zero', 0],
    ['a numeric string', String(value)],
    ['a word', 'one'],
    ['null', null],
    ['true', true],
    ['an array', [value]],
    ['an object', { value }],
  ];
}

/** Values of the wrong shape for a claim the genuine token carries as a string. */
function badStrings(value: string): Array<[string, unknown]> {
  return [
    ['empty', ''],
    ['a number', 1],
    ['null', null],
    ['an array', [value]],
    ['an object', { value }],
    ['1000 characters', 'x'.repeat(1000)],
  ];
}

/** A change of a token's claims that sets `name` to `value`, whatever type the claim should have. */
function withClaim(name: string, value: unknown): (claims: JWTPayload) => JWTPayload {
  return (claims) => ({ ...claims, [name]: value });
}

/**
 * Tokens signed with the service's own key (so only the claims can refuse them) whose claims
 * the service never issues: each claim of the genuine token removed, or given a value of another
 * type or out of range; a token without exp; the client token's scope changed.
 */
export async function forgeClaims(keys: SigningKeys, genuine: string): Promise<ForgedCredential[]> {
  const claims = decodeJwt(genuine);
  const ours = (label: string, change: (c: JWTPayload) => JWTPayload) => resign(genuine, keys.privateKey, 'ES256', change).then((token) => bearer(`signed by us, ${label}`, token));
  const forged: Array<Promise<ForgedCredential>> = [];
  for (const name of ['tid', 'uid', 'sv', 'sub', 'scope'] as const) {
    const value = claims[name];
    if (value === undefined) continue;
    forged.push(ours(`${name} missing`, ({ [name]: _gone, ...rest }) => rest));
    const variants = typeof value === 'number' ? badNumbers(value) : typeof value === 'string' ? badStrings(value) : [];
    for (const [what, bad] of variants) forged.push(ours(`${name} ${what}`, withClaim(name, bad)));
  }
  if (claims.scope !== undefined) forged.push(ours('scope of another API', (c) => ({ ...c, scope: 'Admin' })));
  forged.push(ours('exp missing', ({ exp: _gone, ...rest }) => rest));
  forged.push(ours('exp a string', withClaim('exp', String(claims.exp))));
  return Promise.all(forged);
}
