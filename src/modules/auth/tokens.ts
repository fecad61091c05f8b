import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { z } from 'zod';
import { bodyRowId } from '../../http/schemas.js';
import { TOKEN_ALG, type SigningKeys } from '../../credentials/signing-keys.js';

export const TOKEN_SCOPE = 'WebAPI';

/**
 * What a token is for. Every kind is signed with the same keys, so the audience and the `typ`
 * header are what keep a token of one kind from being accepted where another is expected.
 */
export interface TokenKind {
  audience: string;
  typ: string;
}

/** Client-credentials tokens of the external API. */
const CLIENT_TOKEN: TokenKind = { audience: 'docproc-api', typ: 'at+jwt' };

export interface TokenOptions {
  issuer: string;
  ttlSeconds: number;
}

export function signToken(keys: SigningKeys, kind: TokenKind, subject: string, claims: JWTPayload, options: TokenOptions): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: TOKEN_ALG, kid: keys.kid, typ: kind.typ })
    .setSubject(subject)
    .setIssuer(options.issuer)
    .setAudience(kind.audience)
    .setIssuedAt()
    .setExpirationTime(`${options.ttlSeconds}s`)
    .sign(keys.privateKey);
}

export class InvalidTokenError extends Error {}

/**
 * Tokens already verified, per signing key, until they expire. An integrator sends the same token
 * for an hour: checking its ES256 signature once instead of on every request saves a large share
 * of a small request's CPU. Only the signature check is skipped; what can change (the client's
 * secret version, the user's status) is still read on every request. Bounded: the oldest entries
 * go first.
 */
const verified = new WeakMap<SigningKeys, Map<string, JWTPayload>>();
const MAX_VERIFIED_TOKENS = 10_000;

function cachedPayload(keys: SigningKeys, cacheKey: string): JWTPayload | undefined {
  const payload = verified.get(keys)?.get(cacheKey);
  if (payload && typeof payload.exp === 'number' && payload.exp * 1000 > Date.now()) return payload;
  return undefined;
}

function remember(keys: SigningKeys, cacheKey: string, payload: JWTPayload): void {
  let cache = verified.get(keys);
  if (!cache) verified.set(keys, (cache = new Map()));
  if (cache.size >= MAX_VERIFIED_TOKENS) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey, payload);
}

/** The payload of a valid, unexpired token of `kind`; anything else is an InvalidTokenError. */
export async function verifyToken(keys: SigningKeys, kind: TokenKind, token: string, issuer: string): Promise<JWTPayload> {
  const cacheKey = `${kind.audience} ${kind.typ} ${issuer} ${token}`;
  const cached = cachedPayload(keys, cacheKey);
  if (cached) return cached;
  try {
    // Every token we issue expires: one without exp would be valid forever (and never cached).
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: [TOKEN_ALG],
      issuer,
      audience: kind.audience,
      typ: kind.typ,
      requiredClaims: ['exp'],
    });
    remember(keys, cacheKey, payload);
    return payload;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('The access token has expired');
    throw new InvalidTokenError('The access token is invalid');
  }
}

/**
 * The claims of a verified token that the code goes on to use, or an InvalidTokenError. A valid
 * signature says who issued a token, not that its claims fit: an id past int4, a fraction or a
 * string would reach the database as a query it cannot run (a 500 on every route) or be rounded
 * to another organization. Anything but the shape we issue is refused like a bad signature.
 */
export function claimsOf<T>(schema: z.ZodType<T>, payload: JWTPayload): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'payload')))];
  throw new InvalidTokenError(`The access token has missing or invalid claims: ${names.join(', ')}`);
}

/** What a client-credentials token carries, as issueAccessToken writes it. */
const clientTokenClaims = z.object({
  sub: z.string().min(1).max(200),
  tid: bodyRowId,
  sv: bodyRowId,
  scope: z.literal(TOKEN_SCOPE),
});

export interface TokenClaims {
  tenantId: number;
  clientId: string;
  /** Secret version the token was issued under: a rotation invalidates older tokens at once. */
  secretVersion: number;
}

export function issueAccessToken(keys: SigningKeys, claims: TokenClaims, options: TokenOptions): Promise<string> {
  return signToken(keys, CLIENT_TOKEN, claims.clientId, { tid: claims.tenantId, sv: claims.secretVersion, scope: TOKEN_SCOPE }, options);
}

export async function verifyAccessToken(keys: SigningKeys, token: string, issuer: string): Promise<TokenClaims> {
  const { tid, sv, sub } = claimsOf(clientTokenClaims, await verifyToken(keys, CLIENT_TOKEN, token, issuer));
  return { tenantId: tid, clientId: sub, secretVersion: sv };
}
