/** `loadConfig`: defaults, `CASI_API_KEYS` entries, the loopback rule and errors naming the variable. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopback, loadConfig, MAX_DURATION_SECONDS } from '../../reference/config.js';

describe('loadConfig', () => {
  it('applies every default and generates one development key when CASI_API_KEYS is unset', () => {
    const { config, generatedKey } = loadConfig({});
    expect(config).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      tokenTtlSeconds: 10_800,
      eventRetentionSeconds: 86_400,
      rateLimit: null,
      chatAsyncIdleSeconds: 600,
      webhook: null,
    });
    expect(generatedKey).toMatchObject({ org: 'org_default', scope: 'write' });
    expect(generatedKey?.key).toMatch(/^casi_dev_[A-Za-z0-9]{32}$/);
    expect(config.apiKeys).toEqual([generatedKey]);
  });

  it.each([
    ['k1', [{ key: 'k1', org: 'org_default', scope: 'write' }]],
    ['k1:acme', [{ key: 'k1', org: 'acme', scope: 'write' }]],
    [
      'k1:acme:read, k2:beta:write',
      [
        { key: 'k1', org: 'acme', scope: 'read' },
        { key: 'k2', org: 'beta', scope: 'write' },
      ],
    ],
  ])('parses CASI_API_KEYS=%s', (value, keys) => {
    const { config, generatedKey } = loadConfig({ CASI_API_KEYS: value });
    expect(config.apiKeys).toEqual(keys);
    expect(generatedKey).toBeNull();
  });

  it.each([
    [{ CASI_API_KEYS: 'k1:acme:admin' }, 'CASI_API_KEYS'],
    [{ CASI_API_KEYS: 'k1:a:read:x' }, 'CASI_API_KEYS'],
    [{ CASI_API_KEYS: 'k1,k1' }, 'CASI_API_KEYS'],
    [{ CASI_API_KEYS: ' , ' }, 'CASI_API_KEYS'],
    [{ HOST: '0.0.0.0' }, 'CASI_API_KEYS'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CASI_TOKEN_TTL_SECONDS: '0' }, 'CASI_TOKEN_TTL_SECONDS'],
    [{ CASI_EVENT_RETENTION_SECONDS: '-5' }, 'CASI_EVENT_RETENTION_SECONDS'],
    [{ CASI_RATE_LIMIT: 'fast' }, 'CASI_RATE_LIMIT'],
    [{ CASI_CHAT_ASYNC_IDLE_SECONDS: '1.5' }, 'CASI_CHAT_ASYNC_IDLE_SECONDS'],
    [{ CASI_WEBHOOK_URL: 'not a url', CASI_WEBHOOK_SECRET: 's' }, 'CASI_WEBHOOK_URL'],
    [{ CASI_WEBHOOK_URL: 'ftp://example.org/hook', CASI_WEBHOOK_SECRET: 's' }, 'CASI_WEBHOOK_URL'],
    [{ CASI_WEBHOOK_URL: 'https://example.org/hook' }, 'CASI_WEBHOOK_SECRET'],
    [{ CASI_WEBHOOK_SECRET: 's' }, 'CASI_WEBHOOK_URL'],
  ])('refuses %o naming %s', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message.startsWith(`${variable}: `)).toBe(true);
  });

  it('accepts a public HOST when keys are configured, and reads every number', () => {
    const { config } = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      CASI_API_KEYS: 'k',
      CASI_TOKEN_TTL_SECONDS: '60',
      CASI_EVENT_RETENTION_SECONDS: '120',
      CASI_RATE_LIMIT: '2.5',
      CASI_CHAT_ASYNC_IDLE_SECONDS: '30',
      CASI_WEBHOOK_URL: 'https://example.org/hook',
      CASI_WEBHOOK_SECRET: 'whsec',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      tokenTtlSeconds: 60,
      eventRetentionSeconds: 120,
      rateLimit: 2.5,
      chatAsyncIdleSeconds: 30,
      webhook: { url: 'https://example.org/hook', secret: 'whsec' },
    });
  });

  it.each(['off', '0', ''])('turns the rate limit off for CASI_RATE_LIMIT=%j', (value) => {
    expect(loadConfig({ CASI_RATE_LIMIT: value }).config.rateLimit).toBeNull();
  });

  it.each(['CASI_TOKEN_TTL_SECONDS', 'CASI_EVENT_RETENTION_SECONDS', 'CASI_CHAT_ASYNC_IDLE_SECONDS'])(
    'caps %s at 10 years',
    (variable) => {
      expect(MAX_DURATION_SECONDS).toBe(315_360_000);
      const max = String(MAX_DURATION_SECONDS);
      expect(Object.values(loadConfig({ [variable]: max }).config)).toContain(MAX_DURATION_SECONDS);
      for (const value of [String(MAX_DURATION_SECONDS + 1), String(Number.MAX_SAFE_INTEGER)]) {
        expect(() => loadConfig({ [variable]: value })).toThrow(
          new ConfigError(variable, `must be an integer from 1 to ${max}, not "${value}"`),
        );
      }
    },
  );

  it.each([
    ['k1,k2,bad key,k4', 'entry 3 (bad …) is not key[:org[:scope]]'],
    ['k1, ,k2,k3:acme:admin', 'entry 4 (****): the scope must be read or write, not "admin"'],
    ['alpha1,beta22,alpha1', 'entries 1 and 3 list the same key alph…'],
  ])('names the bad entry of CASI_API_KEYS=%s by its position', (value, message) => {
    expect(() => loadConfig({ CASI_API_KEYS: value })).toThrow(`CASI_API_KEYS: ${message}`);
  });

  it('never shows a whole key in a message', () => {
    expect(() => loadConfig({ CASI_API_KEYS: 'supersecretkey:org:owner' })).toThrow(/supe…/);
    expect(() => loadConfig({ CASI_API_KEYS: 'supersecretkey:org:owner' })).not.toThrow(/supersecretkey/);
  });
});

describe('CASI_DATABASE_URL', () => {
  it.each([
    [undefined, { kind: 'embedded', path: resolve('.casi') }],
    ['memory:', { kind: 'memory' }],
    ['file:./state/db', { kind: 'embedded', path: resolve('state/db') }],
    ['file:/var/lib/casi', { kind: 'embedded', path: resolve('/var/lib/casi') }],
    ['postgres://casi@127.0.0.1:5432/casi', { kind: 'postgres', url: 'postgres://casi@127.0.0.1:5432/casi' }],
    ['postgresql://db.example.com/casi', { kind: 'postgres', url: 'postgresql://db.example.com/casi' }],
  ])('%s → %j', (value, expected) => {
    const env = value === undefined ? {} : { CASI_DATABASE_URL: value };
    expect(loadConfig(env).config.database).toEqual(expected);
  });

  it.each([
    ['file:', 'CASI_DATABASE_URL: file: needs a folder path, as in file:./data'],
    ['mysql://db/casi', 'CASI_DATABASE_URL: must be memory:, file:PATH or a postgres:// URL, not "mysql://db/casi"'],
    ['memory', 'CASI_DATABASE_URL: must be memory:, file:PATH or a postgres:// URL, not "memory"'],
    ['postgres://', 'CASI_DATABASE_URL: is not a valid PostgreSQL URL: postgres://'],
    [
      'https://u:hunter2@db.example.com/casi',
      'CASI_DATABASE_URL: must be memory:, file:PATH or a postgres:// URL, not "https://u:****@db.example.com/casi"',
    ],
  ])('refuses %s, naming the variable and never the password', (value, message) => {
    expect(() => loadConfig({ CASI_DATABASE_URL: value })).toThrow(
      new ConfigError('CASI_DATABASE_URL', message.slice(19)),
    );
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['192.168.1.10', false],
    ['example.org', false],
    ['::', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});
