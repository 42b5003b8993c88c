/** The raw event list of the open conversation: one row per event (time, type, summary), its JSON on demand. */
import type { ServerEvent } from '../../../generated/src/types.gen.js';
import { clock, h } from './dom.js';
import { summarize } from './summary.js';

/** Appends events to `list` and keeps `counter` at their number. */
export class EventLog {
  #count = 0;

  constructor(
    private readonly list: HTMLElement,
    private readonly counter: HTMLElement,
  ) {}

  /** Adds one event. */
  add(event: ServerEvent): void {
    const { type } = event.payload;
    const summary = summarize(event);
    this.list.append(
      h(
        'li',
        { 'data-type': type, 'data-event-id': event.id, class: event.experimental ? 'experimental' : undefined },
        h(
          'details',
          {},
          h(
            'summary',
            {},
            h('time', { datetime: event.created_at }, clock(event.created_at)),
            h('code', { class: 'type' }, type),
            summary && h('span', { class: 'sum' }, summary),
          ),
          h('pre', {}, JSON.stringify(event, null, 2)),
        ),
      ),
    );
    this.#count += 1;
    this.counter.textContent = String(this.#count);
    this.list.scrollTop = this.list.scrollHeight;
  }
}
