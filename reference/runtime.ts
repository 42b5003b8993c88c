/**
 * The live side of conversations: one lock per conversation, event emission in order, the status transitions of
 * DECISIONS.md ("Conversation and procedure states"), per-conversation timers and the retention purge.
 */
import type {
  ContextData,
  ConversationEnded,
  ConversationStatus,
  CustomFieldValue,
  FailureReason,
  ServerEvent,
  ServerEventPayload,
} from '../generated/src/types.gen.js';
import type { EventBus } from './bus/types.js';
import { type Clock, isoNow } from './clock.js';
import { notFound } from './errors.js';
import { buildEvent } from './events.js';
import { newId } from './ids.js';
import type { Locks } from './keyed-queue.js';
import type { ConversationRecord, HeldEvent } from './store/records.js';
import type { Store } from './store/types.js';
import type { TimerGroup } from './timers.js';
import { sentimentOf, summarize, transcriptOf } from './transcript.js';

/** A final conversation status. */
export type FinalStatus = Exclude<ConversationStatus, 'queued' | 'in-progress'>;

/** How a conversation ends. `failureReason` is kept only with `failed`. */
export interface ConversationOutcome {
  readonly status: FinalStatus;
  readonly endedBy?: ConversationEnded['ended_by'];
  readonly failureReason?: FailureReason;
}

/** What the runtime needs. */
export interface RuntimeDeps {
  readonly store: Store;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly queue: Locks;
  readonly timers: TimerGroup;
  /** How long events stay readable after the end. */
  readonly retentionMs: number;
}

/** True once the conversation has reached a final status. */
export function isEnded(record: Pick<ConversationRecord, 'status'>): boolean {
  return record.status !== 'queued' && record.status !== 'in-progress';
}

/** Runs conversation work one task at a time per conversation, and owns its timers. */
export class ConversationRuntime {
  private readonly endedListeners: ((record: ConversationRecord) => Promise<void>)[] = [];

  constructor(readonly deps: RuntimeDeps) {}

  /** Calls `listener` (under the conversation's lock) right after each conversation ends. */
  onEnded(listener: (record: ConversationRecord) => Promise<void>): void {
    this.endedListeners.push(listener);
  }

  /**
   * Runs `task` holding the conversation's lock; 404 when the conversation does not exist in `org` (if given).
   * Resolves once the timers `task` set are durable too, so that what a request acknowledges survives a kill.
   */
  use<T>(conversationId: string, task: (live: LiveConversation) => Promise<T>, org?: string): Promise<T> {
    return this.deps.queue.run(`conversation:${conversationId}`, async () => {
      const record = await this.deps.store.conversations.get(conversationId);
      if (record === undefined || (org !== undefined && record.org !== org))
        throw notFound('conversation', conversationId);
      const live = new LiveConversation(record, this);
      try {
        return await task(live);
      } finally {
        await live.timersWritten();
      }
    });
  }

  /**
   * Runs `task` under the lock `delayMs` from now, unless the conversation has ended by then. A timer with the
   * same `name` on the same conversation is replaced; the end cancels them all.
   */
  schedule(
    conversationId: string,
    name: string,
    delayMs: number,
    task: (live: LiveConversation) => Promise<void>,
  ): Promise<void> {
    return this.deps.timers.set(`${conversationId}/${name}`, delayMs, this.timerTask(conversationId, task));
  }

  /** What a timer of the conversation runs: `task` under the lock, unless the conversation has ended. */
  timerTask(conversationId: string, task: (live: LiveConversation) => Promise<void>): () => Promise<void> {
    return () =>
      this.use(conversationId, async (live) => {
        if (!live.ended) await task(live);
      });
  }

  /** Names of the conversation's pending timers (tests). */
  pendingTimers(conversationId: string): string[] {
    return this.deps.timers.names(`${conversationId}/`).map((name) => name.slice(conversationId.length + 1));
  }

  /** Cancels the conversation's timers, schedules its purge, tells the listeners. Called by `LiveConversation.end`. */
  async afterEnd(record: ConversationRecord): Promise<void> {
    const { timers, bus, retentionMs } = this.deps;
    await timers.cancelPrefix(`${record.id}/`);
    // A database bus is swept by the service instead (`ReferenceService`, retention).
    if (bus.purgeEndedBefore === undefined)
      await timers.set(`purge:${record.id}`, retentionMs, () => bus.purge(record.id));
    for (const listener of this.endedListeners) await listener(record);
  }
}

/**
 * One conversation while its lock is held: its record, and the moves that change it. Stored records are frozen, so
 * each move replaces `record` with a changed copy and saves it at once.
 */
export class LiveConversation {
  #record: ConversationRecord;
  /** The writes of the timers set while the lock is held, awaited before it is released. */
  readonly #timerWrites: Promise<void>[] = [];

  constructor(
    record: ConversationRecord,
    private readonly runtime: ConversationRuntime,
  ) {
    this.#record = record;
  }

  /** The current record (frozen: change it with `update`). */
  get record(): ConversationRecord {
    return this.#record;
  }

  /** True once a final status is reached (nothing may be emitted then). */
  get ended(): boolean {
    return isEnded(this.#record);
  }

  /** Appends an event to the conversation's log (with `id` when it was given out before, else a fresh one). */
  async emit(payload: ServerEventPayload, id?: string): Promise<ServerEvent> {
    const { bus, clock } = this.runtime.deps;
    const event = buildEvent(this.#record, payload, isoNow(clock), id);
    await bus.append(this.#record.id, event);
    return event;
  }

  /** The events of the conversation's log kept so far, oldest first. */
  async events(): Promise<ServerEvent[]> {
    return (await this.runtime.deps.bus.read(this.#record.id)) ?? [];
  }

  /** Replaces the record with a copy carrying `changes`, and saves it. */
  update(changes: Partial<ConversationRecord>): Promise<void> {
    this.#record = { ...this.#record, ...changes };
    return this.runtime.deps.store.conversations.put(this.#record);
  }

  /**
   * `queued` → `in-progress`: sets `started_at`, emits `conversation.started`, then the events held while queued;
   * does nothing otherwise.
   */
  async start(): Promise<boolean> {
    if (this.#record.status !== 'queued') return false;
    const held = this.#record.held_events ?? [];
    await this.update({ status: 'in-progress', started_at: isoNow(this.runtime.deps.clock), held_events: [] });
    await this.emit({ type: 'conversation.started' });
    for (const { id, payload } of held) await this.emit(payload, id);
    return true;
  }

  /**
   * Ends the conversation: the final status, `completed_at`, `duration_sec` (null if it never started),
   * `failure_reason` (only with `failed`), summary and sentiment (once it started); then `conversation.ended`,
   * the last event. Does nothing when it has already ended.
   */
  async end(outcome: ConversationOutcome): Promise<void> {
    if (this.ended) return;
    const { clock, bus } = this.runtime.deps;
    const now = clock.now();
    const { id, started_at: startedAt } = this.#record;
    const turns = startedAt === null ? null : transcriptOf((await bus.read(id)) ?? []);
    await this.update({
      status: outcome.status,
      completed_at: new Date(now).toISOString(),
      duration_sec: startedAt === null ? null : (now - Date.parse(startedAt)) / 1000,
      failure_reason: outcome.status === 'failed' ? (outcome.failureReason ?? 'internal_error') : null,
      ...(turns === null ? {} : { summary: summarize(turns), sentiment: sentimentOf(turns) }),
    });
    await this.emit(
      outcome.endedBy === undefined
        ? { type: 'conversation.ended' }
        : { type: 'conversation.ended', ended_by: outcome.endedBy },
    );
    await this.runtime.afterEnd(this.#record);
  }

  /**
   * Merges `data` into the context and emits `conversation.context.updated`; returns the event's id. While the
   * conversation is `queued` the event is held, to follow `conversation.started` (never emitted if the conversation
   * ends without starting, as an unanswered call does).
   */
  async mergeContext(data: ContextData, triggerResponse: boolean): Promise<string> {
    const context = { ...this.#record.context, ...data };
    const payload: ServerEventPayload = {
      type: 'conversation.context.updated',
      data: { ...data },
      trigger_response: triggerResponse,
    };
    if (this.#record.status !== 'queued') {
      await this.update({ context });
      return (await this.emit(payload)).id;
    }
    const held: HeldEvent = { id: newId('ev'), payload };
    await this.update({ context, held_events: [...(this.#record.held_events ?? []), held] });
    return held.id;
  }

  /**
   * Sets a custom field. While the conversation is live it emits `conversation.custom_fields.updated`; after the
   * end only the record changes, since nothing may follow `conversation.ended` on the stream.
   */
  async setCustomField(key: string, value: CustomFieldValue): Promise<void> {
    const old = this.#record.custom_fields[key];
    await this.update({ custom_fields: { ...this.#record.custom_fields, [key]: value } });
    if (this.ended) return;
    await this.emit({
      type: 'conversation.custom_fields.updated',
      key,
      new_value: value,
      ...(old === undefined ? {} : { old_value: old }),
    });
  }

  /** Runs `task` under this conversation's lock later (see `ConversationRuntime.schedule`). */
  schedule(name: string, delayMs: number, task: (live: LiveConversation) => Promise<void>): void {
    const written = this.runtime.schedule(this.#record.id, name, delayMs, task);
    // Handled here so that a failure waits for `timersWritten` without being reported as unhandled first.
    written.catch(() => undefined);
    this.#timerWrites.push(written);
  }

  /** Resolves once the timers set through `schedule` are written; rejects when one could not be. */
  async timersWritten(): Promise<void> {
    await Promise.all(this.#timerWrites.splice(0));
  }
}
