import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { InputError } from '../../generator/diagnostics.js';
import { deref, schemaRefName, splitRef, valueAt } from '../../generator/load/index.js';
import { parseSourceDocument, pointerTokens, toPointer } from '../../generator/load/source-map.js';
import { FIXTURES, fixture, SPEC } from './helpers.js';

const YAML = ['a:', '  b:', '    - x', '    - y: 1', '  "c/d": 2', 'ref:', "  $ref: '#/a/b'", ''].join('\n');

describe('load: source map', () => {
  const doc = parseSourceDocument('/virtual/doc.yaml', YAML);
  it.each([
    ['', 1],
    ['/a', 2],
    ['/a/b/0', 3],
    ['/a/b/1/y', 4],
    ['/a/c~1d', 5],
    ['/a/missing/deeper', 2],
  ])('locates %j on line %i', (pointer, line) => {
    expect(doc.locate(pointer).line).toBe(line);
  });

  it.each([
    ['', []],
    ['/a/b', ['a', 'b']],
    ['#/paths/~1conversations~1{id}', ['paths', '/conversations/{id}']],
    ['/x~0y', ['x~y']],
  ])('splits pointer %j', (pointer, tokens) => {
    expect(pointerTokens(pointer)).toEqual(tokens);
    expect(toPointer(tokens)).toBe(pointer.replace(/^#/, ''));
  });

  it('follows local references and finds values', () => {
    expect(deref(doc, valueAt(doc.value, '/ref'))).toEqual(['x', { y: 1 }]);
    expect(schemaRefName('./openapi.yaml#/components/schemas/ServerEvent')).toBe('ServerEvent');
    expect(schemaRefName('#/components/parameters/X')).toBeUndefined();
    expect(splitRef('./o.yaml#/a', '/specs/async.yaml')).toEqual({ file: '/specs/o.yaml', pointer: '/a' });
  });

  it('reports YAML syntax errors with file and line', () => {
    const attempt = () => parseSourceDocument('/virtual/bad.yaml', 'a: 1\nb: [unclosed\nc: 2\n');
    expect(attempt).toThrow(InputError);
    try {
      attempt();
    } catch (error) {
      const [first] = (error as InputError).diagnostics;
      expect(first?.file).toBe('/virtual/bad.yaml');
      expect(first?.line).toBeGreaterThanOrEqual(2);
      expect(first?.severity).toBe('error');
    }
  });

  it('refuses duplicate keys and a non-mapping document', () => {
    expect(() => parseSourceDocument('/v/dup.yaml', 'a: 1\na: 2\n')).toThrow(InputError);
    expect(() => parseSourceDocument('/v/list.yaml', '- 1\n- 2\n')).toThrow(/mapping/);
  });

  it('reads every spec document to the value the YAML 1.2 parser that keeps positions gives', () => {
    const files = [SPEC, ...FIXTURES.map(fixture)].flatMap((pair) => [pair.openapi, pair.asyncapi]);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(parseSourceDocument(file, text).value).toEqual(parse(text, { maxAliasCount: 1000 }));
    }
  });

  it('reads YAML 1.2 core scalars: dates and versions stay strings, no YAML 1.1 booleans', () => {
    const text = [
      'date: 2025-06-19',
      'time: 2025-06-19T10:00:00Z',
      'version: 2025.6.19',
      'yes: no',
      'octal: 0o17',
      'hex: 0x1F',
      'float: 1e3',
      'infinity: .inf',
      'empty:',
      'tilde: ~',
      "quoted: '0123'",
      'anchor: &a {x: 1}',
      'alias: *a',
      '',
    ].join('\n');
    const { value } = parseSourceDocument('/v/scalars.yaml', text);
    expect(value).toEqual(parse(text));
    expect(value).toMatchObject({ date: '2025-06-19', version: '2025.6.19', yes: 'no', octal: 15, tilde: null });
  });
});
