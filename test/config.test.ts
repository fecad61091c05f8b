import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('applies the documented defaults and freezes the result', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.TOKEN_TTL_SECONDS).toBe(3600);
    expect(config.MAX_SOURCE_BYTES).toBe(1024 ** 3);
    expect(config.SOURCE_URL_ALLOW_PRIVATE).toBe(false);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', SOURCE_URL_ALLOW_PRIVATE: 'maybe', CLIENT_SECRET_TTL_DAYS: '400' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems.sort()).toEqual(['CLIENT_SECRET_TTL_DAYS', 'LOG_LEVEL', 'PORT', 'SOURCE_URL_ALLOW_PRIVATE']);
  });

  it('trusts no proxy by default and reads TRUST_PROXY as a flag, a hop count or addresses/CIDRs', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'FALSE' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const invalid of ['yes please', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,', '::1/129']) {
      expect(() => loadConfig({ TRUST_PROXY: invalid }), invalid).toThrow(/TRUST_PROXY/);
    }
  });

  it('limits failed token attempts and failed logins by default', () => {
    const config = loadConfig({});
    expect(config.TOKEN_FAILURES_PER_CLIENT_PER_MINUTE).toBe(10);
    expect(config.TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE).toBe(30);
    expect(config.LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE).toBe(30);
  });

  it('keeps files locally by default; an S3 store needs its bucket, and access keys go in pairs', () => {
    expect(loadConfig({}).BLOB_STORE).toBe('local');
    const s3 = loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'docproc', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' });
    expect(s3).toMatchObject({ BLOB_STORE: 's3', S3_BUCKET: 'docproc', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
    expect(() => loadConfig({ BLOB_STORE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ BLOB_STORE: 'nfs' })).toThrow(/BLOB_STORE/);
    expect(() => loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'docproc', AWS_ACCESS_KEY_ID: 'key' })).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
