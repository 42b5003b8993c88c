/** Every AsyncAPI message example validates against its payload (envelope + OpenAPI payload schema) and names it. */
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  ajv,
  asyncapi,
  componentSchemas,
  formatErrors,
  isObject,
  type Json,
  type JsonObject,
  OPENAPI_ID,
  rewriteRefs,
} from './load-specs.ts';
import { enumValues, walk } from './schema-walk.ts';

const OPENAPI_REF = './openapi.yaml#';

interface MessageCase {
  readonly key: string;
  readonly message: JsonObject;
  /** The payload schema as written (before ref rewriting), or undefined when the message has none. */
  readonly schema: Json | undefined;
}

function messages(): MessageCase[] {
  const components = isObject(asyncapi.components) ? asyncapi.components : {};
  const all = isObject(components.messages) ? components.messages : {};
  return Object.entries(all).flatMap(([key, message]) => {
    if (!isObject(message)) return [];
    const payload = message.payload;
    // A payload is a Multi Format Schema Object (`schemaFormat` + `schema`) or a plain schema.
    const schema = isObject(payload) && payload.schemaFormat !== undefined ? payload.schema : payload;
    return [{ key, message, schema }];
  });
}

/** `./openapi.yaml#/components/schemas/X` → `X`; undefined for any other ref. */
function openapiSchemaName(ref: Json | undefined): string | undefined {
  if (typeof ref !== 'string' || !ref.startsWith(`${OPENAPI_REF}/components/schemas/`)) return undefined;
  return ref.slice(`${OPENAPI_REF}/components/schemas/`.length);
}

/** The envelope (`ServerEvent` / `ClientEvent`) and the specific payload schema named by a message's `allOf`. */
function parts(schema: Json | undefined): { envelope?: string; payload?: string } {
  if (!isObject(schema) || !Array.isArray(schema.allOf)) return {};
  const out: { envelope?: string; payload?: string } = {};
  for (const part of schema.allOf) {
    if (!isObject(part)) continue;
    const envelope = openapiSchemaName(part.$ref);
    if (envelope !== undefined) out.envelope = envelope;
    const properties = isObject(part.properties) ? part.properties : {};
    const payload = isObject(properties.payload) ? openapiSchemaName(properties.payload.$ref) : undefined;
    if (payload !== undefined) out.payload = payload;
  }
  return out;
}

const compiled = new Map<string, ValidateFunction>();
function validatorFor(c: MessageCase): ValidateFunction {
  let validate = compiled.get(c.key);
  if (!validate) {
    const schema = rewriteRefs(c.schema as Json, (ref) =>
      ref.startsWith(OPENAPI_REF) ? `${OPENAPI_ID}#${ref.slice(OPENAPI_REF.length)}` : undefined,
    );
    validate = ajv.compile(schema as object);
    compiled.set(c.key, validate);
  }
  return validate;
}

const cases = messages();
const schemas = componentSchemas();

describe('AsyncAPI messages', () => {
  it('finds server and client messages', () => {
    expect(cases.some((c) => parts(c.schema).envelope === 'ServerEvent')).toBe(true);
    expect(cases.some((c) => parts(c.schema).envelope === 'ClientEvent')).toBe(true);
  });

  it('has one message per payload type of ServerEvent and ClientEvent, named after the type', () => {
    const want = [
      ...enumValues(walk([{ $ref: '#/components/schemas/ServerEvent' }], ['payload', 'type'], 'ServerEvent')),
      ...enumValues(walk([{ $ref: '#/components/schemas/ClientEvent' }], ['payload', 'type'], 'ClientEvent')),
    ].sort();
    const got = cases.map((c) => c.message.name).sort();
    expect(got).toEqual(want);
  });

  for (const c of cases) {
    describe(`#/components/messages/${c.key}`, () => {
      const { envelope, payload } = parts(c.schema);

      it('is the ServerEvent or ClientEvent envelope plus one OpenAPI payload schema of its type', () => {
        expect(
          ['ServerEvent', 'ClientEvent'],
          `${c.key}: allOf must reference ${OPENAPI_REF}/components/schemas/ServerEvent or ClientEvent`,
        ).toContain(envelope);
        expect(payload, `${c.key}: allOf must set properties.payload to an OpenAPI schema`).toBeDefined();
        const target = schemas[payload as string];
        expect(isObject(target), `${c.key}: ${payload} is not in openapi.yaml components.schemas`).toBe(true);
        const typeConst = enumValues(walk([target as Json], ['type'], `${payload}`));
        expect([...typeConst], `${c.key}: ${payload}.type must admit exactly the message name`).toEqual([
          c.message.name,
        ]);
      });

      it('is experimental exactly when its payload schema is', () => {
        const target = schemas[payload as string];
        const schemaFlag = isObject(target) && target['x-casi-experimental'] === true;
        expect(c.message['x-casi-experimental'] === true, `${c.key}: x-casi-experimental differs from ${payload}`).toBe(
          schemaFlag,
        );
      });

      it('has at least one example', () => {
        expect(Array.isArray(c.message.examples) && c.message.examples.length > 0, `${c.key} has no examples`).toBe(
          true,
        );
      });

      const examples = Array.isArray(c.message.examples) ? c.message.examples : [];
      examples.forEach((example, i) => {
        const name = isObject(example) && typeof example.name === 'string' ? example.name : `#${i}`;
        it(`examples/${i} (${name}) validates and carries its type`, () => {
          expect(isObject(example) && example.payload !== undefined, `${c.key}/examples/${i} has no payload`).toBe(
            true,
          );
          const value = (example as JsonObject).payload;
          const validate = validatorFor(c);
          expect(validate(value), `${c.key}/examples/${i} is invalid:\n${formatErrors(validate.errors)}`).toBe(true);

          const body = isObject(value) && isObject(value.payload) ? value.payload : {};
          expect(body.type, `${c.key}/examples/${i}: payload.type must equal the message name`).toBe(c.message.name);
          if (envelope === 'ServerEvent') {
            const experimental = c.message['x-casi-experimental'] === true;
            expect(
              isObject(value) ? value.experimental : undefined,
              `${c.key}/examples/${i}: experimental must be ${experimental} (x-casi-experimental of the message)`,
            ).toBe(experimental);
          }
        });
      });
    });
  }
});
