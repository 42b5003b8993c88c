/**
 * The event bus over a database: each event is written to the `event_log` table before `append` resolves (an
 * acknowledged event is durable), at the position `event_heads` gives it, so that processes sharing one database
 * number each log together. The memory bus stays the live layer that this process's subscribers follow: it is read
 * back from the database the first time this process touches a log, and on PostgreSQL it follows the appends of
 * other processes through `NOTIFY` (carrying the conversation and the position), so every subscriber of every
 * process sees one order with the same ids. Memory holds only the newest events (`limits`): what it dropped is
 * read back from the database (`DurableSubscription`). Retention deletes the logs by SQL (`purgeEndedBefore`).
 */
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { fromJsonColumn, toJsonColumn } from '../database/json-column.js';
import type { Database } from '../database/types.js';
import { KeyedQueue } from '../keyed-queue.js';
import { DurableSubscription } from './durable-subscription.js';
import { DATABASE_EVENT_LIMITS, type EventLimits, MAX_MARKS_PER_CONVERSATION, MemoryEventBus } from './memory.js';
import { type EventBus, EventLogClosedError, type Subscription } from './types.js';

/** The channel of appends (`<conversation id> <position>`) and of purged logs (`<conversation id>`). */
export const APPENDED_CHANNEL = 'casi_events';
export const PURGED_CHANNEL = 'casi_purged';

/**
 * One append: the next position of the log (refused once it ended), the row, and the notice, sent when the
 * transaction commits. The head row stays locked until then, so one log's appends commit (and notify) in order.
 */
const APPEND = `WITH head AS (
    INSERT INTO event_heads AS h (conversation_id, next_position, ended, ended_at) VALUES ($1, 1, $4, $5)
    ON CONFLICT (conversation_id) DO UPDATE SET next_position = h.next_position + 1, ended = $4, ended_at = $5
      WHERE NOT h.ended
    RETURNING next_position - 1 AS position
  ), logged AS (
    INSERT INTO event_log (conversation_id, position, id, event)
    SELECT $1, position, $2, $3::text::jsonb FROM head RETURNING position
  )
  SELECT position, pg_notify('${APPENDED_CHANNEL}', $1 || ' ' || position) FROM logged`;

/** A mark names the log's end as the database has it. */
const MARK = `INSERT INTO event_marks (conversation_id, id, position)
  SELECT $1, $2, COALESCE((SELECT next_position FROM event_heads WHERE conversation_id = $1), 0)
  ON CONFLICT DO NOTHING RETURNING position`;

/** Forgets the marks of a log but its newest `MAX_MARKS_PER_CONVERSATION`, as the memory bus does. */
const TRIM_MARKS = `DELETE FROM event_marks WHERE conversation_id = $1 AND seq <= (
    SELECT seq FROM event_marks WHERE conversation_id = $1 ORDER BY seq DESC OFFSET ${MAX_MARKS_PER_CONVERSATION} LIMIT 1
  )`;

/** Marks the logs ended before `$1` as purged and deletes their rows; the conversations purged, each notified. */
const PURGE_DUE = `WITH due AS (
    UPDATE event_heads SET purged = true WHERE ended AND NOT purged AND ended_at < $1 RETURNING conversation_id
  ), events AS (
    DELETE FROM event_log WHERE conversation_id IN (SELECT conversation_id FROM due)
  ), marks AS (
    DELETE FROM event_marks WHERE conversation_id IN (SELECT conversation_id FROM due)
  )
  SELECT conversation_id, pg_notify('${PURGED_CHANNEL}', conversation_id) FROM due`;

/** Events a subscriber reading from the database gets per query. */
export const PAGE_EVENTS = 500;

/** What this process knows of a conversation's log once it is loaded: the position of the next event. */
interface LogState {
  end: number;
}

/** An `EventBus` whose logs are kept in `db` (migrated) and followed live in memory within `limits`. */
export class DurableEventBus implements EventBus {
  private readonly live: MemoryEventBus;
  private readonly loaded = new Map<string, LogState>();
  private readonly queue = new KeyedQueue();
  /** True when other processes may append to the same logs (PostgreSQL): reads catch up with the database first. */
  private readonly shared: boolean;

  /**
   * `db.listen` (PostgreSQL) makes the bus follow other processes; call `listen()` before serving. Without it
   * (the embedded database) this process is the only writer.
   */
  constructor(
    private readonly db: Database,
    private readonly limits: EventLimits = DATABASE_EVENT_LIMITS,
  ) {
    this.live = new MemoryEventBus(limits);
    this.shared = db.listen !== undefined;
  }

  /** Starts following the appends and purges of other processes (PostgreSQL only). */
  async listen(): Promise<void> {
    if (this.db.listen === undefined) return;
    await this.db.listen(
      APPENDED_CHANNEL,
      (payload) => this.onAppended(payload),
      () => this.onReconnect(),
    );
    await this.db.listen(PURGED_CHANNEL, (conversationId) => void this.dropLive(conversationId));
  }

  append(conversationId: string, event: ServerEvent): Promise<void> {
    return this.queue.run(conversationId, async () => {
      const state = await this.state(conversationId);
      const ended = event.payload.type === 'conversation.ended';
      const rows = await this.db.query<{ position: number }>(APPEND, [
        conversationId,
        event.id,
        toJsonColumn(event),
        ended,
        ended ? event.created_at : null,
      ]);
      const position = rows[0]?.position;
      if (position === undefined) throw new EventLogClosedError(conversationId);
      if (position === state.end) {
        state.end++;
        await this.live.append(conversationId, event);
      } else {
        await this.catchUp(conversationId, state);
      }
    });
  }

  mark(conversationId: string, id: string): Promise<void> {
    return this.queue.run(conversationId, async () => {
      const state = await this.state(conversationId);
      const [row] = await this.db.query<{ position: number }>(MARK, [conversationId, id]);
      if (row === undefined) return;
      await this.db.query(TRIM_MARKS, [conversationId]);
      if (state.end < row.position) await this.catchUp(conversationId, state);
      // Marked here only when this process's log ends where the database's did; else a read looks the mark up.
      if (state.end === row.position) await this.live.mark(conversationId, id);
    });
  }

  /** Every event stored, or those after `afterId`: from memory while it holds them, else from the database. */
  async read(conversationId: string, afterId?: string): Promise<ServerEvent[] | undefined> {
    const start = await this.startOf(conversationId, afterId);
    if (start === undefined) return undefined;
    const kept = this.live.readAt(conversationId, start);
    if (kept !== undefined) return kept;
    const rows = await this.db.query<{ event: string }>(
      'SELECT event::text AS event FROM event_log WHERE conversation_id = $1 AND position >= $2 ORDER BY position',
      [conversationId, start],
    );
    return rows.map((row) => fromJsonColumn<ServerEvent>(row.event));
  }

  /** A subscription that reads from the database what memory no longer holds (see `DurableSubscription`). */
  async subscribe(conversationId: string, afterId?: string): Promise<Subscription | undefined> {
    const start = await this.startOf(conversationId, afterId);
    if (start === undefined) return undefined;
    return new DurableSubscription(
      {
        page: (position) => this.page(conversationId, position),
        live: (position) => this.live.subscribeAt(conversationId, position),
        end: () => this.live.extent(conversationId)?.end ?? 0,
      },
      start,
    );
  }

  purge(conversationId: string): Promise<void> {
    return this.queue.run(conversationId, async () => {
      await this.db.query('UPDATE event_heads SET purged = true WHERE conversation_id = $1', [conversationId]);
      await this.db.query('DELETE FROM event_log WHERE conversation_id = $1', [conversationId]);
      await this.db.query('DELETE FROM event_marks WHERE conversation_id = $1', [conversationId]);
      await this.db.query(`SELECT pg_notify('${PURGED_CHANNEL}', $1)`, [conversationId]);
      this.loaded.delete(conversationId);
      await this.live.purge(conversationId);
    });
  }

  /**
   * Deletes, by SQL, the logs of conversations that ended before `before` (ISO 8601), once each whatever the
   * processes sweeping together; returns how many. Their subscriptions end in every process.
   */
  async purgeEndedBefore(before: string): Promise<number> {
    const purged = await this.db.query<{ conversation_id: string }>(PURGE_DUE, [before]);
    for (const { conversation_id: id } of purged) await this.dropLive(id);
    return purged.length;
  }

  /** Events this process holds in memory (what its heap costs). */
  get heldEvents(): number {
    return this.live.heldEvents;
  }

  /**
   * Loads the log and, when shared, catches up with the database; the absolute position to read from: 0 without
   * `afterId`, else just after the event or mark it names, looked up in memory, then in the database; undefined
   * when it names nothing of the log.
   */
  private startOf(conversationId: string, afterId: string | undefined): Promise<number | undefined> {
    return this.queue.run(conversationId, async () => {
      const state = await this.state(conversationId);
      if (this.shared) await this.catchUp(conversationId, state);
      if (afterId === undefined) return 0;
      const kept = this.live.positionAfterId(conversationId, afterId);
      if (kept !== undefined) return kept;
      const [event] = await this.db.query<{ position: number }>(
        'SELECT position FROM event_log WHERE conversation_id = $1 AND id = $2',
        [conversationId, afterId],
      );
      if (event !== undefined) return event.position + 1;
      const [mark] = await this.db.query<{ position: number }>(
        'SELECT position FROM event_marks WHERE conversation_id = $1 AND id = $2',
        [conversationId, afterId],
      );
      return mark?.position;
    });
  }

  /** Up to `PAGE_EVENTS` stored events of the log from `position` on, in order. */
  private async page(conversationId: string, position: number): Promise<ServerEvent[]> {
    const rows = await this.db.query<{ event: string }>(
      'SELECT event::text AS event FROM event_log WHERE conversation_id = $1 AND position >= $2 ORDER BY position LIMIT $3',
      [conversationId, position, PAGE_EVENTS],
    );
    return rows.map((row) => fromJsonColumn<ServerEvent>(row.event));
  }

  /** The conversation's log state (call within its queue), reading its log back from the database on first use. */
  private async state(conversationId: string): Promise<LogState> {
    let state = this.loaded.get(conversationId);
    if (state === undefined) {
      state = await this.restore(conversationId);
      this.loaded.set(conversationId, state);
    }
    return state;
  }

  /** Replays the newest stored events and their marks, in order, into the live layer. */
  private async restore(conversationId: string): Promise<LogState> {
    // Only the newest events memory would keep: older ones are read from the database when asked for.
    const [head] = await this.db.query<{ next_position: number }>(
      'SELECT next_position FROM event_heads WHERE conversation_id = $1',
      [conversationId],
    );
    const from = Math.max(0, (head?.next_position ?? 0) - this.limits.perConversation);
    const marks = await this.db.query<{ id: string; position: number }>(
      'SELECT id, position FROM event_marks WHERE conversation_id = $1 AND position >= $2 ORDER BY position, seq',
      [conversationId, from],
    );
    this.live.startAt(conversationId, from);
    const state: LogState = { end: from };
    await this.catchUp(conversationId, state, marks);
    return state;
  }

  /** Appends to the live layer the events the database has past `state.end` (and the marks among them). */
  private async catchUp(
    conversationId: string,
    state: LogState,
    marks: readonly { id: string; position: number }[] = [],
  ): Promise<void> {
    const rows = (
      await this.db.query<{ position: number; event: string }>(
        'SELECT position, event::text AS event FROM event_log WHERE conversation_id = $1 AND position >= $2 ORDER BY position',
        [conversationId, state.end],
      )
    ).map((row) => ({ position: row.position, event: fromJsonColumn<ServerEvent>(row.event) }));
    let next = 0;
    const markUpTo = async (position: number) => {
      for (; next < marks.length && (marks[next]?.position ?? 0) <= position; next++) {
        await this.live.mark(conversationId, marks[next]?.id ?? '');
      }
    };
    for (const { position, event } of rows) {
      await markUpTo(position);
      await this.live.append(conversationId, event);
      state.end = position + 1;
    }
    await markUpTo(Number.POSITIVE_INFINITY);
  }

  /** A notice of another process's append: this process's log of that conversation, if loaded, catches up. */
  private onAppended(payload: string): void {
    const space = payload.lastIndexOf(' ');
    const conversationId = payload.slice(0, space);
    const position = Number(payload.slice(space + 1));
    const known = this.loaded.get(conversationId);
    if (known === undefined || known.end > position) return;
    void this.queue
      .run(conversationId, async () => {
        const state = this.loaded.get(conversationId);
        if (state !== undefined && state.end <= position) await this.catchUp(conversationId, state);
      })
      .catch(() => undefined);
  }

  /** After notices may have been missed: every loaded log catches up. */
  private onReconnect(): void {
    for (const conversationId of this.loaded.keys()) this.onAppended(`${conversationId} ${Number.MAX_SAFE_INTEGER}`);
  }

  /** Drops this process's copy of a purged log; its subscriptions end. */
  private dropLive(conversationId: string): Promise<void> {
    return this.queue.run(conversationId, async () => {
      this.loaded.delete(conversationId);
      await this.live.purge(conversationId);
    });
  }
}
