/**
 * A `$ref` to a schema written outside the component schemas is made, at load, a `$ref` to a component schema copied
 * from it (load/pointed-schemas.ts): in the document the pointer is read in, cycles included, with what is found
 * inside a copy placed where the schema is written.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeCheck, modelOf } from '../../generator/check/index.js';
import { checkSchemasCompile } from '../../generator/check/schemas.js';
import { loadSpecs, valueAt } from '../../generator/load/index.js';
import { hoistPointedSchemas } from '../../generator/load/pointed-schemas.js';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('pointed-schemas');

/** Loads `text` as the only document, of `kind`, written as `name`. */
async function loadAlone(kind: 'openapi' | 'asyncapi', name: string, text: string) {
  const file = join(work, name);
  writeFileSync(file, text);
  return { file, specs: kind === 'openapi' ? await loadSpecs(file, undefined) : await loadSpecs(undefined, file) };
}

/** The 1-based line of the first line of `text` holding `needle`. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

/** An OpenAPI document: a response schema that contains itself, and a parameter that reuses a component's property. */
const OPENAPI = [
  'openapi: 3.1.0',
  'info: {title: Pointers, version: 1.0.0}',
  'paths:',
  '  /nodes/{id}:',
  '    get:',
  '      operationId: getNode',
  '      parameters:',
  "        - {name: id, in: path, required: true, schema: {$ref: '#/components/schemas/Item/properties/id'}}",
  '      responses:',
  "        '200':",
  '          description: ok',
  '          content:',
  '            application/json:',
  '              schema:',
  '                type: object',
  '                properties:',
  '                  size: {type: integer, minimum: 1}',
  "                  child: {$ref: '#/paths/~1nodes~1{id}/get/responses/200/content/application~1json/schema'}",
  "                  twin: {$ref: '#/paths/~1nodes~1%7Bid%7D/get/responses/200/content/application~1json/schema'}",
  '              example: {size: 2, child: {size: 0}}',
  'components:',
  '  schemas:',
  '    Item:',
  '      type: object',
  '      properties:',
  '        id: {type: string, pattern: "^[a-z]+$", maximum: 9, exclusiveMaximum: true}',
].join('\n');

describe('load: references to schemas outside the component schemas', () => {
  it('point at component schemas copied from their targets, named after them, cycles included', async () => {
    const { specs } = await loadAlone('openapi', 'pointers.openapi.yaml', OPENAPI);
    const doc = specs.openapi.value;
    const response = '/paths/~1nodes~1{id}/get/responses/200/content/application~1json/schema';
    expect(valueAt(doc, '/paths/~1nodes~1{id}/get/parameters/0/schema')).toEqual({ $ref: '#/components/schemas/id' });
    expect(valueAt(doc, `${response}/properties/child`)).toEqual({ $ref: '#/components/schemas/schema' });
    // The same place, percent-encoded: the same copy.
    expect(valueAt(doc, `${response}/properties/twin`)).toEqual({ $ref: '#/components/schemas/schema' });
    expect(Object.keys(valueAt(doc, '/components/schemas') as object)).toEqual(['Item', 'id', 'schema']);
    expect(valueAt(doc, '/components/schemas/id')).toMatchObject({ type: 'string', pattern: '^[a-z]+$' });
    expect(valueAt(doc, '/components/schemas/schema/properties/child')).toEqual({
      $ref: '#/components/schemas/schema',
    });
    // The schemas stay where they are written too: only the references change.
    expect(valueAt(doc, `${response}/properties/size`)).toMatchObject({ type: 'integer' });
    expect(valueAt(doc, '/components/schemas/Item/properties/id')).toMatchObject({ type: 'string' });
  });

  it('leave documents without such references as they were loaded', async () => {
    const { specs } = await loadAlone('openapi', 'plain.openapi.yaml', OPENAPI.replace(/\{\$ref: '#\/[^']*'\}/g, '{}'));
    expect(hoistPointedSchemas(specs)).toBe(specs);
  });

  it('place what is found inside a copy where the schema is written: file, line and pointer', async () => {
    const { file, specs } = await loadAlone('openapi', 'placed.openapi.yaml', OPENAPI);
    expect(specs.openapi.locate('/components/schemas/id/pattern')).toEqual({
      pointer: '/components/schemas/Item/properties/id/pattern',
      line: lineOf(OPENAPI, '        id: {type'),
      column: expect.any(Number),
    });
    const model = modelOf(specs);
    expect(model.ir).toBeDefined();
    const found = completeCheck(specs, [], model);
    // The 3.0 boolean bound, in the copy and in the schema it was copied from: one warning, where it is written.
    expect(
      found.filter((d) => d.message.startsWith('exclusiveMaximum')).map((d) => [d.file, d.line, d.pointer]),
    ).toEqual([
      [file, lineOf(OPENAPI, '        id: {type'), '/components/schemas/Item/properties/id/exclusiveMaximum'],
    ]);
    // An example the copied schema refuses is reported where the example is.
    const example = '/paths/~1nodes~1{id}/get/responses/200/content/application~1json/example';
    expect(found.filter((d) => d.rule === 'casi/valid-example').map((d) => [d.file, d.line, d.pointer])).toEqual([
      [file, lineOf(OPENAPI, 'example: {size'), `${example}/child/size`],
    ]);
  });

  it('check and generate report a finding inside a copy once, at the place it is written', async () => {
    const { errors, diagnostics } = await generateAlone(work, 'placed', 'openapi', {
      openapi: '3.1.0',
      info: { title: 'Placed', version: '1' },
      paths: {},
      components: {
        responses: {
          Tree: {
            description: 'a tree',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { Broken: { type: 'string', pattern: '([' } } },
              },
            },
          },
        },
        schemas: {
          Node: {
            type: 'object',
            properties: {
              code: { $ref: '#/components/responses/Tree/content/application~1json/schema/properties/Broken' },
            },
          },
        },
      },
    });
    expect(errors).toBe(true);
    const broken = diagnostics.filter((d) => d.includes('casi/schema-compiles'));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(
      /placed\.openapi\.json:\d+:\d+ error the schema Broken cannot be compiled: .*Invalid regular expression.* at #\/components\/responses\/Tree\/content\/application~1json\/schema\/properties\/Broken$/,
    );
  }, 120_000);
});

/** Checks and strictly compiles the package of `document` (of `kind`), and returns its validators. */
async function generated(name: string, kind: 'openapi' | 'asyncapi', document: object) {
  const { out, errors, diagnostics } = await generateAlone(work, name, kind, document);
  expect(errors, diagnostics.join('\n')).toBe(false);
  expect(compileStrict(out)).toEqual([]);
  return (await import(join(out, 'src/validators.gen.ts'))) as Record<string, (data: unknown) => boolean>;
}

/**
 * An AsyncAPI document whose payloads point into a message (`tree`, whose payload contains itself) and into a
 * channel's inline message (`labelled`).
 */
const ASYNCAPI = {
  asyncapi: '3.0.0',
  info: { title: 'Pointer payloads', version: '1.0.0' },
  servers: { local: { host: 'localhost:8080', protocol: 'ws' } },
  channels: {
    trees: {
      address: '/trees',
      messages: {
        tree: { $ref: '#/components/messages/tree' },
        branches: { payload: { $ref: '#/components/messages/tree/payload/properties/children' } },
        label: { payload: { $ref: '#/channels/labels/messages/labelled/payload/properties/label' } },
      },
    },
    labels: {
      address: '/labels',
      messages: {
        labelled: {
          payload: {
            type: 'object',
            required: ['label'],
            properties: { label: { type: 'string', minLength: 2 } },
          },
        },
      },
    },
  },
  operations: {
    receiveTrees: { action: 'receive', channel: { $ref: '#/channels/trees' } },
    receiveLabels: { action: 'receive', channel: { $ref: '#/channels/labels' } },
  },
  components: {
    messages: {
      tree: {
        payload: {
          type: 'object',
          required: ['label'],
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/messages/tree/payload' } },
          },
        },
      },
    },
  },
};

describe('AsyncAPI payloads that point into a message or a channel', () => {
  it('are read in the AsyncAPI document and become its component schemas', async () => {
    const { specs } = await loadAlone('asyncapi', 'payloads.asyncapi.json', JSON.stringify(ASYNCAPI));
    const doc = specs.asyncapi.value;
    expect(valueAt(doc, '/channels/trees/messages/branches/payload')).toEqual({
      $ref: '#/components/schemas/children',
    });
    // `label` is a message's name: the copy takes the next free one.
    expect(valueAt(doc, '/channels/trees/messages/label/payload')).toEqual({ $ref: '#/components/schemas/label_2' });
    expect(valueAt(doc, '/components/schemas/children/items')).toEqual({ $ref: '#/components/schemas/payload' });
    expect(valueAt(doc, '/components/schemas/payload/properties/children/items')).toEqual({
      $ref: '#/components/schemas/payload',
    });
    expect(valueAt(doc, '/components/schemas/label_2')).toEqual({ type: 'string', minLength: 2 });
    expect(valueAt(specs.openapi.value, '/components')).toBeUndefined();
    const { ir } = modelOf(specs);
    expect(ir === undefined ? ['no model'] : checkSchemasCompile(specs, ir)).toEqual([]);
  });

  it('of AsyncAPI 2.6, in a message written in a channel operation, are read there too', async () => {
    const document = {
      asyncapi: '2.6.0',
      info: { title: 'Lights', version: '1.0.0' },
      channels: {
        lights: {
          subscribe: {
            message: {
              name: 'lightMeasured',
              payload: { $ref: '#/components/messages/measured/payload/properties/lux' },
            },
          },
        },
      },
      components: {
        messages: { measured: { payload: { type: 'object', properties: { lux: { type: 'integer', minimum: 0 } } } } },
      },
    };
    const { specs } = await loadAlone('asyncapi', 'lights.asyncapi.json', JSON.stringify(document));
    expect(valueAt(specs.asyncapi.value, '/channels/lights/subscribe/message/payload')).toEqual({
      $ref: '#/components/schemas/lux',
    });
    const { ir } = modelOf(specs);
    expect(ir === undefined ? ['no model'] : checkSchemasCompile(specs, ir)).toEqual([]);
  });

  it('that point into the OpenAPI document by its path are read there', async () => {
    const openapiFile = join(work, 'pair.openapi.yaml');
    writeFileSync(openapiFile, OPENAPI);
    const response = '/paths/~1nodes~1{id}/get/responses/200/content/application~1json/schema';
    const { file: asyncapiFile } = await loadAlone(
      'asyncapi',
      'pair.asyncapi.json',
      JSON.stringify({
        asyncapi: '3.0.0',
        info: { title: 'Nodes', version: '1.0.0' },
        channels: {
          nodes: { address: '/nodes', messages: { node: { payload: { $ref: `./pair.openapi.yaml#${response}` } } } },
        },
      }),
    );
    const specs = await loadSpecs(openapiFile, asyncapiFile);
    expect(valueAt(specs.asyncapi.value, '/channels/nodes/messages/node/payload')).toEqual({
      $ref: './pair.openapi.yaml#/components/schemas/schema',
    });
    expect(valueAt(specs.openapi.value, `${response}/properties/child`)).toEqual({
      $ref: '#/components/schemas/schema',
    });
    expect(valueAt(specs.asyncapi.value, '/components')).toBeUndefined();
    const { ir } = modelOf(specs);
    expect(ir === undefined ? ['no model'] : checkSchemasCompile(specs, ir)).toEqual([]);
  });

  it('generate validators and types that compile strictly and follow them, cycles included', async () => {
    const validators = await generated('payloads', 'asyncapi', ASYNCAPI);
    // Named after the messages, as written.
    const { validatebranches: branches, validatelabel: label, validatetree: tree } = validators;
    expect(tree?.({ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] })).toBe(true);
    expect(tree?.({ label: 'a', children: [{ label: 'b', children: [{}] }] })).toBe(false);
    expect(branches?.([{ label: 'b', children: [] }])).toBe(true);
    expect(branches?.([{ children: [] }])).toBe(false);
    expect(label?.('ab')).toBe(true);
    expect(label?.('a')).toBe(false);
  }, 120_000);
});
