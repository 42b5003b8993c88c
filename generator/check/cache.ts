/**
 * A cache of the document validators' findings, keyed by which file is the OpenAPI document and which the AsyncAPI
 * one, the content of both (and of every file they reference), the validators' versions and Node's: `casi generate` after `casi check`, or a second `generate` of
 * unchanged specs, does not lint again. Kept under node_modules/.cache/casi/check; CASI_CACHE=0 turns it off.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { TOOLKIT_ROOT } from '../options.js';

const CACHE = join(TOOLKIT_ROOT, 'node_modules', '.cache', 'casi', 'check');
/** The newest entries kept; older ones are removed when a new one is written. */
const KEEP = 20;
const VALIDATORS = ['@redocly/openapi-core', '@asyncapi/parser'];
/** The worker's sources beside this file: how the validators are set up is part of what they find. */
const LINT_SOURCES = [
  'lint.mjs',
  'lint-openapi.mjs',
  'lint-asyncapi.mjs',
  'asyncapi-structure.mjs',
  'packages.mjs',
  'packages.cjs',
  '../schema/precompiled.mjs',
];

/** A lookup: the cached findings when there are some, and `store` to record fresh ones. */
export interface LintCacheEntry {
  readonly cached: readonly Diagnostic[] | undefined;
  store(diagnostics: readonly Diagnostic[]): void;
}

/** Looks up the findings for these two documents. Never throws: an unusable cache is a miss. */
export function lintCache(openapiFile: string, asyncapiFile: string): LintCacheEntry {
  const off = { cached: undefined, store: () => undefined };
  if (process.env.CASI_CACHE === '0') return off;
  let key: string;
  try {
    key = cacheKey(openapiFile, asyncapiFile);
  } catch {
    return off;
  }
  const file = join(CACHE, `${key}.json`);
  return {
    cached: readEntry(file),
    store(diagnostics) {
      try {
        mkdirSync(CACHE, { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, JSON.stringify(diagnostics));
        renameSync(temporary, file);
        prune();
      } catch {
        // A cache that cannot be written only costs time.
      }
    },
  };
}

function readEntry(file: string): Diagnostic[] | undefined {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Diagnostic[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hash of the versions and the worker's sources, then of each document's role (the same two files swapped are
 * linted differently), then of every document and referenced file (path and content), in a stable order.
 */
function cacheKey(openapiFile: string, asyncapiFile: string): string {
  const hash = createHash('sha256').update(`${process.version}\n`);
  for (const name of VALIDATORS) hash.update(`${name}@${packageVersion(name)}\n`);
  for (const source of LINT_SOURCES) hash.update(readFileSync(new URL(`./${source}`, import.meta.url), 'utf8'));
  hash.update(`openapi ${resolve(openapiFile)}\nasyncapi ${resolve(asyncapiFile)}\n`);
  const files = referencedFiles([openapiFile, asyncapiFile]);
  for (const file of [...files.keys()].sort())
    hash
      .update(`${file}\n`)
      .update(files.get(file) ?? '')
      .update('\n');
  return hash.digest('hex').slice(0, 32);
}

/** The documents and, transitively, every local file a `$ref` names in them, with their text. */
function referencedFiles(documents: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (file: string): void => {
    if (found.has(file)) return;
    const text = readFileSync(file, 'utf8');
    found.set(file, text);
    for (const match of text.matchAll(/\$ref["']?\s*:\s*["']?([^"'#\s]+)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) visit(resolve(dirname(file), target));
    }
  };
  for (const document of documents) visit(resolve(document));
  return found;
}

/** The installed version of a package, from the nearest package.json above its entry point. */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === name) return parsed.version ?? '';
    }
    const parent = dirname(dir);
    if (parent === dir) return '';
    dir = parent;
  }
}

function prune(): void {
  const entries = readdirSync(CACHE)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ path: join(CACHE, f), mtime: statSync(join(CACHE, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of entries.slice(KEEP)) rmSync(old.path, { force: true });
}
