/**
 * openapi-typescript types a `$ref` to a schema written outside the component schemas (`#/paths/…/schema/properties/x`,
 * `#/components/schemas/A/properties/b`) as an index into its own output, which does not compile. Before it runs,
 * each such schema is copied once into `components/schemas` under a free name, and every reference to it points there.
 */
import { isSchemaPosition, refsIn, valueAt } from '../../load/refs.js';
import { toPointer } from '../../load/source-map.js';

/** A reference to a whole component schema, which openapi-typescript types by name. */
const COMPONENT_SCHEMA = /^#\/components\/schemas\/[^/]+$/;

/** Rewrites `document` (a copy the caller owns) as described above. */
export function hoistPlacedSchemas(document: Record<string, unknown>): void {
  const hoisted = new Map<string, string>();
  for (let changed = true; changed; ) {
    changed = false;
    const placed = [...refsIn(document)].filter(
      ({ ref, path }) => ref.startsWith('#/') && !COMPONENT_SCHEMA.test(ref) && isSchemaPosition(path, false),
    );
    for (const { ref, path } of placed) {
      const target = valueAt(document, ref);
      const holder = valueAt(document, toPointer(path)) as { $ref: string } | undefined;
      if (target === undefined || holder === undefined) continue;
      let name = hoisted.get(ref);
      if (name === undefined) {
        name = freeName(schemasOf(document), ref);
        schemasOf(document)[name] = structuredClone(target);
        hoisted.set(ref, name);
      }
      holder.$ref = `#/components/schemas/${name}`;
      changed = true;
    }
  }
}

/** The document's `components.schemas`, made when missing. */
function schemasOf(document: Record<string, unknown>): Record<string, unknown> {
  document.components ??= {};
  const components = document.components as Record<string, unknown>;
  components.schemas ??= {};
  return components.schemas as Record<string, unknown>;
}

/** The last token of `ref` as an identifier, with a number added until no schema has that name. */
function freeName(schemas: Record<string, unknown>, ref: string): string {
  const last = ref
    .slice(ref.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  const base = last.replace(/[^A-Za-z0-9_]/g, '_') || 'schema';
  let name = base;
  for (let n = 2; name in schemas; n++) name = `${base}_${n}`;
  return name;
}
