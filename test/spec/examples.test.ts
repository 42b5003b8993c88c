/** Every named example of openapi.yaml validates against its schema; every `x-casi-invalid-examples` entry is refused. */
import { describe, expect, it } from 'vitest';
import {
  derefLocal,
  escapePointer,
  formatErrors,
  isObject,
  type Json,
  type JsonObject,
  openapi,
  operations,
  validatorForSchema,
} from './load-specs.ts';

interface ExampleCase {
  /** JSON pointer of the example (where it is used, or the shared response/parameter that holds it). */
  readonly pointer: string;
  readonly schema: Json | undefined;
  readonly value: Json | undefined;
}

interface InvalidCase {
  readonly pointer: string;
  readonly schema: Json | undefined;
  readonly entry: Json;
}

/** Where a possibly-referenced object lives: its `$ref` target when it is a local reference, else `pointer`. */
function located(node: Json | undefined, pointer: string): { node: JsonObject | undefined; pointer: string } {
  if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const target = derefLocal(openapi, node);
    return { node: isObject(target) ? target : undefined, pointer: node.$ref };
  }
  return { node: isObject(node) ? node : undefined, pointer };
}

/** The value of an Example Object (resolving `$ref: '#/components/examples/X'`). */
function exampleValue(example: Json | undefined): Json | undefined {
  const resolved = derefLocal(openapi, example);
  return isObject(resolved) ? resolved.value : undefined;
}

/** `example` and named `examples` of a media type, parameter or header object at `pointer`. */
function examplesOf(holder: JsonObject, pointer: string, schema: Json | undefined): ExampleCase[] {
  const out: ExampleCase[] = [];
  if (holder.example !== undefined) out.push({ pointer: `${pointer}/example`, schema, value: holder.example });
  if (isObject(holder.examples)) {
    for (const [name, example] of Object.entries(holder.examples)) {
      out.push({ pointer: `${pointer}/examples/${escapePointer(name)}`, schema, value: exampleValue(example) });
    }
  }
  return out;
}

function contentExamples(content: Json | undefined, pointer: string): ExampleCase[] {
  if (!isObject(content)) return [];
  return Object.entries(content).flatMap(([mediaType, media]) =>
    isObject(media) ? examplesOf(media, `${pointer}/content/${escapePointer(mediaType)}`, media.schema) : [],
  );
}

function collect(): { examples: ExampleCase[]; invalid: InvalidCase[] } {
  const examples = new Map<string, ExampleCase>();
  const invalid: InvalidCase[] = [];
  const add = (cases: ExampleCase[]): void => {
    for (const c of cases) examples.set(c.pointer, c);
  };
  const addParameter = (raw: Json, fallback: string): void => {
    const { node, pointer } = located(raw, fallback);
    if (node) add(examplesOf(node, pointer, node.schema));
  };

  const components = isObject(openapi.components) ? openapi.components : {};
  if (isObject(components.parameters)) {
    for (const [name, parameter] of Object.entries(components.parameters)) {
      addParameter(parameter, `#/components/parameters/${escapePointer(name)}`);
    }
  }
  for (const entry of operations()) {
    entry.pathParameters.forEach((p, i) => {
      addParameter(p, `${entry.pointer.replace(/\/[a-z]+$/, '')}/parameters/${i}`);
    });
    const own = Array.isArray(entry.operation.parameters) ? entry.operation.parameters : [];
    own.forEach((p, i) => {
      addParameter(p, `${entry.pointer}/parameters/${i}`);
    });

    const body = located(entry.operation.requestBody, `${entry.pointer}/requestBody`);
    if (body.node) {
      add(contentExamples(body.node.content, body.pointer));
      const content = isObject(body.node.content) ? body.node.content : {};
      for (const [mediaType, media] of Object.entries(content)) {
        if (!isObject(media) || !Array.isArray(media['x-casi-invalid-examples'])) continue;
        const base = `${body.pointer}/content/${escapePointer(mediaType)}/x-casi-invalid-examples`;
        media['x-casi-invalid-examples'].forEach((item, i) => {
          const name = isObject(item) && typeof item.name === 'string' ? ` (${item.name})` : '';
          invalid.push({ pointer: `${base}/${i}${name}`, schema: media.schema, entry: item });
        });
      }
    }

    const responses = isObject(entry.operation.responses) ? entry.operation.responses : {};
    for (const [status, raw] of Object.entries(responses)) {
      const response = located(raw, `${entry.pointer}/responses/${escapePointer(status)}`);
      if (!response.node) continue;
      add(contentExamples(response.node.content, response.pointer));
      if (isObject(response.node.headers)) {
        for (const [name, header] of Object.entries(response.node.headers)) {
          const h = located(header, `${response.pointer}/headers/${escapePointer(name)}`);
          if (h.node) add(examplesOf(h.node, h.pointer, h.node.schema));
        }
      }
    }
  }
  return { examples: [...examples.values()], invalid };
}

const { examples, invalid } = collect();

/** Media types whose schema declares `x-casi-sse-data` (the schema of each SSE message's data). */
function sseItemSchema(schema: Json | undefined): Json | undefined {
  const resolved = derefLocal(openapi, schema);
  return isObject(resolved) ? resolved['x-casi-sse-data'] : undefined;
}

describe('named examples validate against their schema', () => {
  it('finds request, response and parameter examples', () => {
    expect(examples.some((c) => c.pointer.includes('/requestBody/'))).toBe(true);
    expect(examples.some((c) => c.pointer.includes('/responses/'))).toBe(true);
    expect(examples.some((c) => c.pointer.includes('/parameters/'))).toBe(true);
    expect(examples.some((c) => c.pointer.includes('/text~1event-stream/'))).toBe(true);
  });

  for (const c of examples) {
    it(c.pointer, () => {
      expect(c.schema, `${c.pointer}: the media type or parameter has no schema`).toBeDefined();
      expect(c.value, `${c.pointer}: the example has no value`).toBeDefined();
      const validate = validatorForSchema(c.schema as Json);
      const valid = validate(c.value);
      expect(valid, `${c.pointer} is invalid:\n${formatErrors(validate.errors)}`).toBe(true);

      const itemSchema = sseItemSchema(c.schema);
      if (itemSchema !== undefined) {
        expect(Array.isArray(c.value), `${c.pointer}: an SSE example is the array of the messages' data`).toBe(true);
        const validateItem = validatorForSchema(itemSchema);
        (c.value as Json[]).forEach((item, i) => {
          expect(validateItem(item), `${c.pointer}/${i} (SSE data):\n${formatErrors(validateItem.errors)}`).toBe(true);
        });
      }
    });
  }
});

describe('x-casi-invalid-examples are refused at their pointer', () => {
  it('finds invalid examples', () => {
    expect(invalid.length).toBeGreaterThan(0);
  });

  for (const c of invalid) {
    it(c.pointer, () => {
      const entry = c.entry;
      expect(isObject(entry), `${c.pointer}: an entry is a mapping`).toBe(true);
      const { name, reason, pointer, value } = entry as JsonObject;
      expect(typeof name, `${c.pointer}: name`).toBe('string');
      expect(typeof reason, `${c.pointer}: reason`).toBe('string');
      expect(typeof pointer, `${c.pointer}: pointer`).toBe('string');
      expect(pointer === '' || String(pointer).startsWith('/'), `${c.pointer}: pointer is a JSON pointer`).toBe(true);
      expect(value, `${c.pointer}: value`).toBeDefined();

      const validate = validatorForSchema(c.schema as Json);
      expect(validate(value), `${c.pointer}: the value is accepted, but "${String(reason)}"`).toBe(false);
      const at = String(pointer);
      const errors = validate.errors ?? [];
      const hit = errors.some((e) => at === '' || e.instancePath === at || e.instancePath.startsWith(`${at}/`));
      expect(hit, `${c.pointer}: no error at or below '${at}'; errors:\n${formatErrors(errors)}`).toBe(true);
    });
  }
});
