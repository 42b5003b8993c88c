/**
 * Storage behind one small interface: collections of records with get/put/delete and one declarative list query
 * (equality filters, time ranges, keyset position, fixed order), which an SQL back end can translate directly.
 */
import type { ListPosition } from '../lists.js';
import type { AgentRecord, ConversationRecord, CustomerRecord, ProcedureRecord, TokenRecord } from './records.js';

/** Every stored record has an id and a creation time; lists are ordered by (`created_at`, `id`). */
export interface StoredRecord {
  readonly id: string;
  readonly created_at: string;
}

/** A scalar a record member can be compared with. */
export type FilterValue = string | number | boolean | null;

/** A half-open time range on a timestamp member: `gte <= value < lt`; a null member is outside every range. */
export interface TimeRange<T> {
  readonly field: keyof T & string;
  readonly gte?: string;
  readonly lt?: string;
}

/** A list query. Timestamps are ISO 8601 UTC strings as `Date.prototype.toISOString` writes them. */
export interface ListQuery<T> {
  /** Members that must equal the given values. */
  readonly where?: Partial<Record<keyof T & string, FilterValue>>;
  readonly ranges?: readonly TimeRange<T>[];
  /** `desc`: newest first; `asc`: oldest first (both by `created_at`, then `id`). */
  readonly order: 'asc' | 'desc';
  /** Only records after this position in the order. */
  readonly after?: ListPosition;
  readonly limit?: number;
}

/**
 * One kind of record. Records are immutable once put: a record read back must not be changed (the memory store
 * freezes them); to change one, put a changed copy.
 */
export interface Collection<T extends StoredRecord> {
  get(id: string): Promise<T | undefined>;
  /** Inserts or replaces the record with this id; the caller must not change `record` afterwards. */
  put(record: T): Promise<void>;
  /** True when a record was removed. */
  delete(id: string): Promise<boolean>;
  list(query: ListQuery<T>): Promise<T[]>;
}

/** Every collection the service uses. */
export interface Store {
  readonly conversationalAgents: Collection<AgentRecord<'conversational'>>;
  readonly proceduralAgents: Collection<AgentRecord<'procedural'>>;
  readonly conversations: Collection<ConversationRecord>;
  readonly procedures: Collection<ProcedureRecord>;
  readonly customers: Collection<CustomerRecord>;
  readonly tokens: Collection<TokenRecord>;
}
