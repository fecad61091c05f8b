import type { AppDeps } from '../../app-deps.js';
import { AppError, BadRequestError, UnauthorizedError } from '../../http/problem.js';
import type { AttemptLimit, FailedAttempts } from '../auth/failed-attempts.js';
import { verifySecretIfAny } from '../auth/secret-hash.js';
import { issueUserToken } from '../auth/user-tokens.js';
import { findActiveUsersByEmail } from './review.repository.js';
import type { LoginBody, LoginResponse } from './review.schemas.js';

/** What guards the password check: the failed-login limits of the caller's address. */
export interface LoginGuard {
  /** The caller's address (request.ip: the socket's, or a trusted proxy's X-Forwarded-For). */
  address: string;
  failures: FailedAttempts;
  maxFailuresPerAddress: number;
}

/**
 * Password login of an Active user (one who accepted an invitation). The same email may belong
 * to users of several organizations: every one of them is checked, and when the password opens
 * more than one, the caller must say which organization (tenantId). Only someone who knows the
 * password learns which organizations those are, and an unknown email costs the same hashing.
 *
 * Failed logins are counted per address whatever the email (the per-email limit of the route
 * does not see one password tried against many emails). Past the limit, 429 before any password
 * is checked, the right one too: otherwise a spray would still learn which guess was right.
 */
export async function login(deps: Pick<AppDeps, 'prisma' | 'keys' | 'config'>, body: LoginBody, guard: LoginGuard): Promise<LoginResponse> {
  const limits: AttemptLimit[] = [{ key: `login-failures:address:${guard.address}`, max: guard.maxFailuresPerAddress }];
  const reservation = await guard.failures.reserve(limits);
  if (!reservation.allowed) {
    const wait = reservation.retryAfterSeconds;
    throw new AppError(429, `Too many failed logins from this address; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
  }
  const users = await findActiveUsersByEmail(deps.prisma, body.email, body.tenantId);
  const matching: typeof users = [];
  for (const user of users) if (await verifySecretIfAny(body.password, user.passwordHash)) matching.push(user);
  if (users.length === 0) await verifySecretIfAny(body.password, null);

  const [user, ...others] = matching;
  if (!user) throw new UnauthorizedError('Wrong email or password', { title: 'InvalidCredentials' });
  // The password was right: not a failure, even when the organization is still to be named.
  await guard.failures.release(limits);
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
