import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkExamples } from '../../generator/check/examples.js';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv } from '../../generator/schema/ajv.js';
import { fixture, SPEC } from './helpers.js';

const widgets = fixture('widgets');
const openapiText = readFileSync(widgets.openapi, 'utf8');
const asyncapiText = readFileSync(widgets.asyncapi, 'utf8');

/** The example findings for the widgets fixture with `edit` applied to its OpenAPI text. */
function findings(edit: (text: string) => string) {
  const text = edit(openapiText);
  expect(text).not.toBe(openapiText);
  const specs = {
    openapi: parseSourceDocument(widgets.openapi, text),
    asyncapi: parseSourceDocument(widgets.asyncapi, asyncapiText),
  };
  return checkExamples(specs.openapi, buildIr(specs));
}

describe('check: media type examples against their schemas', () => {
  it('accepts every example of the real spec and of both fixtures', async () => {
    for (const pair of [SPEC, widgets, fixture('streams')]) {
      const specs = await loadSpecs(pair.openapi, pair.asyncapi);
      expect(checkExamples(specs.openapi, buildIr(specs))).toEqual([]);
    }
  });

  it('reports a request example of the wrong type at the member, with its line', () => {
    const found = findings((t) => t.replace('one: {value: {name: Bolt}}', 'one: {value: {name: 7}}'));
    expect(found).toEqual([
      {
        severity: 'warning',
        file: widgets.openapi,
        line: 32,
        column: 35,
        pointer: '/paths/~1widgets/post/requestBody/content/application~1json/examples/one/value/name',
        message: 'Example value must conform to the schema: must be string.',
        rule: 'casi/valid-example',
      },
    ]);
  });

  it('reports each problem of a response example: a missing member and one the schema does not allow', () => {
    const found = findings((t) =>
      t.replace('one: {value: {id: w_1, name: Bolt}}', 'one: {value: {id: w_1, colour: red}}'),
    );
    expect(found.map((d) => [d.line, d.pointer, d.message])).toEqual([
      [
        40,
        '/paths/~1widgets/post/responses/200/content/application~1json/examples/one/value/name',
        "Example value must conform to the schema: must have required property 'name'.",
      ],
      [
        40,
        '/paths/~1widgets/post/responses/200/content/application~1json/examples/one/value/colour',
        'Example value must conform to the schema: must NOT have additional properties.',
      ],
    ]);
  });

  it('checks a single `example`, an inline schema and an example behind a $ref, where the value is', () => {
    const found = findings((t) =>
      t
        .replace(
          "schema: {$ref: '#/components/schemas/Error'}",
          'schema: {type: object, required: [code], properties: {code: {type: string}}}\n          example: {code: 4}',
        )
        .replace('one: {value: {name: Bolt}}', "one: {$ref: '#/components/examples/Long'}")
        .replace('components:\n', 'components:\n  examples:\n    Long: {value: {name: abcdefghijklmnopqrstuvwxyz}}\n'),
    );
    expect(found.map((d) => [d.pointer, d.message])).toEqual([
      [
        '/components/examples/Long/value/name',
        'Example value must conform to the schema: must NOT have more than 20 characters.',
      ],
      [
        '/components/responses/Problem/content/application~1json/example/code',
        'Example value must conform to the schema: must be string.',
      ],
    ]);
    for (const d of found) expect(d.line).toBeGreaterThan(0);
  });

  it('leaves documents whose schemas ajv refuses to the document validators', () => {
    const broken = (t: string) => t.replace('required: [id, name]', 'required: name');
    const specs = {
      openapi: parseSourceDocument(widgets.openapi, broken(openapiText)),
      asyncapi: parseSourceDocument(widgets.asyncapi, asyncapiText),
    };
    expect(() => createAjv(buildIr(specs), { standalone: false })).toThrow(/schema is invalid/);
    expect(findings(broken)).toEqual([]);
  });
});
