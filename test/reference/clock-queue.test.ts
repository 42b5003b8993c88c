/** The fake clock (timers in order, awaited, rescheduling) and the keyed queue (serial per key, errors pass). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock, MAX_TIMEOUT_MS, systemClock } from '../../reference/clock.js';
import { KeyedQueue } from '../../reference/keyed-queue.js';
import { TimerGroup } from '../../reference/timers.js';

describe('FakeClock', () => {
  it('runs due timers in time order at their own instant, awaiting each, and not the others', async () => {
    const clock = new FakeClock('2025-07-01T00:00:00.000Z');
    const start = clock.now();
    const seen: [string, number][] = [];
    clock.setTimer(300, () => {
      seen.push(['c', clock.now() - start]);
    });
    clock.setTimer(100, async () => {
      await Promise.resolve();
      seen.push(['a', clock.now() - start]);
      clock.setTimer(50, () => {
        seen.push(['a+50', clock.now() - start]);
      });
    });
    clock.setTimer(100, () => {
      seen.push(['b', clock.now() - start]);
    });
    const late = clock.setTimer(1000, () => {
      seen.push(['late', 0]);
    });
    await clock.advance(500);
    expect(seen).toEqual([
      ['a', 100],
      ['b', 100],
      ['a+50', 150],
      ['c', 300],
    ]);
    expect(clock.now() - start).toBe(500);
    late.cancel();
    await clock.advance(1000);
    expect(clock.pending).toBe(0);
  });

  it('stops a timer that keeps rescheduling itself at the same instant', async () => {
    const clock = new FakeClock();
    const again = () => {
      clock.setTimer(0, again);
    };
    clock.setTimer(0, again);
    await expect(clock.advance(1)).rejects.toThrow(/without reaching the target/);
  });
});

describe('systemClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a delay longer than setTimeout takes (which would fire at once), and cancels it', async () => {
    const fired: string[] = [];
    const long = systemClock.setTimer(MAX_TIMEOUT_MS + 1000, () => {
      fired.push('long');
    });
    systemClock.setTimer(5, () => {
      fired.push('short');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    long.cancel();
    expect(fired).toEqual(['short']);
  });

  it('runs a long timer when its time comes, across several setTimeout spans', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let fired = 0;
    systemClock.setTimer(2 * MAX_TIMEOUT_MS + 1000, () => {
      fired++;
    });
    vi.advanceTimersByTime(2 * MAX_TIMEOUT_MS + 999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
  });
});

describe('TimerGroup', () => {
  it('replaces by name, cancels by prefix, reports errors and ignores sets after close', async () => {
    const clock = new FakeClock();
    const errors: unknown[] = [];
    const timers = new TimerGroup(clock, (error) => errors.push(error));
    const ran: string[] = [];
    timers.set('a/1', 10, () => {
      ran.push('first');
    });
    timers.set('a/1', 20, () => {
      ran.push('replacement');
    });
    timers.set('a/2', 10, () => {
      ran.push('cancelled');
    });
    timers.set('b', 10, () => {
      throw new Error('boom');
    });
    timers.cancelPrefix('a/2');
    expect(timers.names().sort()).toEqual(['a/1', 'b']);
    await clock.advance(100);
    expect(ran).toEqual(['replacement']);
    expect(errors).toHaveLength(1);
    timers.close();
    timers.set('c', 1, () => {
      ran.push('after close');
    });
    await clock.advance(10);
    expect(ran).toEqual(['replacement']);
  });
});

describe('KeyedQueue', () => {
  it('runs tasks of one key one at a time, in order, and lets other keys through', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = queue.run('k', async () => {
      log.push('k1 start');
      await gate;
      log.push('k1 end');
    });
    const second = queue.run('k', async () => {
      log.push('k2');
    });
    await queue.run('other', async () => {
      log.push('other');
    });
    expect(log).toEqual(['k1 start', 'other']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['k1 start', 'other', 'k1 end', 'k2']);
  });

  it('passes errors to their caller without stopping the queue, and forgets idle keys', async () => {
    const queue = new KeyedQueue();
    await expect(queue.run('k', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await queue.run('k', async () => 42)).toBe(42);
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });
});
