import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintAsyncApi } from '../../generator/check/lint-asyncapi.mjs';
import { fixture, ROOT, SPEC } from './helpers.js';

const CACHE = join(ROOT, 'node_modules/.cache/casi/asyncapi');
const work = mkdtempSync(join(tmpdir(), 'casi-structure-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of `source` with `edit` applied to its text, written beside the fixture's other files' names. */
function variant(name: string, source: string, edit: (text: string) => string): string {
  const file = join(work, `${name}.yaml`);
  const text = edit(readFileSync(source, 'utf8'));
  expect(text).not.toBe(readFileSync(source, 'utf8'));
  writeFileSync(file, text);
  return file;
}

/** The parser's own findings: the structure rules as it ships them (`CASI_CACHE=0`). */
async function stockLint(file: string) {
  process.env.CASI_CACHE = '0';
  try {
    return await lintAsyncApi(file);
  } finally {
    delete process.env.CASI_CACHE;
  }
}

const widgets = fixture('widgets').asyncapi;
const cases = {
  'a member the meta-schema does not allow': {
    file: () => variant('unknown-member', widgets, (t) => t.replace('info:\n', 'info:\n  bogus: 1\n')),
    rule: 'asyncapi/asyncapi-document-resolved',
  },
  'a $ref where AsyncAPI allows none': {
    file: () =>
      variant('misplaced-ref', widgets, (t) =>
        t.replace('info:\n', "info:\n  contact:\n    $ref: '#/components/messages/WidgetPingEvent'\n"),
      ),
    rule: 'asyncapi/asyncapi-document-unresolved',
  },
  'a wrong type deep in a message': {
    file: () => variant('wrong-type', widgets, (t) => t.replace('summary: A widget changed.', 'summary: [1, 2]')),
    rule: 'asyncapi/asyncapi-document-resolved',
  },
};

describe('AsyncAPI structure rules from the precompiled meta-schema', () => {
  for (const [name, { file, rule }] of Object.entries(cases)) {
    it(`reports ${name} exactly as the parser's own rules do`, async () => {
      const path = file();
      const fast = await lintAsyncApi(path);
      expect(fast.map((d) => d.rule)).toContain(rule);
      expect(fast.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
      expect(fast).toEqual(await stockLint(path));
    });
  }

  it("validates as the parser's full parse does, on every broken and valid document", async () => {
    const { fromFile, Parser } = await import('@asyncapi/parser');
    for (const path of [...Object.values(cases).map((c) => c.file()), SPEC.asyncapi, widgets]) {
      const parser = new Parser();
      const parsed = await fromFile(parser, path).parse();
      expect(await fromFile(parser, path).validate()).toEqual(parsed.diagnostics);
    }
  });

  it('finds nothing more or less than the parser in the valid documents', async () => {
    for (const path of [SPEC.asyncapi, widgets, fixture('streams').asyncapi]) {
      expect(await lintAsyncApi(path)).toEqual(await stockLint(path));
    }
  });

  it('keeps the compiled meta-schema for the next process, which loads it without compiling again', async () => {
    await lintAsyncApi(widgets);
    const compiled = readdirSync(CACHE).filter((f) => f.endsWith('.cjs'));
    expect(compiled.length).toBeGreaterThanOrEqual(2);
    const before = compiled.map((f) => statSync(join(CACHE, f)).mtimeMs);
    const lint = `import('${join(ROOT, 'generator/check/lint-asyncapi.mjs')}').then((m) => m.lintAsyncApi(${JSON.stringify(widgets)})).then((d) => console.log(d.length))`;
    expect(execFileSync(process.execPath, ['-e', lint], { encoding: 'utf8' }).trim()).toBe('0');
    expect(compiled.map((f) => statSync(join(CACHE, f)).mtimeMs)).toEqual(before);
  });
});
