/**
 * Discriminator mappings against the unions they describe: a mapping must name every member whose tag is not its
 * schema name, name only members, and give each the tag the member fixes with `const`. A mismatch passes JSON Schema
 * validation and silently gives generated code the wrong tag type, so each is named with both places: an error where
 * the project's rules are strict (a `redocly.yaml` beside the document), else a warning, the document being valid
 * OpenAPI. A mapping entry that names no schema at all is an error always.
 */
import type { Diagnostic } from '../diagnostics.js';
import { fixedTag } from '../ir/events.js';
import { type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import { placeOf, toPointer } from '../load/source-map.js';
import { pointerToken } from '../schema/component-ref.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Every problem of the discriminator mappings of `#/components/schemas`. */
export function checkDiscriminators(openapi: SourceDocument, strict: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const schemas = obj(valueAt(openapi.value, '/components/schemas'));
  const where = (pointer: string) => {
    const { line, column } = openapi.locate(pointer);
    return `${pointer} (line ${line}:${column})`;
  };
  const error = (pointer: string, message: string, always = false): Diagnostic => ({
    severity: strict || always ? 'error' : 'warning',
    ...placeOf(openapi, pointer),
    message,
    rule: 'casi/discriminator',
  });
  for (const [name, value] of Object.entries(schemas)) {
    const union = obj(value);
    const discriminator = obj(union.discriminator);
    const mapping = obj(discriminator.mapping);
    const property = discriminator.propertyName;
    const keyword = Array.isArray(union.oneOf) ? 'oneOf' : Array.isArray(union.anyOf) ? 'anyOf' : undefined;
    if (typeof property !== 'string' || keyword === undefined || Object.keys(mapping).length === 0) continue;
    const unionPointer = toPointer(['components', 'schemas', name]);
    const members = (union[keyword] as unknown[]).map((m) => schemaRefName(obj(m).$ref));
    const mapped = new Map(Object.entries(mapping).map(([tag, ref]) => [tag, schemaRefName(ref)]));
    const tagOf = (member: string) => fixedTag(obj(schemas[member]), property);
    members.forEach((member, index) => {
      if (member === undefined || [...mapped.values()].includes(member)) return;
      const tag = tagOf(member);
      if (tag === undefined || tag === member) return;
      out.push(
        error(
          `${unionPointer}/${keyword}/${index}`,
          `${member} is in ${name}.${keyword} but not in its discriminator mapping, so its \`${property}\` reads as ` +
            `"${member}" instead of "${tag}": add ${tag}: '#/components/schemas/${member}' at ` +
            where(`${unionPointer}/discriminator/mapping`),
        ),
      );
    });
    for (const [tag, target] of mapped) {
      const entry = toPointer(['components', 'schemas', name, 'discriminator', 'mapping', tag]);
      if (target === undefined || !members.includes(target)) {
        out.push(
          error(
            entry,
            `the mapping of ${name} names ${target ?? String(mapping[tag])}, which ${name}.${keyword} ` +
              `(${where(`${unionPointer}/${keyword}`)}) does not list`,
            target === undefined || !Object.hasOwn(schemas, pointerToken(target)),
          ),
        );
        continue;
      }
      const fixed = tagOf(target);
      if (fixed !== undefined && fixed !== tag)
        out.push(
          error(
            entry,
            `the mapping of ${name} gives ${target} the tag "${tag}", but ${target} fixes \`${property}\` to ` +
              `"${fixed}" at ${where(toPointer(['components', 'schemas', target, 'properties', property]))}`,
          ),
        );
    }
  }
  return out;
}
