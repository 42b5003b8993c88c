import { describe, expect, it } from 'vitest';
import { InputError } from '../../generator/diagnostics.js';
import { deref, schemaRefName, splitRef, valueAt } from '../../generator/load/index.js';
import { parseSourceDocument, pointerTokens, toPointer } from '../../generator/load/source-map.js';

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
});
