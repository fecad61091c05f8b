import type { SigningKeys } from './signing-keys.js';
import { InvalidTokenError, signToken, verifyToken, type TokenKind, type TokenOptions } from './tokens.js';

/**
 * Tokens of logged-in users (the reviewer API). Their own audience and `typ` keep them apart from
 * client-credentials tokens: neither is accepted on the other's API.
 */
const USER_TOKEN: TokenKind = { audience: 'docproc-review', typ: 'review+jwt' };

export interface UserTokenClaims {
  userId: number;
  tenantId: number;
}

export function issueUserToken(keys: SigningKeys, claims: UserTokenClaims, options: TokenOptions): Promise<string> {
  return signToken(keys, USER_TOKEN, `user:${claims.userId}`, { uid: claims.userId, tid: claims.tenantId }, options);
}

export async function verifyUserToken(keys: SigningKeys, token: string, issuer: string): Promise<UserTokenClaims> {
  const { uid, tid } = await verifyToken(keys, USER_TOKEN, token, issuer);
  if (typeof uid !== 'number' || typeof tid !== 'number') throw new InvalidTokenError('The access token is missing required claims');
  return { userId: uid, tenantId: tid };
}
