/**
 * The tags of a discriminated union's members as OpenAPI reads them: each key of the discriminator's `mapping` tags
 * the member it points at, and a member no key points at is tagged with its component name.
 */
import type { JsonSchema } from '../ir/model.js';
import { componentName } from './component-ref.js';

/** A union whose members the discriminating property tells apart: each member's reference and its tags. */
export interface TaggedUnion {
  readonly property: string;
  readonly keyword: 'oneOf' | 'anyOf';
  readonly members: readonly { readonly ref: string; readonly tags: readonly string[] }[];
}

/** Members written as a bare reference to a component schema, documentation aside. */
const MEMBER_KEYS = /^(\$ref|description|title|x-.*)$/;

/**
 * The tags of `schema`'s union when every member is a reference to a component schema and every tag is given to one
 * member; undefined otherwise (no discriminator, an inline member, a tag given twice).
 */
export function taggedUnion(schema: JsonSchema): TaggedUnion | undefined {
  const discriminator = schema.discriminator as { propertyName?: unknown; mapping?: unknown } | undefined;
  const property = discriminator?.propertyName;
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (typeof property !== 'string' || keyword === undefined) return undefined;
  const items = schema[keyword] as unknown[];
  const refs = items.map((item) =>
    item && typeof item === 'object' && Object.keys(item).every((key) => MEMBER_KEYS.test(key))
      ? componentName((item as { $ref?: unknown }).$ref)
      : undefined,
  );
  if (items.length === 0 || refs.some((ref) => ref === undefined)) return undefined;
  const mapping = Object.entries((discriminator?.mapping ?? {}) as Record<string, unknown>);
  const seen = new Set<string>();
  const members = items.map((item, index) => {
    const name = refs[index] as string;
    const mapped = mapping.filter(([, target]) => componentName(target) === name).map(([tag]) => tag);
    const tags = mapped.length > 0 ? mapped : [name];
    for (const tag of tags) seen.add(tag);
    return { ref: (item as { $ref: string }).$ref, tags };
  });
  const given = members.reduce((count, member) => count + member.tags.length, 0);
  return given === seen.size ? { property, keyword, members } : undefined;
}
