/** Deep freezing of the records and events the store and the bus share without copying, and views of them. */

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

/**
 * `view` built once per record and frozen: a record is replaced, never changed, so its view stays right for as
 * long as it lives. Members taken from the (deeply frozen) record keep the view deeply frozen, which lets the HTTP
 * layer serialise it and check it once.
 */
export function viewPerRecord<R extends object, V extends object>(view: (record: R) => V): (record: R) => V {
  const views = new WeakMap<R, V>();
  return (record) => {
    let built = views.get(record);
    if (built === undefined) {
      built = deepFreeze(view(record));
      views.set(record, built);
    }
    return built;
  };
}
