import type { Db } from '../../db/prisma.js';
import { AppError } from '../../http/problem.js';
import { findClientByClientId } from './clients.repository.js';
import { verifySecretIfAny } from './secret-hash.js';
import type { SigningKeys } from './signing-keys.js';
import { issueAccessToken, TOKEN_SCOPE } from './tokens.js';

/** RFC 6749 section 5.2 errors, delivered as problem bodies that also carry `error`. */
export class OAuthError extends AppError {
  constructor(status: 400 | 401, code: string, description: string, headers: Record<string, string> = {}) {
    super(status, description, {
      title: code,
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

export async function exchangeClientCredentials(
  db: Db,
  keys: SigningKeys,
  request: TokenRequest,
  basicAuth: { clientId: string; clientSecret: string } | undefined,
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
  const client = await findClientByClientId(db, clientId);
  const valid = await verifySecretIfAny(clientSecret, client?.secretHash);
  if (!client || !valid) throw new OAuthError(401, 'invalid_client', 'Client authentication failed', challenge);
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
