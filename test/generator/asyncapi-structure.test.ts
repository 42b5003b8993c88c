/**
 * The AsyncAPI check of `casi generate`: the document against the published AsyncAPI JSON Schema of its version, each
 * finding at the line of the text at fault; valid documents of every supported version pass.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintAsyncApiStructure } from '../../generator/check/asyncapi-structure.js';
import { resolvedView, sourcePointer } from '../../generator/check/resolved-view.js';
import { ROOT, SPEC } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-asyncapi-structure-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CORPUS = resolve(ROOT, '../shared/spec-corpus');

/** Writes `text` as a document of its own and checks it. */
function checked(name: string, text: string) {
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, text);
  return lintAsyncApiStructure(file);
}

const V3 = `asyncapi: 3.0.0
info:
  title: Lights
  version: '1'
channels:
  lights:
    address: lights/{id}
    parameters:
      id: {}
    messages:
      lit:
        $ref: '#/components/messages/Lit'
operations:
  onLit:
    action: receive
    channel:
      $ref: '#/channels/lights'
    messages:
      - $ref: '#/channels/lights/messages/lit'
components:
  messages:
    Lit:
      payload:
        $ref: '#/components/schemas/Node'
  schemas:
    Node:
      type: object
      properties:
        next:
          $ref: '#/components/schemas/Node'
`;

const V26 = `asyncapi: 2.6.0
info:
  title: Ticks
  version: '1'
channels:
  ticks/{symbol}:
    parameters:
      symbol:
        schema: { type: string }
    subscribe:
      message:
        payload: { type: number }
`;

describe('the AsyncAPI structure check', () => {
  it('passes valid documents of 2.6, 3.0 and 3.1: ours and those of the corpus', async () => {
    const corpus = readdirSync(CORPUS)
      .filter((f) => f.includes('.asyncapi.'))
      .map((f) => join(CORPUS, f));
    expect(corpus.length).toBeGreaterThanOrEqual(5);
    for (const file of [SPEC.asyncapi, ...corpus]) expect(await lintAsyncApiStructure(file), file).toEqual([]);
    expect(await checked('v3', V3)).toEqual([]);
    expect(await checked('v26', V26)).toEqual([]);
  }, 60_000);

  it('places a missing member, an unknown one and a value not allowed at their lines', async () => {
    const broken = V3.replace('  title: Lights\n', '')
      .replace('    action: receive', '    action: recieve')
      .replace('    address: lights/{id}', '    address: lights/{id}\n    colour: red');
    const found = await checked('broken', broken);
    expect(found).toEqual([
      expect.objectContaining({
        pointer: '/info',
        line: 3,
        message: 'Instance does not have required property "title".',
      }),
      expect.objectContaining({ pointer: '/channels/lights/colour', line: 7, column: 13 }),
      expect.objectContaining({
        pointer: '/operations/onLit/action',
        line: 15,
        column: 13,
        message: 'Instance does not match any of ["send","receive"].',
      }),
    ]);
    expect(found.every((d) => d.severity === 'error' && d.rule === 'asyncapi/structure')).toBe(true);
  });

  it('reports a fault inside a referenced component once, where it is written', async () => {
    const found = await checked('in-component', V3.replace('    Lit:\n', '    Lit:\n      bogus: 1\n'));
    expect(found).toEqual([expect.objectContaining({ pointer: '/components/messages/Lit/bogus', line: 23 })]);
  });

  it('checks AsyncAPI 2.6 against its own schema', async () => {
    const found = await checked('v26-broken', V26.replace('    subscribe:', '    subscrib:'));
    expect(found).toEqual([
      expect.objectContaining({
        pointer: '/channels/ticks~1{symbol}/subscrib',
        message: expect.stringContaining('subscrib'),
      }),
    ]);
  });

  it('names a reference to nothing at its $ref', async () => {
    const found = await checked(
      'dangling',
      V3.replace("'#/components/schemas/Node'\n  schemas", "'#/components/schemas/Nope'\n  schemas"),
    );
    expect(found).toEqual([
      expect.objectContaining({
        rule: 'asyncapi/invalid-ref',
        pointer: '/components/messages/Lit/payload/$ref',
        line: 24,
        message: '$ref #/components/schemas/Nope points to nothing',
      }),
    ]);
  });

  it('reads a reference whose pointer has braces not percent-encoded, as the AsyncAPI parser does', async () => {
    const braces = V3.replaceAll('#/channels/lights', '#/channels/lights~1{id}').replace(
      '  lights:\n',
      '  lights/{id}:\n',
    );
    expect(braces).toContain("$ref: '#/channels/lights~1{id}/messages/lit'");
    expect(await checked('braces', braces)).toEqual([]);
    const dangling = await checked('braces-dangling', braces.replace('lights~1{id}/messages', 'lights~1{ID}/messages'));
    expect(dangling).toEqual([
      expect.objectContaining({
        rule: 'asyncapi/invalid-ref',
        pointer: '/operations/onLit/messages/0/$ref',
        message: '$ref #/channels/lights~1{ID}/messages/lit points to nothing',
      }),
    ]);
  });

  it('refuses a document without a version, or of a version it does not know, at the version', async () => {
    expect(await checked('no-version', 'info:\n  title: x\n')).toEqual([
      expect.objectContaining({
        rule: 'asyncapi/version',
        pointer: '',
        message: expect.stringContaining('no `asyncapi` version'),
      }),
    ]);
    expect(await checked('v12', "asyncapi: '1.2.0'\ninfo: {}\n")).toEqual([
      expect.objectContaining({ rule: 'asyncapi/version', pointer: '/asyncapi', line: 1, column: 11 }),
    ]);
  });

  it('reports a file that is not YAML as the loader does, at its line', async () => {
    const [found] = await checked('not-yaml', 'asyncapi: 3.0.0\ninfo: [\n');
    expect(found).toMatchObject({ severity: 'error', line: expect.any(Number) });
    expect(found?.line).toBeGreaterThan(0);
  });
});

describe('the resolved view', () => {
  const root = {
    a: { $ref: '#/b' },
    b: { self: { $ref: '#/b' }, v: 1 },
    keep: { $ref: '#/b' },
    example: { $ref: 'not followed: data' },
  };

  it('replaces references by their targets, keeps a recursive one and the ones it is told to keep', () => {
    const view = resolvedView(root, (path) => path[0] === 'keep');
    expect(view.a).toEqual({ self: { $ref: '#/b' }, v: 1 });
    expect(view.keep).toEqual({ $ref: '#/b' });
    expect(view.example).toEqual({ $ref: 'not followed: data' });
  });

  it('maps a place of the view back to the text, through references', () => {
    expect(sourcePointer(root, ['a', 'v'])).toBe('/b/v');
    expect(sourcePointer(root, ['a', 'self', 'v'])).toBe('/b/v');
    expect(sourcePointer(root, ['b'])).toBe('/b');
  });
});
