import type { Db } from '../../db/prisma.js';
import { AppError, type FieldError } from '../../http/problem.js';
import { findClientByClientId } from './clients.repository.js';
import type { AttemptLimit, FailedAttempts } from './failed-attempts.js';
import { verifySecretIfAny } from './secret-hash.js';
import type { SigningKeys } from '../../credentials/signing-keys.js';
import { issueAccessToken, TOKEN_SCOPE } from './tokens.js';
import type { VerifiedSecrets } from './verified-secrets.js';

/** RFC 6749 section 5.2 errors, delivered as problem bodies that also carry `error`. */
export class OAuthError extends AppError {
  constructor(
    status: 400 | 401 | 429,
    code: string,
    description: string,
    headers: Record<string, string> = {},
    errors?: FieldError[],
  ) {
    super(status, description, {
      title: code,
      errors,
      headers: { 'cache-control': 'no-store', ...headers },
      extensions: { error: code, error_description: description },
    });
  }
}

export interface TokenRequest {
  grant_type?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
}

export interface TokenIssuerOptions {
  issuer: string;
  ttlSeconds: number;
}

/** What guards the secret check: failed-attempt limits and the secrets verified before. */
export interface ClientAuthGuard {
  /** The caller's address (request.ip: the socket's, or a trusted proxy's X-Forwarded-For). */
  address: string;
  failures: FailedAttempts;
  verified: VerifiedSecrets;
  maxFailuresPerClient: number;
  maxFailuresPerAddress: number;
}

/**
 * The client whose secret this is, or 401. Past the failed-attempt limit of the client id or of
 * the address, 429 without running scrypt, even for the right secret: until the window ends,
 * only a secret this process has verified before (VerifiedSecrets) still gets a token, so a
 * client that already has tokens is not locked out by someone guessing at its client id.
 */
async function authenticateClient(
  db: Db,
  clientId: string,
  clientSecret: string,
  guard: ClientAuthGuard,
  challenge: Record<string, string>,
) {
  const client = await findClientByClientId(db, clientId);
  if (client && guard.verified.matches(client, clientSecret)) return client;

  const limits: AttemptLimit[] = [
    { key: `token-failures:client:${clientId}`, max: guard.maxFailuresPerClient },
    { key: `token-failures:address:${guard.address}`, max: guard.maxFailuresPerAddress },
  ];
  const reservation = await guard.failures.reserve(limits);
  if (!reservation.allowed) {
    const wait = reservation.retryAfterSeconds;
    throw new OAuthError(429, 'temporarily_unavailable', `Too many failed attempts for this client or address; retry in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const valid = await verifySecretIfAny(clientSecret, client?.secretHash);
  if (!client || !valid) throw new OAuthError(401, 'invalid_client', 'Client authentication failed', challenge);
  await guard.failures.release(limits);
  guard.verified.remember(client, clientSecret);
  return client;
}

export async function exchangeClientCredentials(
  db: Db,
  keys: SigningKeys,
  request: TokenRequest,
  basicAuth: { clientId: string; clientSecret: string } | undefined,
  guard: ClientAuthGuard,
  options: TokenIssuerOptions,
): Promise<TokenResponse> {
  if (!request.grant_type) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
  if (request.grant_type !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
  }
  if (basicAuth && (request.client_id || request.client_secret)) {
    throw new OAuthError(400, 'invalid_request', 'Use either HTTP Basic or body client credentials, not both');
  }
  const clientId = basicAuth?.clientId ?? request.client_id;
  const clientSecret = basicAuth?.clientSecret ?? request.client_secret;
  if (!clientId || !clientSecret) throw new OAuthError(400, 'invalid_request', 'client_id and client_secret are required');
  if (request.scope !== undefined && !request.scope.split(' ').every((s) => s === TOKEN_SCOPE)) {
    throw new OAuthError(400, 'invalid_scope', `The only scope is ${TOKEN_SCOPE}`);
  }

  const challenge: Record<string, string> = basicAuth ? { 'www-authenticate': 'Basic realm="token"' } : {};
  const client = await authenticateClient(db, clientId, clientSecret, guard, challenge);
  if (client.secretExpiresAt.getTime() <= Date.now()) {
    throw new OAuthError(401, 'invalid_client', 'The client secret has expired; rotate it', challenge);
  }
  const accessToken = await issueAccessToken(
    keys,
    { tenantId: client.tenantId, clientId: client.clientId, secretVersion: client.secretVersion },
    options,
  );
  return { access_token: accessToken, expires_in: options.ttlSeconds, token_type: 'Bearer', scope: TOKEN_SCOPE };
}
