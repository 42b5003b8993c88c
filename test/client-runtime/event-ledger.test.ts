import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventLedger } from '../../templates/client/event-ledger.js';

describe('EventLedger', () => {
  it('accepts an id once, counts the resumed-from id as delivered, and lets events without id pass', () => {
    const ledger = new EventLedger('ev_resumed');
    expect(ledger.lastEventId).toBe('ev_resumed');
    expect(ledger.accept('ev_resumed')).toBe(false);
    expect(ledger.accept('ev_1')).toBe(true);
    expect(ledger.accept('ev_2')).toBe(true);
    expect(ledger.accept('ev_1')).toBe(false);
    expect(ledger.lastEventId).toBe('ev_2');
    expect(ledger.accept(undefined)).toBe(true);
    expect(ledger.accept(undefined)).toBe(true);
    expect(ledger.lastEventId).toBe('ev_2');
  });

  it('tells apart ids that differ only in length or in one character, and keeps them all as it grows', () => {
    const ledger = new EventLedger();
    const ids = ['', 'a', 'aa', 'ab', 'ba', 'é', '😀', 'ev_x'.repeat(3000)];
    for (let n = 0; n < 20_000; n++) ids.push(`ev_${n.toString(36)}`);
    for (const id of ids) expect(ledger.accept(id)).toBe(true);
    for (const id of ids) expect(ledger.accept(id)).toBe(false);
    expect(ledger.accept(`${'ev_x'.repeat(3000)}y`)).toBe(true);
    expect(ledger.accept('ev_x'.repeat(2999))).toBe(true);
    expect(ledger.lastEventId).toBe('ev_x'.repeat(2999));
  });

  it('answers as a set of the ids seen so far would, for any sequence of ids', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6, unit: 'binary' }), { maxLength: 400 }), (ids) => {
        const ledger = new EventLedger();
        const seen = new Set<string>();
        let last: string | undefined;
        for (const id of ids) {
          const fresh = !seen.has(id);
          seen.add(id);
          if (fresh) last = id;
          expect(ledger.accept(id)).toBe(fresh);
        }
        expect(ledger.lastEventId).toBe(last);
      }),
    );
  });
});
