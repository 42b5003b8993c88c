/**
 * Where `locate` places a pointer (js-yaml's node events, read again on the first diagnostic) agrees with where `yaml`,
 * a parser that keeps every node's range, has the node: on block and flow collections, JSON, anchors and aliases,
 * tags, comments, explicit keys, block scalars, numeric keys and a byte-order mark.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { parseSourceDocument, toPointer } from '../../generator/load/source-map.js';
import { ROOT } from './helpers.js';

/** Every pointer of the text with the line and column `yaml` gives its node (a member without a value: its key). */
function expectedPlaces(text: string): Map<string, string> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const places = new Map<string, string>();
  const visit = (node: Node | null | undefined, tokens: string[], fallback: number) => {
    const offset = node?.range?.[0] ?? fallback;
    const { line, col } = lineCounter.linePos(offset);
    places.set(toPointer(tokens), `${line}:${col}`);
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = pair.key as Node & { value?: unknown };
        if (String(key.value) === '<<') continue;
        visit(pair.value as Node | null, [...tokens, String(key.value)], key.range?.[0] ?? offset);
      }
    } else if (isSeq(node)) {
      for (const [i, item] of node.items.entries()) visit(item as Node, [...tokens, String(i)], offset);
    }
  };
  visit(doc.contents as Node, [], 0);
  return places;
}

/** The places `locate` gives for the same pointers. */
function locatedPlaces(text: string, pointers: Iterable<string>): Map<string, string> {
  const doc = parseSourceDocument('/virtual/doc.yaml', text);
  return new Map([...pointers].map((p) => [p, `${doc.locate(p).line}:${doc.locate(p).column}`]));
}

const TRICKY = [
  '\ufeffopenapi: 3.1.0 # a comment',
  'info: {title: "Flow, with: colon", version: \'1\'}',
  'paths:',
  '  /a:',
  '    get: &op',
  '      # a comment before the first key',
  '      responses:',
  '        200:',
  '          description: |',
  '            A block scalar',
  '            over two lines',
  '        "404": {description: Missing}',
  '  /b:',
  '    get: *op',
  '    post: !!map',
  '      summary: Tagged',
  '    put:',
  '      tags: [one, two, {three: 3}]',
  '      parameters:',
  '        - name: x',
  '          in: query',
  '        -',
  '          name: y',
  '          in: header',
  '? explicit',
  ': value',
  'empty:',
  'last: end',
  '',
].join('\n');

describe('locate', () => {
  it('places every node of a document mixing the forms YAML allows where `yaml` has it', () => {
    const expected = expectedPlaces(TRICKY);
    expect(expected.size).toBeGreaterThan(30);
    expect(locatedPlaces(TRICKY, expected.keys())).toEqual(expected);
  });

  it('places every node of JSON, one line or indented', () => {
    const value = { openapi: '3.1.0', paths: { '/a': { get: { responses: { '200': { description: 'OK' } } } } } };
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      const expected = expectedPlaces(text);
      expect(locatedPlaces(text, expected.keys())).toEqual(expected);
    }
  });

  it('places every node of the corpus documents where `yaml` has it', () => {
    const corpus = join(ROOT, '../shared/spec-corpus');
    const files = readdirSync(corpus).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.startsWith('openai'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(join(corpus, file), 'utf8');
      const expected = expectedPlaces(text);
      const located = locatedPlaces(text, expected.keys());
      expect([...located].filter(([p, at]) => expected.get(p) !== at).slice(0, 3), file).toEqual([]);
    }
  });
});
