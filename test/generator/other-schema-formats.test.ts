/**
 * An AsyncAPI payload written in another schema format than JSON Schema (Avro here) is typed `unknown` and not
 * validated, with a warning; its `$ref`s (a URL, a file that is not there) are that format's business, so neither
 * check nor generate follows them, and the parser's failure to read one is a warning of `casi check`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSpecs } from '../../generator/check/index.js';
import { formatDiagnostic } from '../../generator/diagnostics.js';
import { loadSpecs } from '../../generator/load/index.js';
import { compileStrict } from './compile-strict.js';
import { generateAlone, workDirectory } from './generate-alone.js';

const work = workDirectory('other-schema-formats');

const AVRO = 'application/vnd.apache.avro;version=1.9.0';

/** A 3.0 document: two Avro payloads by reference (a URL, a missing file), one written inline, one JSON Schema. */
const ASYNCAPI_3 = {
  asyncapi: '3.0.0',
  info: { title: 'Costing', version: '1.0.0' },
  servers: { broker: { host: 'broker.invalid', protocol: 'wss' } },
  channels: {
    costs: {
      address: '/costs',
      messages: {
        request: { $ref: '#/components/messages/CostingRequest' },
        reply: { $ref: '#/components/messages/CostingReply' },
        item: { $ref: '#/components/messages/Item' },
        note: { $ref: '#/components/messages/Note' },
      },
    },
  },
  operations: {
    ask: {
      action: 'send',
      channel: { $ref: '#/channels/costs' },
      messages: [{ $ref: '#/channels/costs/messages/request' }, { $ref: '#/channels/costs/messages/note' }],
    },
    hear: {
      action: 'receive',
      channel: { $ref: '#/channels/costs' },
      messages: [{ $ref: '#/channels/costs/messages/reply' }, { $ref: '#/channels/costs/messages/item' }],
    },
  },
  components: {
    messages: {
      CostingRequest: {
        payload: { schemaFormat: AVRO, schema: { $ref: 'https://broker.invalid/schemas/CostingRequest.avsc' } },
      },
      CostingReply: {
        payload: {
          schemaFormat: AVRO,
          schema: { type: 'record', name: 'CostingReply', fields: [{ name: 'price', type: 'double' }] },
        },
      },
      Item: { payload: { schemaFormat: AVRO, schema: { $ref: './missing/Item.avsc' } } },
      Note: { payload: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
    },
  },
};

/** A 2.6 document: the format beside the payload, on the message. */
const ASYNCAPI_2 = {
  asyncapi: '2.6.0',
  info: { title: 'Costing', version: '1.0.0' },
  servers: { broker: { url: 'broker.invalid', protocol: 'ws' } },
  channels: {
    costs: {
      publish: { message: { $ref: '#/components/messages/CostingRequest' } },
      subscribe: { message: { $ref: '#/components/messages/Note' } },
    },
  },
  components: {
    messages: {
      CostingRequest: {
        schemaFormat: AVRO,
        payload: { $ref: 'https://broker.invalid/schemas/CostingRequest.avsc' },
      },
      Note: { payload: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
    },
  },
};

describe('AsyncAPI payloads in another schema format than JSON Schema', () => {
  for (const [version, document] of [
    ['3.0', ASYNCAPI_3],
    ['2.6', ASYNCAPI_2],
  ] as const) {
    it(`generate (${version}): typed unknown, with a warning, their references not followed`, async () => {
      const { out, files, diagnostics, errors } = await generateAlone(work, `avro-${version}`, 'asyncapi', document);
      expect(errors, diagnostics.join('\n')).toBe(false);
      expect(
        diagnostics.filter((d) => d.includes(' warning the payload is in application/vnd.apache.avro')),
      ).toHaveLength(version === '3.0' ? 3 : 1);
      expect(diagnostics.join('\n')).not.toMatch(/invalid\.avsc|Item\.avsc|reads local files only/);
      expect(compileStrict(out)).toEqual([]);
      const types = files.find((f) => f.path === 'src/types.gen.ts')?.content ?? '';
      expect(types).toMatch(/^ {8}CostingRequest: unknown;$/m);
      // The JSON Schema payload beside them is typed and validated as usual.
      const { validators } = (await import(join(out, 'src/validators.gen.ts'))) as {
        validators: Record<string, (value: unknown) => boolean>;
      };
      expect(validators.Note?.({ text: 'hi' })).toBe(true);
      expect(validators.Note?.({})).toBe(false);
      expect(validators.CostingRequest?.({ anything: 1 })).toBe(true);
    });
  }

  it('component schemas written as Multi Format Schema objects: JSON ones typed and validated, others unknown', async () => {
    const document = structuredClone(ASYNCAPI_3) as typeof ASYNCAPI_3 & { components: { schemas?: object } };
    document.components.schemas = {
      JsonThing: {
        schemaFormat: 'application/vnd.aai.asyncapi+json;version=3.0.0',
        schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
      },
      AvroThing: {
        schemaFormat: AVRO,
        schema: { type: 'record', name: 'Thing', fields: [{ name: 'n', type: 'int' }] },
      },
    };
    document.components.messages.Note.payload = { $ref: '#/components/schemas/JsonThing' } as never;
    const { out, files, diagnostics, errors } = await generateAlone(work, 'multi-format', 'asyncapi', document);
    expect(errors, diagnostics.join('\n')).toBe(false);
    expect(diagnostics.filter((d) => d.includes('at #/components/schemas/'))).toEqual([
      expect.stringMatching(
        / warning the schema is in application\/vnd\.apache\.avro.* at #\/components\/schemas\/AvroThing$/,
      ),
    ]);
    const types = files.find((f) => f.path === 'src/types.gen.ts')?.content ?? '';
    expect(types).toMatch(/^ {8}AvroThing: unknown;$/m);
    expect(types).toMatch(/^ {8}JsonThing: \{$/m);
    expect(compileStrict(out)).toEqual([]);
    const { validators } = (await import(join(out, 'src/validators.gen.ts'))) as {
      validators: Record<string, (value: unknown) => boolean>;
    };
    expect(validators.JsonThing?.({ n: 1 })).toBe(true);
    expect(validators.JsonThing?.({ n: 'one' })).toBe(false);
    expect(validators.Note?.({})).toBe(false);
  });

  /** `casi check` of `document`: the file, and the references it could not read; no diagnostic is an error. */
  async function checked(name: string, document: object) {
    const file = join(work, `${name}.asyncapi.json`);
    writeFileSync(file, JSON.stringify(document, null, 2));
    const diagnostics = await checkSpecs(await loadSpecs(undefined, file));
    const shown = diagnostics.map((d) => formatDiagnostic(d));
    expect(
      diagnostics.filter((d) => d.severity === 'error'),
      shown.join('\n'),
    ).toEqual([]);
    return { file, refs: diagnostics.filter((d) => d.rule === 'asyncapi/invalid-ref') };
  }

  it('casi check (2.6): what the parser finds in the place of a reference it cannot read is not an error', async () => {
    const { refs } = await checked('check-avro-2.6', ASYNCAPI_2);
    expect(refs.map((d) => [d.severity, d.pointer])).toEqual([
      ['warning', '/components/messages/CostingRequest/payload/$ref'],
    ]);
  });

  it('casi check (the AsyncAPI parser too): a reference it cannot read there is a warning, not an error', async () => {
    const { file, refs } = await checked('check-avro', ASYNCAPI_3);
    expect(refs.map((d) => d.pointer).sort()).toEqual([
      '/components/messages/CostingRequest/payload/schema/$ref',
      '/components/messages/Item/payload/schema/$ref',
    ]);
    expect(refs.every((d) => d.severity === 'warning' && d.message.endsWith('casi does not read it'))).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(refs.every((d) => d.line > 1 && text.split('\n')[d.line - 1]?.includes('$ref'))).toBe(true);
  });

  it('a JSON Schema payload that refers to a URL is still an error, at its $ref', async () => {
    const document = structuredClone(ASYNCAPI_3);
    document.components.messages.Note.payload = { $ref: 'https://broker.invalid/note.json' } as never;
    const { diagnostics, errors } = await generateAlone(work, 'json-url', 'asyncapi', document);
    expect(errors).toBe(true);
    expect(diagnostics.join('\n')).toMatch(
      /:\d+:\d+ error `\$ref: https:\/\/broker\.invalid\/note\.json` is a URL; casi reads local files only .* at #\/components\/messages\/Note\/payload\/\$ref/,
    );
  });
});
