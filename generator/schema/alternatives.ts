/**
 * Which schemas try alternatives on a valid value: there, a validator compiled with `allErrors` goes on checking
 * each failing alternative to its end, while one that stops at the first problem leaves it early.
 */
import type { JsonSchema } from '../ir/model.js';

type Node = Record<string, unknown>;

/** Keywords whose values are data, not subschemas. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'example', 'examples', 'required', 'discriminator']);
/**
 * Keywords whose subschema ajv evaluates for a verdict only, stopping at its first problem even under `allErrors`
 * (`if` and `not`: ajv compiles them with `allErrors: false` and no errors), so nothing in them is tried to its end.
 */
const VERDICT_ONLY = new Set(['if', 'not']);
/** Keywords whose values map names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** `anyOf: [X, { type: 'null' }]` (either order): the null branch fails at once, and X only for `null`. */
function isNullable(branches: readonly unknown[]): boolean {
  return (
    branches.length === 2 &&
    branches.some((b) => {
      const keys = b && typeof b === 'object' ? Object.keys(b) : [];
      return keys.length === 1 && (b as Node).type === 'null';
    })
  );
}

/**
 * Whether validating `schema` tries alternatives that can fail on a valid value: an `anyOf` or `oneOf` that no
 * `discriminator` resolves (a nullable `anyOf` aside), or `contains`, here or in a schema it references
 * (`#/components/schemas/<name>` is looked up in `components`), outside the subschemas of `if` and `not`, which
 * ajv checks for a verdict alone (their `then` and `else` count).
 */
export function triesAlternatives(schema: JsonSchema, components: ReadonlyMap<string, JsonSchema>): boolean {
  const seen = new Set<string>();
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit);
    if (!node || typeof node !== 'object') return false;
    const n = node as Node;
    if (typeof n.$ref === 'string') {
      const name = /#\/components\/schemas\/([^/]+)$/.exec(n.$ref)?.[1];
      if (name !== undefined && !seen.has(name)) {
        seen.add(name);
        if (visit(components.get(name))) return true;
      }
    }
    if ('contains' in n) return true;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = n[keyword];
      if (Array.isArray(branches) && n.discriminator === undefined && !isNullable(branches)) return true;
    }
    return Object.entries(n).some(([key, value]) => {
      if (SCHEMA_MAPS.has(key)) return value !== null && typeof value === 'object' && Object.values(value).some(visit);
      return !DATA_KEYWORDS.has(key) && !VERDICT_ONLY.has(key) && !key.startsWith('x-') && visit(value);
    });
  };
  return visit(schema);
}
