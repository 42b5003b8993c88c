/** Deep freezing of the records and events the store and the bus share without copying. */

/**
 * Freezes `value` and everything reachable from it; returns it. An object that is already frozen is taken as
 * deeply frozen (records and events are frozen only by this), so freezing a shallow copy of a frozen record walks
 * only what changed.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
