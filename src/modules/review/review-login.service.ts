import type { AppDeps } from '../../app-deps.js';
import { BadRequestError, UnauthorizedError } from '../../http/problem.js';
import { verifySecretIfAny } from '../auth/secret-hash.js';
import { issueUserToken } from '../auth/user-tokens.js';
import { findActiveUsersByEmail } from './review.repository.js';
import type { LoginBody, LoginResponse } from './review.schemas.js';

/**
 * Password login of an Active user (one who accepted an invitation). The same email may belong
 * to users of several organizations: every one of them is checked, and when the password opens
 * more than one, the caller must say which organization (tenantId). Only someone who knows the
 * password learns which organizations those are, and an unknown email costs the same hashing.
 */
export async function login(deps: Pick<AppDeps, 'prisma' | 'keys' | 'config'>, body: LoginBody): Promise<LoginResponse> {
  const users = await findActiveUsersByEmail(deps.prisma, body.email, body.tenantId);
  const matching: typeof users = [];
  for (const user of users) if (await verifySecretIfAny(body.password, user.passwordHash)) matching.push(user);
  if (users.length === 0) await verifySecretIfAny(body.password, null);

  const [user, ...others] = matching;
  if (!user) throw new UnauthorizedError('Wrong email or password', { title: 'InvalidCredentials' });
  if (others.length) {
    throw new BadRequestError('This email belongs to users of several organizations: send tenantId with one of them', {
      title: 'TenantRequired',
      errors: [{ field: 'tenantId', message: 'required: the email belongs to users of several organizations' }],
      extensions: { tenants: matching.map((u) => ({ tenantId: u.tenantId, name: u.tenant.name })) },
    });
  }
  const ttlSeconds = deps.config.TOKEN_TTL_SECONDS;
  const token = await issueUserToken(deps.keys, { userId: user.id, tenantId: user.tenantId }, { issuer: deps.config.JWT_ISSUER, ttlSeconds });
  return { access_token: token, expires_in: ttlSeconds, token_type: 'Bearer' };
}
