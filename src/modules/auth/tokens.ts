import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { TOKEN_ALG, type SigningKeys } from './signing-keys.js';

export const TOKEN_SCOPE = 'WebAPI';
const AUDIENCE = 'docproc-api';

export interface TokenClaims {
  tenantId: number;
  clientId: string;
  /** Secret version the token was issued under: a rotation invalidates older tokens at once. */
  secretVersion: number;
}

export async function issueAccessToken(
  keys: SigningKeys,
  claims: TokenClaims,
  options: { issuer: string; ttlSeconds: number },
): Promise<string> {
  return new SignJWT({ tid: claims.tenantId, sv: claims.secretVersion, scope: TOKEN_SCOPE })
    .setProtectedHeader({ alg: TOKEN_ALG, kid: keys.kid, typ: 'at+jwt' })
    .setSubject(claims.clientId)
    .setIssuer(options.issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${options.ttlSeconds}s`)
    .sign(keys.privateKey);
}

export class InvalidTokenError extends Error {}

export async function verifyAccessToken(keys: SigningKeys, token: string, issuer: string): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: [TOKEN_ALG],
      issuer,
      audience: AUDIENCE,
      typ: 'at+jwt',
    });
    const { tid, sv, sub, scope } = payload as Record<string, unknown>;
    if (typeof tid !== 'number' || typeof sv !== 'number' || typeof sub !== 'string' || scope !== TOKEN_SCOPE) {
      throw new InvalidTokenError('The access token is missing required claims');
    }
    return { tenantId: tid, clientId: sub, secretVersion: sv };
  } catch (err) {
    if (err instanceof InvalidTokenError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('The access token has expired');
    throw new InvalidTokenError('The access token is invalid');
  }
}
