import { SignJWT, generateKeyPair, jwtVerify, createLocalJWKSet, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateClientSecret } from '../src/modules/tenants/tenants.service.js';
import { issueAccessToken } from '../src/modules/auth/tokens.js';
import { createTestContext, createTestTenant, requestToken, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { waitFor } from './support/processes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

const workspacesUrl = '/api/v1.0/external/sdworkspace/CurrentWorkspaces';

describe('POST /connect/token', () => {
  it('issues a one-hour ES256 Bearer token for form-encoded client credentials', async () => {
    const t = await createTestTenant(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', scope: 'WebAPI', client_id: t.clientId, client_secret: t.clientSecret }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ expires_in: 3600, token_type: 'Bearer', scope: 'WebAPI' });
    // Verifiable by anyone with the published JWKS.
    const jwks = (await ctx.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload, protectedHeader } = await jwtVerify(body.access_token, createLocalJWKSet(jwks));
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.tid).toBe(t.tenantId);
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it('accepts JSON bodies and HTTP Basic client authentication', async () => {
    const t = await createTestTenant(ctx);
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      payload: { grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret },
    });
    expect(json.statusCode).toBe(200);
    const basic = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: {
        authorization: `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials&scope=WebAPI',
    });
    expect(basic.statusCode).toBe(200);
    expect(decodeJwt(basic.json().access_token).tid).toBe(t.tenantId);
  });

  it('answers RFC 6749 errors inside problem bodies', async () => {
    const t = await createTestTenant(ctx);
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ grant_type: 'client_credentials', client_id: t.clientId, client_secret: 'wrong' }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials', client_id: 'no-such-client', client_secret: 'x' }, 401, 'invalid_client'],
      [{ client_id: t.clientId, client_secret: t.clientSecret }, 400, 'invalid_request'],
      [{ grant_type: 'password', client_id: t.clientId, client_secret: t.clientSecret }, 400, 'unsupported_grant_type'],
      [{ grant_type: 'client_credentials', scope: 'Admin', client_id: t.clientId, client_secret: t.clientSecret }, 400, 'invalid_scope'],
      [{ grant_type: 'client_credentials', client_id: t.clientId }, 400, 'invalid_request'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await ctx.app.inject({ method: 'POST', url: '/connect/token', payload });
      const body = expectProblem(res, status);
      expect(body.error, JSON.stringify(payload)).toBe(code);
      expect(body.title).toBe(code);
    }
  });

  it('refuses an expired client secret', async () => {
    const t = await createTestTenant(ctx);
    await ctx.prisma.apiClient.update({ where: { tenantId: t.tenantId }, data: { secretExpiresAt: new Date(Date.now() - 1000) } });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/token',
      payload: { grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret },
    });
    expect(expectProblem(res, 401).error).toBe('invalid_client');
    // ...and the tokens issued before it expired.
    expectProblem(await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: t.headers }), 401);
  });

  it('stores only a slow hash of the secret', async () => {
    const t = await createTestTenant(ctx);
    const row = await ctx.prisma.apiClient.findUniqueOrThrow({ where: { tenantId: t.tenantId } });
    expect(row.secretHash).not.toContain(t.clientSecret);
    expect(row.secretHash).toMatch(/^scrypt\$\d+\$/);
  });
});

describe('Bearer authentication of the external API', () => {
  it('rejects a missing, malformed, forged, tampered or expired token with 401 and WWW-Authenticate', async () => {
    const t = await createTestTenant(ctx);
    const other = await generateKeyPair('ES256');
    const forged = await new SignJWT({ tid: t.tenantId, sv: 1, scope: 'WebAPI' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setSubject(t.clientId)
      .setIssuer(ctx.config.JWT_ISSUER)
      .setAudience('docproc-api')
      .setExpirationTime('1h')
      .sign(other.privateKey);
    const [header, payload, signature] = t.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, tid: claims.tid + 1 })).toString('base64url'), signature].join('.');
    const expired = await new SignJWT({ tid: t.tenantId, sv: 1, scope: 'WebAPI' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: ctx.keys.kid })
      .setSubject(t.clientId)
      .setIssuer(ctx.config.JWT_ISSUER)
      .setAudience('docproc-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(ctx.keys.privateKey);
    const headers: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: `Basic ${t.token}` },
      { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${tampered}` },
      { authorization: `Bearer ${expired}` },
      { authorization: 'Bearer not.a.jwt' },
    ];
    for (const h of headers) {
      const res = await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: h });
      expectProblem(res, 401);
      expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer/);
    }
    const expiredRes = await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: { authorization: `Bearer ${expired}` } });
    expect(expiredRes.json().detail).toMatch(/expired/);
  });

  it('stops the old secret and every token issued with it as soon as the secret is rotated', async () => {
    const t = await createTestTenant(ctx);
    // The api remembers the secret version while it listens for changes: make sure it does, so
    // this proves the rotation reaches a remembered version, not only a database lookup.
    await ctx.clientSecrets.listen();
    expect(ctx.clientSecrets.isListening).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: t.headers })).statusCode).toBe(200);
    const rotated = await rotateClientSecret(ctx.prisma, t.tenantId, 30);
    expect(rotated.clientId).toBe(t.clientId);
    expect(rotated.clientSecret).not.toBe(t.clientSecret);
    // Postgres announces the commit to the api's listening session; that takes a millisecond or so.
    const refused = await waitFor(async () => {
      const res = await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: t.headers });
      return res.statusCode === 200 ? undefined : res;
    }, 'the rotated token to be refused', 100, 20);
    expectProblem(refused, 401);
    await expect(requestToken(ctx.app, t.clientId, t.clientSecret)).rejects.toThrow(/401/);
    const fresh = await requestToken(ctx.app, t.clientId, rotated.clientSecret);
    expect((await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: { authorization: `Bearer ${fresh}` } })).statusCode).toBe(200);
  });

  it('refuses a token whose scope is not WebAPI', async () => {
    const t = await createTestTenant(ctx);
    const token = await new SignJWT({ tid: t.tenantId, sv: 1, scope: 'Other' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setSubject(t.clientId)
      .setIssuer(ctx.config.JWT_ISSUER)
      .setAudience('docproc-api')
      .setExpirationTime('1h')
      .sign(ctx.keys.privateKey);
    expectProblem(await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: { authorization: `Bearer ${token}` } }), 401);
    // Same claims through our issuer do work: the scope alone made the difference.
    const good = await issueAccessToken(ctx.keys, { tenantId: t.tenantId, clientId: t.clientId, secretVersion: 1 }, { issuer: ctx.config.JWT_ISSUER, ttlSeconds: 60 });
    expect((await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers: { authorization: `Bearer ${good}` } })).statusCode).toBe(200);
  });

  it('refuses a token that expired after it was last accepted (the verification cache honours exp)', async () => {
    const t = await createTestTenant(ctx);
    const shortLived = await issueAccessToken(ctx.keys, { tenantId: t.tenantId, clientId: t.clientId, secretVersion: 1 }, { issuer: ctx.config.JWT_ISSUER, ttlSeconds: 1 });
    const headers = { authorization: `Bearer ${shortLived}` };
    expect((await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect(expectProblem(await ctx.app.inject({ method: 'GET', url: workspacesUrl, headers }), 401).detail).toMatch(/expired/);
  });
});
