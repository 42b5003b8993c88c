/**
 * fast-check arbitraries built from the spec's JSON Schemas (2020-12 as OpenAPI 3.1 writes it): every value they
 * generate is valid against the schema. Handles type (and type arrays for nullability), enum, const, pattern,
 * min/maxLength, minimum/maximum, required/optional members, additionalProperties, items, anyOf/oneOf/allOf, $ref,
 * if/then/else (without references inside) and the formats date-time and uri.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { JsonSchema } from '../generator/ir/model.js';
import { refName } from './spec.js';

/** How `arbitraryFromSchema` resolves references and shapes its values. */
export interface ArbitraryOptions {
  /** The component schema `name` (for `#/components/schemas/<name>`). */
  readonly resolve: (name: string) => JsonSchema;
  /** Arbitraries used instead of a component wherever it is referenced (e.g. ids of resources that exist). */
  readonly overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Most items of an array and most extra members of an open object. Default 3. */
  readonly maxItems?: number;
  /** `ascii`: printable ASCII only (path, query and header values); `unicode`: any code point too. Default unicode. */
  readonly text?: 'ascii' | 'unicode';
}

/** Longest string length generated on purpose at a `maxLength` boundary. */
const BOUNDARY_LENGTH_CAP = 8192;
/** `$ref` chains deeper than this are taken for a cycle. */
const MAX_DEPTH = 24;

/** An arbitrary of values valid against `schema`. */
export function arbitraryFromSchema(schema: JsonSchema | boolean, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  return new Builder(options).build(schema, 0);
}

class Builder {
  readonly #options: ArbitraryOptions;
  readonly #byRef = new Map<string, fc.Arbitrary<unknown>>();

  constructor(options: ArbitraryOptions) {
    this.#options = options;
  }

  build(schema: JsonSchema | boolean, depth: number): fc.Arbitrary<unknown> {
    if (depth > MAX_DEPTH) throw new Error('arbitraryFromSchema: $ref chain too deep (a cycle?)');
    if (schema === true) return anyJson();
    if (schema === false) throw new Error('arbitraryFromSchema: the schema `false` has no value');
    const name = refName(schema);
    if (name !== undefined) return this.#ref(name, depth);
    if ('if' in schema) return this.#conditional(schema, depth);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(union)) return fc.oneof(...union.map((branch) => this.build(branch, depth + 1)));
    if (Array.isArray(schema.allOf)) return this.build(this.#mergeAllOf(schema), depth + 1);
    const type = schema.type ?? inferType(schema);
    if (Array.isArray(type)) return fc.oneof(...type.map((t) => this.build({ ...schema, type: t }, depth)));
    switch (type) {
      case 'string':
        return this.#string(schema);
      case 'integer':
        return fc.integer({ min: bound(schema, 'min', -(2 ** 31)), max: bound(schema, 'max', 2 ** 31) });
      case 'number':
        return fc.double({
          min: bound(schema, 'min', -1e9),
          max: bound(schema, 'max', 1e9),
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return this.#array(schema, depth);
      case 'object':
        return this.#object(schema, depth);
      default:
        return anyJson();
    }
  }

  #ref(name: string, depth: number): fc.Arbitrary<unknown> {
    const override = this.#options.overrides?.[name];
    if (override) return override;
    let arbitrary = this.#byRef.get(name);
    if (!arbitrary) {
      arbitrary = this.build(this.#options.resolve(name), depth + 1);
      this.#byRef.set(name, arbitrary);
    }
    return arbitrary;
  }

  #string(schema: JsonSchema): fc.Arbitrary<string> {
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    const fits = (s: string) => [...s].length >= minLength && (maxLength === undefined || [...s].length <= maxLength);
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
    // A format with a pattern (a UTC date-time): values of the format, those the pattern takes.
    const matches = (s: string) => fits(s) && (pattern === undefined || pattern.test(s));
    if (schema.format === 'date-time') return dateTime().filter(matches);
    if (schema.format === 'uri') return fc.webUrl().filter(matches);
    if (pattern !== undefined) return fc.stringMatching(pattern).filter(fits);
    const lengths = { minLength, ...(maxLength === undefined ? {} : { maxLength }) };
    const usual =
      this.#options.text === 'ascii'
        ? fc.string({ unit: 'grapheme-ascii', ...lengths })
        : fc.oneof(fc.string({ unit: 'grapheme-ascii', ...lengths }), fc.string({ unit: 'binary', ...lengths }));
    if (maxLength === undefined || maxLength > BOUNDARY_LENGTH_CAP || maxLength === minLength) return usual;
    // The longest value allowed is a case of its own: size-bounded generation rarely reaches it.
    const longest = fc.string({ unit: 'grapheme-ascii', minLength: maxLength, maxLength });
    return fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: longest, weight: 1 });
  }

  #array(schema: JsonSchema, depth: number): fc.Arbitrary<unknown[]> {
    const cap = this.#options.maxItems ?? 3;
    const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const maxLength = Math.max(minLength, Math.min(cap, typeof schema.maxItems === 'number' ? schema.maxItems : cap));
    const items = this.build((schema.items as JsonSchema | undefined) ?? true, depth + 1);
    return schema.uniqueItems === true
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  #object(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const members = Object.fromEntries(
      Object.entries(properties).map(([key, value]) => [key, this.build(value, depth + 1)]),
    );
    const record = fc.record(members, { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) });
    const extra = schema.additionalProperties;
    // A closed object, or one with members and no word on others: the spec's objects are closed unless free-form.
    if (extra === false || (extra === undefined && Object.keys(properties).length > 0)) return record;
    const valueSchema = extra === undefined || extra === true ? true : (extra as JsonSchema);
    const key = fc
      .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 })
      .filter((k) => !(k in properties) && k !== REFUSED_KEY);
    const extras = fc.dictionary(key, this.build(valueSchema, depth + 1), { maxKeys: this.#options.maxItems ?? 3 });
    return fc.tuple(record, extras).map(([known, more]) => ({ ...more, ...known }));
  }

  /**
   * `if`/`then`/`else`: values of the schema without them that also fit the branch their `if` picks (a filter, so
   * each branch must be likely among those values, as `experimental: true` is for a random boolean).
   */
  #conditional(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const { if: condition, then: yes, else: no, ...rest } = schema;
    const conditional = {
      if: condition,
      // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a thenable.
      ...(yes === undefined ? {} : { then: yes }),
      ...(no === undefined ? {} : { else: no }),
    };
    if (JSON.stringify(conditional).includes('"$ref"')) {
      throw new Error('arbitraryFromSchema: references inside if/then/else are not supported');
    }
    const fits = new Ajv2020({ strict: false }).compile(conditional);
    return this.build(rest, depth + 1).filter((value) => fits(value));
  }

  /** `allOf` of object schemas (resolved): members, required lists and closedness combined. */
  #mergeAllOf(schema: JsonSchema): JsonSchema {
    const { allOf, ...rest } = schema;
    const parts = (allOf as JsonSchema[]).map((part) => {
      const name = refName(part);
      return name === undefined ? part : this.#options.resolve(name);
    });
    const properties: Record<string, unknown> = {};
    const required = new Set<string>();
    for (const part of [rest, ...parts]) {
      Object.assign(properties, part.properties ?? {});
      for (const key of (part.required ?? []) as string[]) required.add(key);
    }
    return { type: 'object', properties, required: [...required] };
  }
}

/** The type a schema without `type` implies by its keywords. */
function inferType(schema: JsonSchema): string | undefined {
  if ('properties' in schema || 'additionalProperties' in schema) return 'object';
  if ('items' in schema) return 'array';
  if ('pattern' in schema || 'minLength' in schema || 'maxLength' in schema || 'format' in schema) return 'string';
  return undefined;
}

/** `minimum`/`exclusiveMinimum` (or the maximum side) as an inclusive integer-safe bound. */
function bound(schema: JsonSchema, side: 'min' | 'max', fallback: number): number {
  const inclusive = schema[side === 'min' ? 'minimum' : 'maximum'];
  const exclusive = schema[side === 'min' ? 'exclusiveMinimum' : 'exclusiveMaximum'];
  if (typeof inclusive === 'number') return inclusive;
  if (typeof exclusive === 'number') return side === 'min' ? exclusive + 1 : exclusive - 1;
  return fallback;
}

/** RFC 3339 date-times in UTC, with and without fractional seconds. */
function dateTime(): fc.Arbitrary<string> {
  const date = fc.date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('2999-12-31T23:59:59Z'),
    noInvalidDate: true,
  });
  return fc
    .tuple(date, fc.boolean())
    .map(([d, millis]) => (millis ? d.toISOString() : d.toISOString().replace(/\.\d{3}Z$/, 'Z')));
}

/**
 * A member name a server may refuse in any object, which no schema here can say: `__proto__` (the runtime's JSON
 * parser refuses it as prototype poisoning). fast-check likes to try it.
 */
const REFUSED_KEY = '__proto__';

/** Any JSON value, small, without a member named `REFUSED_KEY`. */
function anyJson(): fc.Arbitrary<unknown> {
  return fc
    .jsonValue({ maxDepth: 2 })
    .map((v) => JSON.parse(JSON.stringify(v), (key, value) => (key === REFUSED_KEY ? undefined : value)) as unknown);
}
