/**
 * Discriminators, as openapi-typescript reads them: every schema a `discriminator` maps (or a `oneOf` member names)
 * gets its tag property as a required literal, so that the union narrows on it; schemas that extend a discriminated
 * one through `allOf` inherit its discriminator.
 */
import { type Json, literalType, pointerOf, property, refTokens, resolveRef } from './nodes.js';

export interface Discriminator {
  readonly propertyName: string;
  readonly mapping?: Record<string, string>;
}

/** The discriminators by the pointer of the schema that holds (or inherits) one, and the schemas already tagged. */
export interface Discriminators {
  readonly objects: Record<string, Discriminator>;
  readonly refsHandled: string[];
}

/** Finds the discriminators of `document` and adds each mapped schema's tag (the document is changed). */
export function scanDiscriminators(document: Json): Discriminators {
  const objects: Record<string, Discriminator> = {};
  const refsHandled: string[] = [];
  walk(document, (node, path) => {
    const discriminator = node.discriminator as Discriminator | undefined;
    if (!discriminator?.propertyName) return;
    const ref = pointerOf(path);
    objects[ref] = discriminator;
    if (!Array.isArray(node.oneOf)) return;
    const mapping: Record<string, { inferred?: string; defined?: string[] }> = {};
    for (const item of node.oneOf) {
      if (!isObject(item) || !('$ref' in item)) continue;
      const value = String(item.$ref).split('/').pop();
      if (value) {
        mapping[item.$ref] ??= {};
        (mapping[item.$ref] as { inferred?: string }).inferred = value;
      }
    }
    for (const [value, mappedRef] of Object.entries(discriminator.mapping ?? {})) {
      if (!mappedRef) continue;
      if (!mapping[mappedRef]?.defined) mapping[mappedRef] = { defined: [] };
      mapping[mappedRef].defined?.push(value);
    }
    for (const [mappedRef, { inferred, defined }] of Object.entries(mapping)) {
      if (refsHandled.includes(mappedRef) || (!inferred && !defined)) continue;
      if (addTag(document, mappedRef, defined ?? [inferred as string], discriminator)) refsHandled.push(mappedRef);
    }
  });
  walk(document, (node, path) => {
    if (!Array.isArray(node.allOf)) return;
    for (const item of node.allOf) {
      if (isObject(item) && '$ref' in item) {
        const inherited = objects[item.$ref];
        if (!inherited) return;
        const ref = pointerOf(path);
        const values = Object.entries(inherited.mapping ?? {})
          .filter(([, target]) => target === ref)
          .map(([value]) => value);
        if (values.length > 0 && addTag(document, ref, values, inherited)) refsHandled.push(ref);
        objects[ref] = { ...inherited };
      } else if (isObject(item) && item.discriminator?.propertyName) {
        objects[pointerOf(path)] = { ...item.discriminator };
      }
    }
  });
  return { objects, refsHandled };
}

/** The tag property of the schema at `path` in a union discriminated by `discriminator`. */
export function tagProperty(discriminator: Discriminator, path: string) {
  let value: string | undefined = refTokens(path).pop();
  const mapped = Object.entries(discriminator.mapping ?? {}).find(
    ([, target]) =>
      (!target.startsWith('#') && target === value) || (target.startsWith('#') && refTokens(target).pop() === value),
  );
  if (mapped) value = mapped[0];
  return property(discriminator.propertyName, literalType(value));
}

/** Makes the tag a required string enum of `values` in the schema `ref` names; false when that is no object schema. */
function addTag(document: Json, ref: string, values: readonly string[], discriminator: Discriminator): boolean {
  const schema = resolveRef(document, ref);
  const name = discriminator.propertyName;
  if (schema?.allOf) {
    schema.allOf.push({ type: 'object', required: [name], properties: { [name]: tagEnum(values) } });
    return true;
  }
  if (isObject(schema) && 'type' in schema && schema.type === 'object') {
    schema.properties ??= {};
    if (!schema.required) schema.required = [name];
    else if (!schema.required.includes(name)) schema.required.push(name);
    schema.properties[name] = tagEnum(values, schema.properties[name]);
    return true;
  }
  return false;
}

function tagEnum(values: readonly string[], previous?: Json): Json {
  return {
    type: 'string',
    enum: values,
    description: previous?.description
      ? `${previous.description} (enum property replaced by casi)`
      : 'discriminator enum property added by casi',
  };
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object';
}

/** Calls `visit` on every object of `value` (not on arrays), with its path from the root. */
function walk(value: Json, visit: (node: Json, path: (string | number)[]) => void, path: (string | number)[] = []) {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], visit, path.concat(i));
    return;
  }
  visit(value, path);
  for (const key of Object.keys(value)) walk(value[key], visit, path.concat(key));
}
