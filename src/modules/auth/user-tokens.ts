import { z } from 'zod';
import { bodyRowId } from '../../http/schemas.js';
import type { SigningKeys } from '../../credentials/signing-keys.js';
import { claimsOf, signToken, verifyToken, type TokenKind, type TokenOptions } from './tokens.js';

/**
 * Tokens of logged-in users (the reviewer API). Their own audience and `typ` keep them apart from
 * client-credentials tokens: neither is accepted on the other's API.
 */
const USER_TOKEN: TokenKind = { audience: 'docproc-review', typ: 'review+jwt' };

const userSubject = (userId: number) => `user:${userId}`;

/** What a user token carries, as issueUserToken writes it (its subject names the same user as uid). */
const userTokenClaims = z
  .object({ sub: z.string(), uid: bodyRowId, tid: bodyRowId })
  .refine((claims) => claims.sub === userSubject(claims.uid), { path: ['sub'], message: 'names another user than uid' });

export interface UserTokenClaims {
  userId: number;
  tenantId: number;
}

export function issueUserToken(keys: SigningKeys, claims: UserTokenClaims, options: TokenOptions): Promise<string> {
  return signToken(keys, USER_TOKEN, userSubject(claims.userId), { uid: claims.userId, tid: claims.tenantId }, options);
}

export async function verifyUserToken(keys: SigningKeys, token: string, issuer: string): Promise<UserTokenClaims> {
  const { uid, tid } = claimsOf(userTokenClaims, await verifyToken(keys, USER_TOKEN, token, issuer));
  return { userId: uid, tenantId: tid };
}
