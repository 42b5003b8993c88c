/**
 * The in-memory store: one `Map` per collection, queries by scanning (fine for an emulator). Records are frozen
 * (deeply) when put and handed out as they are, without copies: to change one, put a changed copy.
 */
import { deepFreeze } from '../freeze.js';
import type { AgentRecord } from './records.js';
import type { Collection, ListQuery, Store, StoredRecord } from './types.js';

/** A collection held in a `Map`; `list` scans, filters and sorts, so it costs O(n log n) per page. */
export class MemoryCollection<T extends StoredRecord> implements Collection<T> {
  private readonly records = new Map<string, T>();

  async get(id: string): Promise<T | undefined> {
    return this.records.get(id);
  }

  async put(record: T): Promise<void> {
    this.records.set(record.id, deepFreeze(record));
  }

  async delete(id: string): Promise<boolean> {
    return this.records.delete(id);
  }

  async list(query: ListQuery<T>): Promise<T[]> {
    const sign = query.order === 'asc' ? 1 : -1;
    const matching = [...this.records.values()]
      .filter((record) => matches(record, query))
      .sort((a, b) => sign * compareByPosition(a, b));
    return matching.slice(0, query.limit ?? matching.length);
  }

  /** Records held (for tests and diagnostics). */
  get size(): number {
    return this.records.size;
  }
}

/** Ascending order by `created_at`, then `id`. */
export function compareByPosition(a: StoredRecord, b: StoredRecord): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return 0;
}

function matches<T extends StoredRecord>(record: T, query: ListQuery<T>): boolean {
  const fields = record as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(query.where ?? {})) {
    if (value !== undefined && fields[field] !== value) return false;
  }
  for (const range of query.ranges ?? []) {
    const value = fields[range.field];
    if (typeof value !== 'string') return false;
    if (range.gte !== undefined && value < range.gte) return false;
    if (range.lt !== undefined && value >= range.lt) return false;
  }
  if (query.after !== undefined) {
    const order = compareByPosition(record, query.after);
    if (query.order === 'desc' ? order >= 0 : order <= 0) return false;
  }
  return true;
}

/** A fresh, empty in-memory store. */
export function createMemoryStore(): Store {
  return {
    conversationalAgents: new MemoryCollection<AgentRecord<'conversational'>>(),
    proceduralAgents: new MemoryCollection<AgentRecord<'procedural'>>(),
    conversations: new MemoryCollection(),
    procedures: new MemoryCollection(),
    customers: new MemoryCollection(),
    tokens: new MemoryCollection(),
  };
}
