/**
 * The event bus over a database: each event is written to the `event_log` table before `append` resolves (an
 * acknowledged event is durable), and the memory bus stays the live layer that subscribers of this process follow.
 * A conversation's log is read back from the database the first time this process touches it (after a restart),
 * so resuming from an event id works across restarts. `purge` deletes the rows.
 */
import type { ServerEvent } from '../../generated/src/types.gen.js';
import type { Database } from '../database/types.js';
import { KeyedQueue } from '../keyed-queue.js';
import { DEFAULT_EVENT_LIMITS, type EventLimits, MemoryEventBus } from './memory.js';
import { type EventBus, EventLogClosedError, type Subscription } from './types.js';

/** What this process knows of a conversation's log once it is loaded. */
interface LogState {
  /** Events in the log (the position of the next one). */
  end: number;
  ended: boolean;
}

/** An `EventBus` whose logs are kept in `db` (migrated) and followed live in memory within `limits`. */
export class DurableEventBus implements EventBus {
  private readonly live: MemoryEventBus;
  private readonly loaded = new Map<string, Promise<LogState>>();
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly db: Database,
    limits: EventLimits = DEFAULT_EVENT_LIMITS,
  ) {
    this.live = new MemoryEventBus(limits);
  }

  append(conversationId: string, event: ServerEvent): Promise<void> {
    return this.queue.run(conversationId, async () => {
      const state = await this.state(conversationId);
      if (state.ended) throw new EventLogClosedError(conversationId);
      await this.db.query(
        'INSERT INTO event_log (conversation_id, position, id, event) VALUES ($1, $2, $3, $4::text::jsonb)',
        [conversationId, state.end, event.id, JSON.stringify(event)],
      );
      state.end++;
      if (event.payload.type === 'conversation.ended') state.ended = true;
      await this.live.append(conversationId, event);
    });
  }

  mark(conversationId: string, id: string): Promise<void> {
    return this.queue.run(conversationId, async () => {
      const state = await this.state(conversationId);
      await this.db.query(
        'INSERT INTO event_marks (conversation_id, id, position) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [conversationId, id, state.end],
      );
      await this.live.mark(conversationId, id);
    });
  }

  async read(conversationId: string, afterId?: string): Promise<ServerEvent[] | undefined> {
    await this.state(conversationId);
    return this.live.read(conversationId, afterId);
  }

  async subscribe(conversationId: string, afterId?: string): Promise<Subscription | undefined> {
    await this.state(conversationId);
    return this.live.subscribe(conversationId, afterId);
  }

  purge(conversationId: string): Promise<void> {
    return this.queue.run(conversationId, async () => {
      await this.db.query('DELETE FROM event_log WHERE conversation_id = $1', [conversationId]);
      await this.db.query('DELETE FROM event_marks WHERE conversation_id = $1', [conversationId]);
      this.loaded.delete(conversationId);
      await this.live.purge(conversationId);
    });
  }

  /** The conversation's log state, reading its log back from the database on first use. */
  private state(conversationId: string): Promise<LogState> {
    let state = this.loaded.get(conversationId);
    if (state === undefined) {
      state = this.restore(conversationId);
      this.loaded.set(conversationId, state);
      state.catch(() => this.loaded.delete(conversationId));
    }
    return state;
  }

  /** Replays the stored events and marks, in order, into the live layer. */
  private async restore(conversationId: string): Promise<LogState> {
    const events = await this.db.query<{ event: ServerEvent }>(
      'SELECT event FROM event_log WHERE conversation_id = $1 ORDER BY position',
      [conversationId],
    );
    const marks = await this.db.query<{ id: string; position: number }>(
      'SELECT id, position FROM event_marks WHERE conversation_id = $1 ORDER BY position',
      [conversationId],
    );
    const marksAt = new Map<number, string[]>();
    for (const { id, position } of marks) marksAt.set(position, [...(marksAt.get(position) ?? []), id]);
    for (let position = 0; position <= events.length; position++) {
      for (const id of marksAt.get(position) ?? []) await this.live.mark(conversationId, id);
      const row = events[position];
      if (row !== undefined) await this.live.append(conversationId, row.event);
    }
    const last = events.at(-1)?.event;
    return { end: events.length, ended: last?.payload.type === 'conversation.ended' };
  }
}
