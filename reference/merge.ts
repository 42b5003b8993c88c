/** Deep merge for `override_config`: objects merge member by member, arrays and scalars replace. */

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `override` merged into `base`, neither changed: a member absent (undefined) in `override` keeps `base`'s value;
 * two objects merge recursively; anything else in `override` (array, scalar, null) replaces.
 */
export function deepMerge<T>(base: T, override: unknown): T {
  if (override === undefined) return structuredClone(base);
  if (!isPlainObject(base) || !isPlainObject(override)) return structuredClone(override) as T;
  const out: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    if (value !== undefined) out[key] = deepMerge(out[key], value);
  }
  return out as T;
}
