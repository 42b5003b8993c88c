import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintCache } from '../../generator/check/cache.js';
import type { Diagnostic } from '../../generator/diagnostics.js';
import { casi, ROOT } from './helpers.js';

let work: string;
let openapi: string;
let asyncapi: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'casi-cache-'));
  cpSync(join(ROOT, 'test/fixtures/widgets'), work, { recursive: true });
  openapi = join(work, 'openapi.yaml');
  asyncapi = join(work, 'asyncapi.yaml');
  // A unique comment makes this copy's key unique, so that no earlier run has filled it.
  writeFileSync(join(work, 'unique.txt'), `${work}\n`);
  return appendFile(openapi, `# ${work}\n`);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const finding: Diagnostic = {
  severity: 'warning',
  file: '/x.yaml',
  line: 3,
  column: 1,
  pointer: '/info',
  message: 'a finding',
  rule: 'test/rule',
};

describe('check cache', () => {
  it('misses, then returns what was stored for the same documents', () => {
    const first = lintCache(openapi, asyncapi);
    expect(first.cached).toBeUndefined();
    first.store([finding]);
    expect(lintCache(openapi, asyncapi).cached).toEqual([finding]);
  });

  it('keeps the roles apart: the same two files swapped (--openapi ↔ --asyncapi) are another entry', () => {
    lintCache(openapi, asyncapi).store([finding]);
    expect(lintCache(asyncapi, openapi).cached).toBeUndefined();
    lintCache(asyncapi, openapi).store([]);
    expect(lintCache(openapi, asyncapi).cached).toEqual([finding]);
    expect(lintCache(asyncapi, openapi).cached).toEqual([]);
  });

  it('misses once either document or a file one of them references changes', async () => {
    lintCache(openapi, asyncapi).store([finding]);
    await appendFile(asyncapi, '# edited\n');
    expect(lintCache(openapi, asyncapi).cached).toBeUndefined();

    lintCache(openapi, asyncapi).store([]);
    await appendFile(openapi, "x-extra:\n  $ref: './part.yaml'\n");
    writeFileSync(join(work, 'part.yaml'), 'a: 1\n');
    lintCache(openapi, asyncapi).store([finding]);
    expect(lintCache(openapi, asyncapi).cached).toEqual([finding]);
    writeFileSync(join(work, 'part.yaml'), 'a: 2\n');
    expect(lintCache(openapi, asyncapi).cached).toBeUndefined();
  });

  it('is a miss when a referenced file is missing, and off with CASI_CACHE=0', async () => {
    await appendFile(openapi, "x-extra:\n  $ref: './absent.yaml'\n");
    const entry = lintCache(openapi, asyncapi);
    entry.store([finding]);
    expect(lintCache(openapi, asyncapi).cached).toBeUndefined();

    await appendFile(asyncapi, '# another\n');
    lintCache(openapi, asyncapi).store([finding]);
    process.env.CASI_CACHE = '0';
    try {
      expect(lintCache(openapi, asyncapi).cached).toBeUndefined();
    } finally {
      delete process.env.CASI_CACHE;
    }
  });

  it('lets `casi generate` after `casi check` reuse the findings, and still report them', async () => {
    const args = ['--openapi', openapi, '--asyncapi', asyncapi];
    const check = await casi(['check', ...args]);
    expect(check.code).toBe(0);
    const generate = await casi(['generate', ...args, '--out', join(work, 'out')]);
    expect(generate.code, generate.stderr).toBe(0);
    expect(generate.stderr).toMatch(/casi: check \(cached\)/);
    const warnings = (text: string) => text.split('\n').filter((l) => / warning /.test(l));
    expect(warnings(check.stderr)).toHaveLength(3);
    expect(warnings(generate.stderr)).toEqual(warnings(check.stderr));
  }, 120_000);
});
