/**
 * The durable event bus across restarts: what `append` acknowledged is read back by a new process's bus on the
 * reopened database, with its ids, marks and end; resuming after an id gives exactly what followed; purge deletes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { DurableEventBus } from '../../reference/bus/durable.js';
import { EventLogClosedError } from '../../reference/bus/types.js';
import { buildEvent } from '../../reference/events.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';

const conversation = { id: 'conv_1', agent_id: 'ca_1@v1', livemode: true };
const at = '2025-07-01T00:00:00.000Z';
const userText = (text: string): ServerEvent => buildEvent(conversation, { type: 'user.message.received', text }, at);
const ended = (): ServerEvent => buildEvent(conversation, { type: 'conversation.ended' }, at);
const texts = (events: readonly ServerEvent[] | undefined) =>
  (events ?? []).map((e) => (e.payload.type === 'user.message.received' ? e.payload.text : e.payload.type));

let database: TestDatabase | undefined;

afterEach(async () => {
  await database?.remove();
  database = undefined;
});

/** A new bus on the reopened database: what a restarted process has. */
async function restart(current: TestDatabase): Promise<DurableEventBus> {
  return new DurableEventBus(await current.reopen());
}

describe('DurableEventBus across a restart', () => {
  it('gives back every acknowledged event with its id, resumes after an id or a mark, and keeps the end', async () => {
    database = await openTestDatabase();
    const before = new DurableEventBus(database.db);
    const events = [userText('a'), userText('b')];
    for (const event of events) await before.append('conv_1', event);
    await before.mark('conv_1', 'ev_private');
    const last = [userText('c'), ended()];
    for (const event of last) await before.append('conv_1', event);
    await before.append(
      'conv_2',
      buildEvent({ ...conversation, id: 'conv_2' }, { type: 'user.message.received', text: 'other' }, at),
    );

    const after = await restart(database);
    const all = await after.read('conv_1');
    expect(all?.map((e) => e.id)).toEqual([...events, ...last].map((e) => e.id));
    expect(all).toEqual([...events, ...last]);
    expect(texts(await after.read('conv_1', events[0]?.id))).toEqual(['b', 'c', 'conversation.ended']);
    expect(texts(await after.read('conv_1', 'ev_private'))).toEqual(['c', 'conversation.ended']);
    expect(await after.read('conv_1', 'ev_unknown')).toBeUndefined();
    const resumed = await after.subscribe('conv_1', events[1]?.id);
    const seen: ServerEvent[] = [];
    for await (const event of resumed ?? []) seen.push(event);
    expect(texts(seen)).toEqual(['c', 'conversation.ended']);
    await expect(after.append('conv_1', userText('late'))).rejects.toBeInstanceOf(EventLogClosedError);
    expect(texts(await after.read('conv_2'))).toEqual(['other']);
  }, 60_000);

  it('continues a live log after the restart at the next position', async () => {
    database = await openTestDatabase();
    const before = new DurableEventBus(database.db);
    await before.append('conv_1', userText('a'));
    const after = await restart(database);
    const sub = await after.subscribe('conv_1', (await after.read('conv_1'))?.[0]?.id);
    await after.append('conv_1', userText('b'));
    expect(texts([(await sub?.next())?.value as ServerEvent])).toEqual(['b']);
    const again = await restart(database);
    expect(texts(await again.read('conv_1'))).toEqual(['a', 'b']);
  }, 60_000);

  it('purge deletes the stored log: a restarted bus reads nothing', async () => {
    database = await openTestDatabase();
    const before = new DurableEventBus(database.db);
    await before.append('conv_1', userText('a'));
    await before.mark('conv_1', 'ev_private');
    await before.purge('conv_1');
    const after = await restart(database);
    expect(await after.read('conv_1')).toEqual([]);
    expect(await after.read('conv_1', 'ev_private')).toBeUndefined();
  }, 60_000);
});
