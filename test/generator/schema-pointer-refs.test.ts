/**
 * A `$ref` that points into a component schema (`#/components/schemas/Item/properties/id`, `…/Item/$defs/Local`), as
 * real documents reuse one property of another schema, compiles and validates as what it points at; so does one to a
 * schema written anywhere else in the document (`#/paths/…/schema`), as OpenAPI allows any local pointer. (The load
 * stage makes each such target a component schema: load/pointed-schemas.ts.)
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { hoistPointedSchemas } from '../../generator/load/pointed-schemas.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv, schemaId } from '../../generator/schema/ajv.js';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('schema-pointer-refs');

/** The IR of `document` (an OpenAPI one, alone) as the load stage gives it to the later stages. */
async function irOf(document: object): Promise<ReturnType<typeof buildIr>> {
  const { asyncapi } = await loadSpecs(undefined, undefined);
  const openapi = parseSourceDocument('/virtual/openapi.json', JSON.stringify(document));
  return buildIr(hoistPointedSchemas({ openapi, asyncapi }));
}

const document = {
  openapi: '3.1.0',
  info: { title: 'Pointer references', version: '1' },
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [{ name: 'id', in: 'query', schema: { $ref: '#/components/schemas/Item/properties/id' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item/$defs/Local' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Item: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^[a-z]+$' }, 'a/b': { type: 'integer' } },
        $defs: { Local: { type: 'integer', minimum: 1 } },
      },
      Thing: {
        type: 'object',
        properties: {
          id: { $ref: '#/components/schemas/Item/properties/id' },
          n: { $ref: '#/components/schemas/Item/$defs/Local' },
          slash: { $ref: '#/components/schemas/Item/properties/a~1b' },
        },
      },
    },
  },
};

describe('references into a component schema', () => {
  it('compile and validate as the schema they point at', async () => {
    const ir = await irOf(document);
    const ajv = createAjv(ir, { standalone: true });
    const thing = ajv.getSchema(schemaId('Thing'));
    expect(thing?.({ id: 'abc', n: 2, slash: 3 })).toBe(true);
    expect(thing?.({ id: 'ABC' })).toBe(false);
    expect(thing?.({ n: 0 })).toBe(false);
    expect(thing?.({ slash: 'x' })).toBe(false);
  });
});

/** Where the request body of `POST /nodes` is written: the schema the other references point at. */
const BODY = '#/paths/~1nodes/post/requestBody/content/application~1json/schema';

/** A document whose schemas reference one written under `paths` (and one of its properties), itself recursive. */
const outsideComponents = (openapi: string) => ({
  openapi,
  info: { title: 'References outside the components', version: '1' },
  paths: {
    '/nodes': {
      post: {
        operationId: 'addNode',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  note: { type: 'string', nullable: true },
                  child: { $ref: BODY },
                },
              },
            },
          },
        },
        responses: { '204': { description: 'added' } },
      },
      get: {
        operationId: 'firstChild',
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: `${BODY}/properties/child` } } },
          },
        },
      },
    },
  },
  components: { schemas: { Node: { $ref: BODY } } },
});

describe('references to a schema outside the component schemas', () => {
  it('compile and validate as the schema they point at, cycles included, in its dialect (3.0 nullable)', async () => {
    for (const [openapi, noteMayBeNull] of [
      ['3.0.3', true],
      ['3.1.0', false],
    ] as const) {
      const ir = await irOf(outsideComponents(openapi));
      for (const standalone of [true, false]) {
        const node = createAjv(ir, { standalone }).getSchema(schemaId('Node'));
        expect(node?.({ name: 'a', child: { name: 'b', child: { name: 'c' } } })).toBe(true);
        expect(node?.({ name: 'a', child: { name: 'b', child: { name: 3 } } })).toBe(false);
        // 3.0's nullable adds null; in 3.1 it is an annotation, and compiles.
        expect(node?.({ note: null })).toBe(noteMayBeNull);
      }
    }
  });

  it('generate a package whose validators follow them', async () => {
    const { out, errors, diagnostics } = await generateAlone(
      work,
      'outside-components',
      'openapi',
      outsideComponents('3.0.3'),
    );
    expect(errors, diagnostics.join('\n')).toBe(false);
    const { validateNode } = (await import(join(out, 'src/validators.gen.ts'))) as Record<
      string,
      (data: unknown) => boolean
    >;
    expect(validateNode?.({ child: { child: { note: null } } })).toBe(true);
    expect(validateNode?.({ child: { child: { note: 1 } } })).toBe(false);
    // openapi-typescript alone types such a reference as an index into `paths`, which does not compile.
    expect(compileStrict(out)).toEqual([]);
  }, 120_000);

  it('name a pointer to nothing as the document writes it', async () => {
    const doc = outsideComponents('3.1.0');
    doc.components.schemas.Node = { $ref: `${BODY}/properties/missing` };
    const { errors, diagnostics } = await generateAlone(work, 'outside-nothing', 'openapi', doc);
    expect(errors).toBe(true);
    expect(diagnostics.join('\n')).toContain(`its $ref "${BODY}/properties/missing" names nothing`);
  }, 120_000);
});
