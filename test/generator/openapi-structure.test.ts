/**
 * The OpenAPI check of `casi generate`: the document against the published OpenAPI JSON Schema of its version and
 * the path rules, each finding at the line of the text at fault; valid documents of 3.0 and 3.1 pass.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintOpenApiStructure } from '../../generator/check/openapi-structure.js';
import { FIXTURES, fixture, ROOT, SPEC } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-openapi-structure-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CORPUS = resolve(ROOT, '../shared/spec-corpus');

/** Writes `text` as a document of its own and checks it. */
function checked(name: string, text: string) {
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, text);
  return lintOpenApiStructure(file);
}

const BOARD = `openapi: 3.1.0
info:
  title: Board
  version: '1'
paths:
  /boards/{board}/squares/{row}:
    parameters:
      - $ref: '#/components/parameters/Board'
    get:
      parameters:
        - name: row
          in: path
          required: true
          schema: { type: integer }
      responses:
        '200':
          description: a square
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Square'
components:
  parameters:
    Board:
      name: board
      in: path
      required: true
      schema: { type: string }
  schemas:
    Square:
      type: object
      properties:
        next:
          $ref: '#/components/schemas/Square'
`;

/** The same document as OpenAPI 3.0. */
const v30 = (text: string) => text.replace('openapi: 3.1.0', 'openapi: 3.0.3');

describe('the OpenAPI structure check', () => {
  it('passes valid documents of 3.0 and 3.1: ours, the fixtures and those of the corpus', async () => {
    const corpus = readdirSync(CORPUS)
      .filter((f) => f.includes('.openapi.'))
      .map((f) => join(CORPUS, f));
    expect(corpus.length).toBeGreaterThanOrEqual(9);
    for (const file of [SPEC.openapi, ...FIXTURES.map((f) => fixture(f).openapi), ...corpus])
      expect(await lintOpenApiStructure(file), file).toEqual([]);
    expect(await checked('v31', BOARD)).toEqual([]);
    expect(await checked('v30', v30(BOARD))).toEqual([]);
  }, 60_000);

  it('takes an empty `required` list in a 3.0 schema, as the JSON Schema draft of OpenAPI 3.0 does', async () => {
    const empty = v30(BOARD).replace('      type: object\n', '      type: object\n      required: []\n');
    expect(empty).toContain('required: []');
    expect(await checked('v30-required', empty)).toEqual([]);
    const unnamed = empty.replace('required: []', 'required: [1]');
    expect(await checked('v30-required-number', unnamed)).toEqual([
      expect.objectContaining({ pointer: '/components/schemas/Square/required/0', rule: 'openapi/structure' }),
    ]);
  });

  it.each([
    ['3.1', BOARD],
    ['3.0', v30(BOARD)],
  ])('places a missing member, an unknown one and a value not allowed at their lines (%s)', async (version, text) => {
    const broken = text
      .replace('  title: Board\n', '')
      .replace('          in: path\n', '          in: sideways\n')
      .replace('          description: a square\n', '          description: a square\n          colour: red\n');
    const found = await checked(`broken-${version}`, broken);
    expect(found.filter((d) => d.rule === 'openapi/structure')).toEqual([
      expect.objectContaining({
        pointer: '/info',
        line: 3,
        message: 'Instance does not have required property "title".',
      }),
      expect.objectContaining({
        pointer: '/paths/~1boards~1{board}~1squares~1{row}/get/parameters/0/in',
        line: 11,
        column: 15,
        message: expect.stringContaining('Instance does not match any of'),
      }),
      expect.objectContaining({
        pointer: '/paths/~1boards~1{board}~1squares~1{row}/get/responses/200/colour',
        line: 17,
      }),
    ]);
    expect(found.every((d) => d.severity === 'error')).toBe(true);
  });

  it('takes a reference to a component whose name has a space, which generation reads', async () => {
    const spaced = BOARD.replaceAll('schemas/Square', 'schemas/Square one').replace(
      '    Square:\n',
      '    Square one:\n',
    );
    expect(spaced).toContain("$ref: '#/components/schemas/Square one'");
    expect(await checked('spaced', spaced)).toEqual([]);
    expect(await checked('spaced-v30', v30(spaced))).toEqual([]);
  });

  it('names a reference to nothing at its $ref', async () => {
    const found = await checked('dangling', BOARD.replace("schemas/Square'\ncomponents", "schemas/Nope'\ncomponents"));
    expect(found).toEqual([
      expect.objectContaining({
        rule: 'openapi/no-unresolved-refs',
        pointer: '/paths/~1boards~1{board}~1squares~1{row}/get/responses/200/content/application~1json/schema/$ref',
        line: 21,
        message: '$ref #/components/schemas/Nope points to nothing',
      }),
    ]);
  });

  it('finds a path parameter not defined, one not in the path, and one listed twice', async () => {
    const text = BOARD.replace('        - name: row\n', '        - name: column\n').replace(
      '      responses:\n',
      '        - { name: q, in: query, schema: { type: string } }\n        - { name: q, in: query, schema: { type: string } }\n      responses:\n',
    );
    const found = await checked('parameters', text);
    expect(found.map((d) => [d.rule, d.pointer, d.line, d.message])).toEqual([
      [
        'openapi/operation-parameters-unique',
        '/paths/~1boards~1{board}~1squares~1{row}/get/parameters/2',
        16,
        'the query parameter `q` is listed twice',
      ],
      [
        'openapi/path-parameters-defined',
        '/paths/~1boards~1{board}~1squares~1{row}/get',
        10,
        'the GET operation of /boards/{board}/squares/{row} does not define its path parameter `row`',
      ],
      [
        'openapi/path-parameters-defined',
        '/paths/~1boards~1{board}~1squares~1{row}/get/parameters/0',
        11,
        'the path parameter `column` is not in the path /boards/{board}/squares/{row}',
      ],
    ]);
  });

  it('finds an empty parameter and two paths that differ only in parameter names', async () => {
    const text = BOARD.replace(
      'components:\n',
      '  /boards/{id}/squares/{x}:\n    parameters:\n      - { name: id, in: path, required: true, schema: { type: string } }\n      - { name: x, in: path, required: true, schema: { type: string } }\n  /a/{}:\n    get:\n      responses:\n        default: { description: any }\ncomponents:\n',
    );
    const found = await checked('paths', text);
    expect(found.map((d) => [d.rule, d.pointer, d.line])).toEqual([
      ['openapi/no-identical-paths', '/paths/~1boards~1{id}~1squares~1{x}', 23],
      ['openapi/path-declaration-must-exist', '/paths/~1a~1{}', 27],
    ]);
  });

  it('refuses a document that is not OpenAPI 3 at its first line, and leaves Swagger 2.0 to the version check', async () => {
    expect(await checked('not-openapi', 'name: casi\nversion: 1.0.0\n')).toEqual([
      expect.objectContaining({
        rule: 'casi/openapi',
        line: 1,
        column: 1,
        message: expect.stringContaining('not an OpenAPI 3.0 or 3.1 document'),
      }),
    ]);
    expect(await checked('swagger', "swagger: '2.0'\ninfo: { title: x, version: '1' }\npaths: {}\n")).toEqual([]);
  });

  it('reports a file that is not YAML as the loader does, at its line', async () => {
    const [found] = await checked('not-yaml', 'openapi: 3.1.0\ninfo: [\n');
    expect(found).toMatchObject({ severity: 'error', line: expect.any(Number) });
    expect(found?.line).toBeGreaterThan(0);
  });
});
