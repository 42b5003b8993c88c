/** Remembers which event ids were delivered, so a replay after a reconnect delivers nothing twice. */

/** An id table that starts this small grows by doubling. */
const INITIAL_IDS = 64;

/**
 * The delivered ids of one stream or session, and the last one (sent back as `Last-Event-ID` / `last_event_id`).
 * The ids are kept as characters in typed arrays, found through an open-addressing hash table of their numbers: no
 * object per id, so a day-long stream, or a process following hundreds of streams, gives the garbage collector
 * nothing more to trace or copy as events arrive.
 */
export class EventLedger {
  /** The characters of every delivered id, back to back. */
  #chars = new Uint16Array(INITIAL_IDS * 32);
  /** Where each id begins in `#chars`, and where the next one will: id k is `#chars[#starts[k]..#starts[k + 1])`. */
  #starts = new Int32Array(INITIAL_IDS + 1);
  /** Each id's hash (`hashOf`). */
  #hashes = new Int32Array(INITIAL_IDS);
  #count = 0;
  /** Hash table of id numbers plus one (0: an empty slot); its length is a power of two, at most half of it used. */
  #slots = new Int32Array(INITIAL_IDS * 2);
  #lastEventId: string | undefined;

  /** `lastEventId`: where a previous stream stopped; that event counts as delivered. */
  constructor(lastEventId?: string) {
    if (lastEventId !== undefined) this.accept(lastEventId);
  }

  /** The id of the last event delivered (or the one resumed from). */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Records `id` and returns true the first time; false for an id already delivered. Events without id pass. */
  accept(id: string | undefined): boolean {
    if (id === undefined) return true;
    const hash = hashOf(id);
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    for (let entry = this.#slots[slot] as number; entry !== 0; entry = this.#slots[slot] as number) {
      if (this.#hashes[entry - 1] === hash && this.#holds(entry - 1, id)) return false;
      slot = (slot + 1) & mask;
    }
    this.#append(id, hash);
    this.#slots[slot] = this.#count;
    if (this.#count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    this.#lastEventId = id;
    return true;
  }

  /** Whether id number `k` is `id`. */
  #holds(k: number, id: string): boolean {
    const start = this.#starts[k] as number;
    if ((this.#starts[k + 1] as number) - start !== id.length) return false;
    for (let i = 0; i < id.length; i++) if (this.#chars[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  /** Stores `id`'s characters and hash as the next id number. */
  #append(id: string, hash: number): void {
    const start = this.#starts[this.#count] as number;
    if (start + id.length > this.#chars.length) {
      this.#chars = grown(this.#chars, Math.max(this.#chars.length * 2, start + id.length));
    }
    if (this.#count + 2 > this.#starts.length) {
      this.#starts = grown(this.#starts, this.#starts.length * 2);
      this.#hashes = grown(this.#hashes, this.#starts.length);
    }
    for (let i = 0; i < id.length; i++) this.#chars[start + i] = id.charCodeAt(i);
    this.#hashes[this.#count] = hash;
    this.#count++;
    this.#starts[this.#count] = start + id.length;
  }

  /** Rebuilds the hash table with `size` slots. */
  #rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < this.#count; k++) {
      let slot = (this.#hashes[k] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.#slots = slots;
  }
}

/** FNV-1a over the UTF-16 code units of `text`, as a signed 32-bit integer (what an `Int32Array` holds). */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** A copy of `array` with room for `length` items. */
function grown<T extends Uint16Array | Int32Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}

/** The `id` of an event envelope, when it has a string one. */
export function envelopeId(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { id } = event as { id?: unknown };
  return typeof id === 'string' ? id : undefined;
}
