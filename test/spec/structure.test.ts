/** Structural rules every operation and schema of openapi.yaml follows (documentation, auth, examples, errors). */
import { describe, expect, it } from 'vitest';
import {
  ajv,
  ajvWarnings,
  componentSchemas,
  derefLocal,
  isObject,
  type Json,
  type JsonObject,
  OPENAPI_ID,
  type OperationEntry,
  openapi,
  operations,
  parametersOf,
} from './load-specs.ts';
import { requiredOf } from './schema-walk.ts';

/** The two operations browsers open without custom headers: `Service-Version` may be optional there. */
const HEADERLESS = new Set([
  'get /conversations/{conversation_id}/events',
  'get /conversations/{conversation_id}/session',
]);
/** Operations that accept the conversation's ephemeral token (source section 5, item 2). */
const TOKEN_OPERATIONS = HEADERLESS;

const all = operations();
const label = (e: OperationEntry): string =>
  e.section === 'webhooks' ? `webhook ${e.path} ${e.method.toUpperCase()}` : `${e.method.toUpperCase()} ${e.path}`;
const key = (e: OperationEntry): string => `${e.method} ${e.path}`;

function resolved(node: Json | undefined): JsonObject | undefined {
  const value = derefLocal(openapi, node);
  return isObject(value) ? value : undefined;
}

function securityOf(e: OperationEntry): Json[] {
  const own = e.operation.security;
  if (Array.isArray(own)) return own;
  return Array.isArray(openapi.security) ? openapi.security : [];
}

function requestBodyContent(e: OperationEntry): [string, JsonObject][] {
  const body = resolved(e.operation.requestBody);
  const content = body && isObject(body.content) ? body.content : {};
  return Object.entries(content).flatMap(([type, media]) =>
    isObject(media) ? [[type, media] as [string, JsonObject]] : [],
  );
}

function responsesOf(e: OperationEntry): [string, JsonObject, Json | undefined][] {
  const responses = isObject(e.operation.responses) ? e.operation.responses : {};
  return Object.entries(responses).flatMap(([status, raw]) => {
    const response = resolved(raw);
    return response ? [[status, response, raw] as [string, JsonObject, Json | undefined]] : [];
  });
}

function namedExamples(media: JsonObject): string[] {
  return isObject(media.examples) ? Object.keys(media.examples) : [];
}

describe('every operation', () => {
  it('finds the operations and the webhook', () => {
    expect(all.filter((e) => e.section === 'paths').length).toBeGreaterThan(0);
    expect(all.filter((e) => e.section === 'webhooks').length).toBeGreaterThan(0);
  });

  it('has a unique operationId', () => {
    const ids = all.map((e) => e.operation.operationId);
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates, 'duplicated operationIds').toEqual([]);
  });

  for (const e of all) {
    describe(label(e), () => {
      it('has operationId, summary, description and a declared tag', () => {
        const op = e.operation;
        for (const field of ['operationId', 'summary', 'description'] as const) {
          expect(typeof op[field] === 'string' && op[field] !== '', `${label(e)}: missing ${field}`).toBe(true);
        }
        expect(Array.isArray(op.tags) && op.tags.length > 0, `${label(e)}: no tag`).toBe(true);
        const declared = (Array.isArray(openapi.tags) ? openapi.tags : []).map((t) =>
          isObject(t) ? t.name : undefined,
        );
        for (const tag of op.tags as Json[])
          expect(declared, `${label(e)}: tag ${String(tag)} is not declared`).toContain(tag);
      });

      it('has a named example for every request body media type', () => {
        for (const [type, media] of requestBodyContent(e)) {
          expect(namedExamples(media).length, `${label(e)}: request body ${type} has no named example`).toBeGreaterThan(
            0,
          );
        }
      });

      it('has a named example for every 2xx response with content', () => {
        for (const [status, response] of responsesOf(e)) {
          if (!/^2/.test(status) || !isObject(response.content)) continue;
          for (const [type, media] of Object.entries(response.content)) {
            const count = isObject(media) ? namedExamples(media).length : 0;
            expect(count, `${label(e)}: response ${status} ${type} has no named example`).toBeGreaterThan(0);
          }
        }
      });

      if (e.section === 'webhooks') return;

      it('has x-casi-method', () => {
        const method = e.operation['x-casi-method'];
        expect(typeof method === 'string' && method !== '', `${label(e)}: missing x-casi-method`).toBe(true);
      });

      it('declares the Service-Version header', () => {
        const header = parametersOf(e).find((p) => p.in === 'header' && p.name === 'Service-Version');
        expect(header, `${label(e)}: no Service-Version header parameter`).toBeDefined();
        if (!HEADERLESS.has(key(e))) {
          expect(header?.required, `${label(e)}: Service-Version must be required`).toBe(true);
        }
      });

      it('is secured by apiKey', () => {
        const names = securityOf(e).flatMap((r) => (isObject(r) ? Object.keys(r) : []));
        expect(names, `${label(e)}: security does not list apiKey`).toContain('apiKey');
      });

      if (TOKEN_OPERATIONS.has(key(e))) {
        it('also accepts the conversation token as ?token=', () => {
          const names = securityOf(e).flatMap((r) => (isObject(r) ? Object.keys(r) : []));
          expect(names, `${label(e)}: security does not list conversationToken`).toContain('conversationToken');
          const schemes = isObject(openapi.components) ? resolved(openapi.components.securitySchemes) : undefined;
          const scheme = schemes ? resolved(schemes.conversationToken) : undefined;
          expect(scheme, 'components.securitySchemes.conversationToken').toMatchObject({
            type: 'apiKey',
            in: 'query',
            name: 'token',
          });
        });
      }

      it('lists x-casi-invalid-examples for every request body media type', () => {
        for (const [type, media] of requestBodyContent(e)) {
          const list = media['x-casi-invalid-examples'];
          expect(Array.isArray(list) && list.length > 0, `${label(e)}: ${type} has no x-casi-invalid-examples`).toBe(
            true,
          );
          const names = (list as Json[]).map((item) => (isObject(item) ? item.name : undefined));
          const duplicates = names.filter((n, i) => names.indexOf(n) !== i);
          expect(duplicates, `${label(e)}: duplicated invalid example names`).toEqual([]);
        }
      });

      it('answers every 4xx/5xx with the Error schema', () => {
        for (const [status, response] of responsesOf(e)) {
          if (!/^[45]/.test(status)) continue;
          const content = isObject(response.content) ? response.content : {};
          const types = Object.keys(content);
          expect(types.length, `${label(e)}: response ${status} has no content`).toBeGreaterThan(0);
          for (const [type, media] of Object.entries(content)) {
            const ref = isObject(media) && isObject(media.schema) ? media.schema.$ref : undefined;
            expect(ref, `${label(e)}: response ${status} ${type} does not use Error`).toBe(
              '#/components/schemas/Error',
            );
          }
        }
      });
    });
  }
});

describe('component schemas', () => {
  const schemas = componentSchemas();

  it('all compile in ajv strict mode without warnings', () => {
    const failures: string[] = [];
    for (const name of Object.keys(schemas)) {
      try {
        ajv.compile({ $ref: `${OPENAPI_ID}#/components/schemas/${name}` });
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    expect(failures, 'schemas ajv refuses').toEqual([]);
    expect(ajvWarnings, 'ajv strict-mode warnings').toEqual([]);
  });

  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema) || !isObject(schema.discriminator)) continue;
    it(`${name}: discriminator mapping matches the oneOf variants and their tag`, () => {
      const { propertyName, mapping } = schema.discriminator as JsonObject;
      expect(typeof propertyName, `${name}: discriminator.propertyName`).toBe('string');
      const branches = (Array.isArray(schema.oneOf) ? schema.oneOf : []).map((b) => (isObject(b) ? b.$ref : undefined));
      expect(branches.length, `${name}: a discriminator needs oneOf`).toBeGreaterThan(0);
      const targets = isObject(mapping) ? Object.values(mapping) : [];
      expect([...targets].sort(), `${name}: mapping targets differ from the oneOf refs`).toEqual([...branches].sort());
      for (const [tag, target] of Object.entries(isObject(mapping) ? mapping : {})) {
        const variant = resolved({ $ref: String(target) });
        const property =
          variant && isObject(variant.properties) ? resolved(variant.properties[String(propertyName)]) : undefined;
        const values = property?.const !== undefined ? [property.const] : property?.enum;
        expect(values, `${name}: ${String(target)} must fix ${String(propertyName)} to '${tag}'`).toEqual([tag]);
        expect([...requiredOf(variant)], `${name}: ${String(target)} must require ${String(propertyName)}`).toContain(
          propertyName,
        );
      }
    });
  }

  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema) || !isObject(schema['x-casi-discriminator'])) continue;
    it(`${name}: every variant declares the x-casi-discriminator property`, () => {
      const { propertyName } = schema['x-casi-discriminator'] as JsonObject;
      expect(typeof propertyName, `${name}: x-casi-discriminator.propertyName`).toBe('string');
      const branches = [
        ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
        ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
      ];
      const variants = branches.length > 0 ? branches : [schema];
      for (const branch of variants) {
        const variant = resolved(branch);
        const properties = variant && isObject(variant.properties) ? variant.properties : {};
        expect(Object.keys(properties), `${name}: a variant lacks ${String(propertyName)}`).toContain(propertyName);
      }
    });
  }
});
