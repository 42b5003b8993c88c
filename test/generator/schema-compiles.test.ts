/** A schema the validators' ajv cannot compile is an error at the document and place that hold it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelOf } from '../../generator/check/index.js';
import { checkSchemasCompile } from '../../generator/check/schemas.js';
import { loadSpecs } from '../../generator/load/index.js';

const dir = mkdtempSync(join(tmpdir(), 'casi-schema-compiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The schema-compiles diagnostics of one document of `kind` alone, written as `name`. */
async function alone(kind: 'openapi' | 'asyncapi', text: string, name = `${kind}.yaml`) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const specs = kind === 'openapi' ? await loadSpecs(file, undefined) : await loadSpecs(undefined, file);
  const { ir } = modelOf(specs);
  if (ir === undefined) throw new Error('the model was not built');
  return { file, found: checkSchemasCompile(specs, ir) };
}

const DOCUMENT = [
  'asyncapi: 3.0.0',
  'info: {title: Bad pattern, version: 1.0.0}',
  'channels:',
  '  feed:',
  '    address: /feed',
  '    messages:',
  "      tick: {$ref: '#/components/messages/tick'}",
  'operations:',
  '  onTick:',
  '    action: receive',
  "    channel: {$ref: '#/channels/feed'}",
  'components:',
  '  messages:',
  '    tick:',
  '      payload:',
  '        type: object',
  "        properties: {code: {type: string, pattern: '(['}}",
].join('\n');

describe('check: schemas that cannot be compiled', () => {
  it('places a message payload of an AsyncAPI document alone in that document, at the message', async () => {
    const { file, found } = await alone('asyncapi', DOCUMENT);
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'error',
        file,
        line: 15,
        pointer: '/components/messages/tick',
        rule: 'casi/schema-compiles',
        message: expect.stringMatching(/tick cannot be compiled: Invalid regular expression/),
      }),
    ]);
  });
});

/** An OpenAPI document whose `paths` and `components` are the given YAML lines (indented by two). */
const openapi = (version: string, paths: string[], components: string[] = []) =>
  [
    `openapi: ${version}`,
    'info: {title: Bad request schemas, version: 1.0.0}',
    'paths:',
    ...paths.map((line) => `  ${line}`),
    ...(components.length > 0 ? ['components:', ...components.map((line) => `  ${line}`)] : []),
  ].join('\n');

describe('check: request schemas that cannot be compiled', () => {
  it.each([
    {
      what: 'a path parameter declared on the path item',
      text: openapi('3.1.0', [
        '/things/{id}:',
        '  parameters:',
        '    - name: id',
        '      in: path',
        '      required: true',
        "      schema: {type: string, pattern: '(['}",
        '  get:',
        '    operationId: getThing',
        "    responses: {'204': {description: none}}",
      ]),
      line: 9,
      column: 17,
      pointer: '/paths/~1things~1{id}/parameters/0/schema',
      message:
        /^the schema of id in the path parameters of GET \/things\/\{id\} cannot be compiled: Invalid regular expression/,
    },
    {
      what: 'a referenced query parameter beside another one, found by compiling each alone',
      text: openapi(
        '3.1.0',
        [
          '/things:',
          '  get:',
          '    operationId: listThings',
          '    parameters:',
          '      - {name: after, in: query, schema: {type: string}}',
          "      - $ref: '#/components/parameters/Code'",
          "    responses: {'204': {description: none}}",
        ],
        ['parameters:', '  Code:', '    name: code', '    in: query', '    schema:', "      pattern: '(['"],
      ),
      line: 17,
      column: 9,
      pointer: '/components/parameters/Code/schema',
      message: /^the schema of code in the query parameters of GET \/things cannot be compiled: Invalid regular/,
    },
    {
      what: 'a header parameter, at the keyword the JSON Schema meta-schema refuses',
      text: openapi('3.1.0', [
        '/things:',
        '  get:',
        '    operationId: listThings',
        '    parameters:',
        '      - name: X-Tags',
        '        in: header',
        '        schema: {type: array, items: 5}',
        "    responses: {'204': {description: none}}",
      ]),
      line: 10,
      column: 40,
      pointer: '/paths/~1things/get/parameters/0/schema/items',
      message:
        /^the schema of x-tags in the header parameters of GET \/things cannot be compiled: schema is invalid: data\/properties\/x-tags\/items must be object,boolean\.$/,
    },
    {
      what: 'a referenced request body of a 3.0 document, at its schema',
      text: openapi(
        '3.0.3',
        [
          '/things:',
          '  post:',
          '    operationId: makeThing',
          "    requestBody: {$ref: '#/components/requestBodies/Thing'}",
          "    responses: {'204': {description: none}}",
        ],
        [
          'requestBodies:',
          '  Thing:',
          '    content:',
          '      application/json:',
          '        schema:',
          '          type: object',
          "          properties: {name: {type: string, nullable: true, pattern: '(['}}",
        ],
      ),
      line: 15,
      column: 13,
      pointer: '/components/requestBodies/Thing/content/application~1json/schema',
      message: /^the schema of the request body of POST \/things cannot be compiled: Invalid regular expression/,
    },
    {
      what: 'a text answer written in place',
      text: openapi('3.1.0', [
        '/things:',
        '  get:',
        '    operationId: readThings',
        '    responses:',
        "      '200':",
        '        description: text',
        "        content: {text/plain: {schema: {type: string, pattern: '(['}}}",
      ]),
      line: 10,
      column: 42,
      pointer: '/paths/~1things/get/responses/200/content/text~1plain/schema',
      message: /^the schema of the 200 answer of GET \/things cannot be compiled: Invalid regular expression/,
    },
  ])('places $what at its schema', async ({ text, line, column, pointer, message }) => {
    const { file, found } = await alone('openapi', text);
    expect(found).toEqual([
      {
        severity: 'error',
        file,
        line,
        column,
        pointer,
        rule: 'casi/schema-compiles',
        message: expect.stringMatching(message),
      },
    ]);
  });
});

describe('check: a schema whose reference names nothing', () => {
  it('names the reference as the document writes it, not by the id the validators give it', async () => {
    const text = openapi(
      '3.1.0',
      [],
      [
        'schemas:',
        '  Thing:',
        '    type: object',
        "    properties: {owner: {$ref: '#/components/schemas/Owner~1Team'}, size: {$ref: '#/components/schemas/Size/properties/nope'}}",
        '  Size: {type: object}',
      ],
    );
    const { file, found } = await alone('openapi', text.replace('paths:\n', 'paths: {}\n'), 'missing-ref.yaml');
    expect(found).toEqual([
      expect.objectContaining({
        file,
        pointer: '/components/schemas/Thing',
        message: 'the schema Thing cannot be compiled: its $ref "#/components/schemas/Owner~1Team" names nothing.',
      }),
    ]);
  });
});

describe('check: a schema that names its dialect', () => {
  it('compiles: an AsyncAPI payload with draft-07 $schema, an OpenAPI 3.1 schema with 2020-12 and one with draft-07', async () => {
    const payload = DOCUMENT.replace(
      "        properties: {code: {type: string, pattern: '(['}}",
      "        $schema: 'http://json-schema.org/draft-07/schema#'\n        properties: {code: {type: string}}",
    );
    expect(payload).toContain('draft-07');
    expect((await alone('asyncapi', payload, 'draft-07-payload.yaml')).found).toEqual([]);
    const text = openapi(
      '3.1.0',
      [],
      [
        'schemas:',
        '  Thing:',
        "    $schema: 'https://json-schema.org/draft/2020-12/schema'",
        '    type: object',
        "    properties: {old: {$ref: '#/components/schemas/Old'}}",
        "  Old: {$schema: 'http://json-schema.org/draft-07/schema#', type: integer}",
      ],
    );
    expect((await alone('openapi', text.replace('paths:\n', 'paths: {}\n'), 'dialects.yaml')).found).toEqual([]);
  });
});
