/** Remembers which event ids were delivered, so a replay after a reconnect delivers nothing twice. */

/** The delivered ids of one stream or session, and the last one (sent back as `Last-Event-ID` / `last_event_id`). */
export class EventLedger {
  readonly #delivered = new Set<string>();
  #lastEventId: string | undefined;

  /** `lastEventId`: where a previous stream stopped; that event counts as delivered. */
  constructor(lastEventId?: string) {
    if (lastEventId !== undefined) this.#record(lastEventId);
  }

  /** The id of the last event delivered (or the one resumed from). */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Records `id` and returns true the first time; false for an id already delivered. Events without id pass. */
  accept(id: string | undefined): boolean {
    if (id === undefined) return true;
    // One hash lookup: a new id grows the set.
    const size = this.#delivered.size;
    this.#delivered.add(id);
    if (this.#delivered.size === size) return false;
    this.#lastEventId = id;
    return true;
  }

  #record(id: string): void {
    this.#delivered.add(id);
    this.#lastEventId = id;
  }
}

/** The `id` of an event envelope, when it has a string one. */
export function envelopeId(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { id } = event as { id?: unknown };
  return typeof id === 'string' ? id : undefined;
}
