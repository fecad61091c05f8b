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

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
