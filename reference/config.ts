/** The reference server's configuration, parsed from the environment into one typed, fully defaulted object. */
import { resolve } from 'node:path';
import { DATABASE_EVENT_LIMITS, DEFAULT_EVENT_LIMITS, type EventLimits } from './bus/memory.js';
import { randomBase62 } from './ids.js';

/** What an API key may do: `write` keys may also read. */
export type KeyScope = 'read' | 'write';

/** One API key of `CASI_API_KEYS`. */
export interface ApiKey {
  readonly key: string;
  readonly org: string;
  readonly scope: KeyScope;
}

/** Where `conversation.setup` webhooks go (`CASI_WEBHOOK_URL`, `CASI_WEBHOOK_SECRET`). */
export interface WebhookConfig {
  readonly url: string;
  readonly secret: string;
}

/**
 * Where the state lives (`CASI_DATABASE_URL`): in memory only, an embedded database in a folder (the default:
 * `.casi/` under the current folder), or a PostgreSQL server.
 */
export type DatabaseSetting =
  | { readonly kind: 'memory' }
  | { readonly kind: 'embedded'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

/** The folder of the default embedded database, under the current folder. */
export const DEFAULT_DATABASE_FOLDER = '.casi';

/** The whole configuration. */
export interface ReferenceConfig {
  readonly port: number;
  readonly host: string;
  readonly apiKeys: readonly ApiKey[];
  readonly tokenTtlSeconds: number;
  readonly eventRetentionSeconds: number;
  /** Requests per second per key, or null for no limit. */
  readonly rateLimit: number | null;
  /** Seconds without a client event after which a started `chat_async` conversation ends. */
  readonly chatAsyncIdleSeconds: number;
  readonly webhook: WebhookConfig | null;
  /** Browser origin allowed by CORS (`*`: any), or null for no CORS headers (`CASI_CORS_ORIGIN`). */
  readonly corsOrigin: string | null;
  /** Events kept in memory: per conversation (`CASI_MAX_EVENTS_PER_CONVERSATION`) and in all (`CASI_MAX_EVENTS`). */
  readonly eventLimits: EventLimits;
  readonly database: DatabaseSetting;
}

/** The result of `loadConfig`: the configuration, and the development key when one was generated. */
export interface LoadedConfig {
  readonly config: ReferenceConfig;
  /** Set when `CASI_API_KEYS` was unset: print it so the developer can use it. */
  readonly generatedKey: ApiKey | null;
}

/** The organisation of keys that name none, and of the generated development key. */
export const DEFAULT_ORG = 'org_default';

/** Defaults of every setting. */
export const CONFIG_DEFAULTS = {
  port: 4010,
  host: '127.0.0.1',
  tokenTtlSeconds: 10_800,
  eventRetentionSeconds: 86_400,
  chatAsyncIdleSeconds: 600,
} as const;

/**
 * The longest duration any `…_SECONDS` setting takes: 10 years (365-day years). Without a bound, a huge one puts
 * dates out of the range of `Date` (a token's expiry, an event's retention) and fails every request that computes
 * them.
 */
export const MAX_DURATION_SECONDS = 10 * 365 * 24 * 60 * 60;

/** An invalid setting; `variable` names the environment variable at fault. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Parses `env` (e.g. `process.env`); throws `ConfigError` naming the variable for any invalid value. */
export function loadConfig(env: Env): LoadedConfig {
  const host = text(env, 'HOST') ?? CONFIG_DEFAULTS.host;
  const keysText = text(env, 'CASI_API_KEYS');
  if (keysText === undefined && !isLoopback(host)) {
    throw new ConfigError(
      'CASI_API_KEYS',
      `must be set when HOST (${host}) is not a loopback address: a generated development key would be exposed`,
    );
  }
  const generatedKey: ApiKey | null =
    keysText === undefined ? { key: `casi_dev_${randomBase62(32)}`, org: DEFAULT_ORG, scope: 'write' } : null;
  const stored = database(env);
  const config: ReferenceConfig = {
    port: integer(env, 'PORT', CONFIG_DEFAULTS.port, 0, 65_535),
    host,
    apiKeys: generatedKey === null ? parseApiKeys(keysText ?? '') : [generatedKey],
    tokenTtlSeconds: duration(env, 'CASI_TOKEN_TTL_SECONDS', CONFIG_DEFAULTS.tokenTtlSeconds),
    eventRetentionSeconds: duration(env, 'CASI_EVENT_RETENTION_SECONDS', CONFIG_DEFAULTS.eventRetentionSeconds),
    rateLimit: rateLimit(env),
    chatAsyncIdleSeconds: duration(env, 'CASI_CHAT_ASYNC_IDLE_SECONDS', CONFIG_DEFAULTS.chatAsyncIdleSeconds),
    webhook: webhook(env),
    corsOrigin: corsOrigin(env),
    eventLimits: eventLimits(env, stored.kind === 'memory' ? DEFAULT_EVENT_LIMITS : DATABASE_EVENT_LIMITS),
    database: stored,
  };
  return { config, generatedKey };
}

/** The events kept in memory (`CASI_MAX_EVENTS*`); with a database, the copy in memory of what it keeps. */
function eventLimits(env: Env, defaults: EventLimits): EventLimits {
  return {
    perConversation: integer(env, 'CASI_MAX_EVENTS_PER_CONVERSATION', defaults.perConversation, 1),
    total: integer(env, 'CASI_MAX_EVENTS', defaults.total, 1),
  };
}

/**
 * Parses `key[:org[:scope]]` entries separated by commas. Messages name an entry by its position among the
 * comma-separated ones (`entry 3`), never by the whole key (at most its first 4 characters).
 */
export function parseApiKeys(value: string): ApiKey[] {
  const entries = value
    .split(',')
    .map((entry, index) => ({ text: entry.trim(), position: index + 1 }))
    .filter((entry) => entry.text !== '');
  if (entries.length === 0) throw new ConfigError('CASI_API_KEYS', 'names no key; use key[:org[:scope]],…');
  const keys = entries.map(({ text, position }) => parseApiKey(text, position));
  const seen = new Map<string, number>();
  keys.forEach(({ key }, index) => {
    const first = seen.get(key);
    const position = entries[index]?.position ?? 0;
    if (first !== undefined) {
      throw new ConfigError('CASI_API_KEYS', `entries ${first} and ${position} list the same key ${mask(key)}`);
    }
    seen.set(key, position);
  });
  return keys;
}

const KEY_PART = /^[A-Za-z0-9_.~-]+$/;

function parseApiKey(entry: string, position: number): ApiKey {
  const [key = '', org = DEFAULT_ORG, scope = 'write', ...rest] = entry.split(':');
  if (rest.length > 0 || !KEY_PART.test(key) || !KEY_PART.test(org)) {
    throw new ConfigError(
      'CASI_API_KEYS',
      `entry ${position} (${mask(entry)}) is not key[:org[:scope]] (letters, digits, _ . ~ -)`,
    );
  }
  if (scope !== 'read' && scope !== 'write') {
    throw new ConfigError(
      'CASI_API_KEYS',
      `entry ${position} (${mask(key)}): the scope must be read or write, not ${JSON.stringify(scope)}`,
    );
  }
  return { key, org, scope };
}

/** True for `localhost`, `127.0.0.0/8` and `::1` (the addresses only this machine can reach). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** A number of seconds from 1 to MAX_DURATION_SECONDS. */
function duration(env: Env, name: string, fallback: number): number {
  return integer(env, name, fallback, 1, MAX_DURATION_SECONDS);
}

function rateLimit(env: Env): number | null {
  const value = text(env, 'CASI_RATE_LIMIT');
  if (value === undefined || value === 'off' || value === '0') return null;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new ConfigError(
      'CASI_RATE_LIMIT',
      `must be a positive number of requests per second or off, not ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

function webhook(env: Env): WebhookConfig | null {
  const url = text(env, 'CASI_WEBHOOK_URL');
  const secret = text(env, 'CASI_WEBHOOK_SECRET');
  if (url === undefined) {
    if (secret !== undefined) throw new ConfigError('CASI_WEBHOOK_URL', 'must be set when CASI_WEBHOOK_SECRET is');
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('CASI_WEBHOOK_URL', `must be an absolute http(s) URL, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError('CASI_WEBHOOK_URL', `must be an http or https URL, not ${parsed.protocol}`);
  }
  if (secret === undefined) throw new ConfigError('CASI_WEBHOOK_SECRET', 'must be set when CASI_WEBHOOK_URL is');
  return { url: parsed.toString(), secret };
}

/** `CASI_CORS_ORIGIN`: `*` (the default: any origin, for browser clients in development), `off`, or one origin. */
function corsOrigin(env: Env): string | null {
  const value = text(env, 'CASI_CORS_ORIGIN') ?? '*';
  if (value === '*') return value;
  if (value === 'off') return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== value) {
    throw new ConfigError(
      'CASI_CORS_ORIGIN',
      `must be *, off or an origin such as https://app.example.com, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** `CASI_DATABASE_URL`: unset (`.casi/` here), `file:PATH`, `memory:`, or a `postgres://` / `postgresql://` URL. */
export function database(env: Env): DatabaseSetting {
  const value = text(env, 'CASI_DATABASE_URL');
  if (value === undefined) return { kind: 'embedded', path: resolve(DEFAULT_DATABASE_FOLDER) };
  if (value === 'memory:') return { kind: 'memory' };
  if (value.startsWith('file:')) {
    const path = value.slice('file:'.length);
    if (path === '') throw new ConfigError('CASI_DATABASE_URL', 'file: needs a folder path, as in file:./data');
    return { kind: 'embedded', path: resolve(path) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.hostname === '') {
      throw new ConfigError('CASI_DATABASE_URL', `is not a valid PostgreSQL URL: ${redact(value)}`);
    }
    return { kind: 'postgres', url: value };
  }
  throw new ConfigError(
    'CASI_DATABASE_URL',
    `must be memory:, file:PATH or a postgres:// URL, not ${JSON.stringify(redact(value))}`,
  );
}

/** A URL shown in messages: without its password. */
export function redact(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:****@');
}

/** A key shown in messages: its first 4 characters only. */
function mask(key: string): string {
  return key.length <= 4 ? '****' : `${key.slice(0, 4)}…`;
}
